//! Cases that decide what a mutant of the reference's code would change (mutation testing:
//! `proofs-notes/mutants.md`), each with its answer in closed form.
use pbgi_reference::{stop_decision, Candidate};

#[test]
fn smallest_pbgi_on_a_tie_is_the_first_index() {
    // σ = 0: PBGI = μ + c exactly, 1 + 1/2 = 1/2 + 1 = 3/2 (both exact in binary).
    let tied = [
        Candidate {
            mu: 1.0,
            sigma: 0.0,
            cost: 0.5,
        },
        Candidate {
            mu: 0.5,
            sigma: 0.0,
            cost: 1.0,
        },
    ];
    assert_eq!(stop_decision(&tied, 2.0).unwrap().min_pbgi, Some(0));
    // Identical σ > 0 candidates: the same certified PBGI, the first is reported.
    let same = Candidate {
        mu: 0.0,
        sigma: 1.0,
        cost: 0.1,
    };
    assert_eq!(
        stop_decision(&[same, same, same], 0.0).unwrap().min_pbgi,
        Some(0)
    );
}
