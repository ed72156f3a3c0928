//! Source of truth: the stopping rule's definition (MATH.md, "The PBGI/LogEIPC stopping rule")
//! on cases whose answer is known in closed form: `σ = 0` (PBGI = μ + c exactly), MATH.md's
//! published PBGI values, and the tie rule (ties stop).

use pbgi_reference::{ei_with, stop_decision, Accuracy, Candidate, StopDecision};

/// `EI(y) ≤ c` decided from `ei`'s enclosure, tightening it until it excludes `c`.
fn ei_at_most_cost(cand: Candidate, y: f64) -> bool {
    for bits in [100, 400, 1600, 4000] {
        let acc = Accuracy {
            start_bits: bits + 32,
            max_bits: 16384,
            enclosure_bits: bits,
        };
        let e = ei_with(cand.mu, cand.sigma, y, &acc).unwrap();
        if e.upper < cand.cost {
            return true;
        }
        if e.lower > cand.cost {
            return false;
        }
    }
    panic!("{cand:?}: EI({y}) = cost to 4000 bits")
}

fn c(mu: f64, sigma: f64, cost: f64) -> Candidate {
    Candidate { mu, sigma, cost }
}

#[test]
fn no_candidates_stop() {
    let d = stop_decision(&[], 0.0).unwrap();
    assert_eq!(
        d,
        StopDecision {
            stop: true,
            blocking: vec![],
            min_pbgi: None
        }
    );
}

#[test]
fn sigma_zero_ties_stop_and_anything_below_blocks() {
    // PBGI = 1 + 0.5 = 1.5 exactly.
    let cand = [c(1.0, 0.0, 0.5)];
    assert!(
        stop_decision(&cand, 1.5).unwrap().stop,
        "tie PBGI = y* stops"
    );
    assert!(stop_decision(&cand, 1.4).unwrap().stop, "PBGI > y* stops");
    let next = 1.5f64 + f64::EPSILON;
    let d = stop_decision(&cand, next).unwrap();
    assert!(
        !d.stop && d.blocking == vec![0],
        "PBGI < y* by one ulp blocks"
    );
}

#[test]
fn published_pbgi_values_decide_the_rule() {
    // PBGI(0,1,1e-4) = -3.3630153259270825 (MATH.md).
    let cand = [c(0.0, 1.0, 1e-4)];
    assert!(!stop_decision(&cand, -3.3630153259270820).unwrap().stop);
    assert!(stop_decision(&cand, -3.3630153259270830).unwrap().stop);
    // PBGI(0,1,0.1) = -0.9023463475100345 (MATH.md); shifted by μ = 10.
    let cand = [c(10.0, 1.0, 0.1)];
    assert!(!stop_decision(&cand, 10.0 - 0.9).unwrap().stop);
    assert!(stop_decision(&cand, 10.0 - 0.91).unwrap().stop);
}

#[test]
fn y_star_next_to_the_exact_pbgi_is_decided() {
    // mpmath (tests/data/mpmath_values.csv): PBGI(0,1,1e-4) = -3.363015325927082543965…, and
    // the double -3.3630153259270825 is exactly -3.363015325927082521673…, just above it: the
    // exact PBGI is below y*, so the rule must not stop (decided by a certified EI(y*) > c).
    let cand = [c(0.0, 1.0, 1e-4)];
    let d = stop_decision(&cand, -3.3630153259270825).unwrap();
    assert!(!d.stop && d.blocking == vec![0]);
    // The double below, -3.36301532592708296576…, is below the exact PBGI: stop.
    assert!(stop_decision(&cand, -3.363015325927083).unwrap().stop);
}

#[test]
fn blocking_candidates_and_the_smallest_index_are_reported() {
    let cand = [
        c(0.0, 0.0, 1.0),  // PBGI 1: stops for y* = 0.5
        c(0.0, 1.0, 1e-4), // PBGI -3.36: blocks
        c(5.0, 2.0, 1e-3), // PBGI 5 + 2·u, u ≈ -2.6: ≈ -0.2, blocks
        c(9.0, 1e-300, 1.0),
    ];
    let d = stop_decision(&cand, 0.5).unwrap();
    assert!(!d.stop);
    assert_eq!(d.blocking, vec![1, 2]);
    assert_eq!(d.min_pbgi, Some(1));
}

#[test]
fn both_forms_agree_over_a_sweep() {
    // stop_decision returns an error if its PBGI and LogEIPC forms ever disagree; sweep y*
    // across each candidate's PBGI, including extreme scales. The expected answer comes from
    // PBGI's certified enclosure: stop iff y* ≤ PBGI; when y* falls inside it, from EI's
    // enclosure at y* (EI increasing: PBGI ≥ y* ⇔ EI(y*) ≤ c).
    let cands = [
        c(0.0, 1.0, 0.3),
        c(-2.0, 1e-300, 1e-300),
        c(1e300, 1e300, 1e-300),
        c(0.0, 0.0, 2.0),
        c(3.0, 1e8, 1e300),
    ];
    for cand in cands {
        let g = pbgi_reference::pbgi(cand.mu, cand.sigma, cand.cost).unwrap();
        let v = g.value;
        for y in [
            v - v.abs() * 1e-3 - 1e-300,
            v,
            v + v.abs() * 1e-3 + 1e-300,
            f64::MAX,
            -f64::MAX,
        ] {
            let expected = if g.upper < y {
                false
            } else if g.lower >= y {
                true
            } else {
                ei_at_most_cost(cand, y)
            };
            let d = stop_decision(&[cand], y).unwrap_or_else(|e| panic!("{cand:?} y*={y}: {e}"));
            assert_eq!(d.stop, expected, "{cand:?} y*={y}");
        }
    }
}

#[test]
fn negligible_tail_at_an_exact_tie_still_blocks() {
    // μ + c = 0 = y* exactly, σ = 1.3e-184: PBGI = μ + c - σ·h(-u) with u ≈ 7.6e183 lies strictly
    // (if negligibly) below y*, and EI(y*) = 1 + σ·h(-z) > c = 1: both forms must block,
    // although LogEIPC rounds to +0. (Found by fuzzing: a closed-enclosure sign test said 0.)
    let cand = [c(-1.0, 1.3193958824832574e-184, 1.0)];
    let d = stop_decision(&cand, 0.0).unwrap();
    assert!(!d.stop && d.blocking == vec![0]);
    // With σ = 0 the same candidate is an exact tie: stop.
    assert!(stop_decision(&[c(-1.0, 0.0, 1.0)], 0.0).unwrap().stop);
}

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
