//! Source of truth: `pbgi`'s fast path (an independent certified path to the same root,
//! `tests/pbgi_fast_path.rs`) and the work counters of `pbgi_reference::work`. The certified
//! bisection `pbgi_bisection_with` settles in a few comparisons from its regula-falsi and
//! fixed-point proposals, and, from a coarse estimate, does the rounding by its bisection over
//! the ordered doubles from a bracket end at `+0`. Found by mutation testing
//! (`proofs-notes/mutants.md`).

use pbgi_reference::work::measure;
use pbgi_reference::{pbgi, pbgi_bisection_with, Accuracy};

#[test]
fn the_bisection_settles_in_a_few_comparisons_from_its_proposals() {
    // `pbgi_bisection_with` brackets the root from the asymptotics, then splits at points
    // proposed by a regula-falsi estimate of `ln EI(g) - ln c` (or, for a root with `u > 0`
    // whose tail the logarithm cannot see, one step of the fixed-point map): the rounding-cell
    // edges of its nearest double and `±2^-(bits+2)` around it. With a good estimate that takes
    // a handful of certified comparisons; without one, the bisection over the ordered doubles
    // and then over MPFR midpoints takes more than a hundred. Values: the fast path's (an
    // independent certified path, `tests/pbgi_fast_path.rs`).
    for (mu, sigma, cost) in [
        (0.0, 1.0, 0.1),
        (0.0, 1.0, 1e-4),
        (0.3, 1.2, 0.01),
        (1e6, 1.0, 1e-3),
        (0.0, 1.0, 0.5),
        (0.0, 1.0, 10.0),
        (0.0, 1.0, 40.0),
        (0.0, 1.0, 1e3),
        (0.0, 1.0, 1e10),
        (0.0, 1.0, 1e-300),
        (5.0, 1e-3, 2.0),
    ] {
        let (r, work) = measure(|| pbgi_bisection_with(mu, sigma, cost, &Accuracy::default()));
        let r = r.unwrap();
        assert_eq!(r.value, pbgi(mu, sigma, cost).unwrap().value);
        assert!(
            work.comparisons <= 12,
            "pbgi({mu:e}, {sigma:e}, {cost:e}): {} comparisons",
            work.comparisons
        );
    }
}

#[test]
fn a_coarse_estimate_leaves_the_bisection_over_the_doubles_from_a_zero_bracket_end() {
    // `pbgi_bisection_with`'s regula-falsi estimate is only as accurate as `enclosure_bits`
    // asks (relative `2^-bits`), so with a coarse target its double is rarely the root's and the
    // bisection over the ordered doubles does the rounding. With `c = 0.41σ` and `μ = 0`, the
    // bracket's lower end `μ + c - 0.41σ` is exactly `+0` (key 0), and the bisection starts from
    // there when the estimate lies above the root. Values: `pbgi`'s fast path (an independent
    // certified path, `tests/pbgi_fast_path.rs`).
    for enclosure_bits in [7, 24] {
        let coarse = Accuracy {
            start_bits: 128,
            max_bits: 8192,
            enclosure_bits,
        };
        for (mu, sigma, cost) in [(0.0, 1.0, 0.41), (0.0, 4.0, 1.64)] {
            let (r, work) = measure(|| pbgi_bisection_with(mu, sigma, cost, &coarse));
            let r = r.unwrap();
            let fine = pbgi(mu, sigma, cost).unwrap();
            let at = format!("pbgi({mu}, {sigma}, {cost}) at {enclosure_bits} bits");
            assert_eq!(r.value, fine.value, "{at}");
            // Both enclosures hold the root, so they overlap.
            assert!(r.lower <= fine.upper && fine.lower <= r.upper, "{at}");
            // The path this test is about: dozens of comparisons, not the proposals' handful.
            assert!(
                work.comparisons > 20,
                "{at}: {} comparisons",
                work.comparisons
            );
        }
    }
}
