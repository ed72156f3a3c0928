//! The PBGI/LogEIPC stopping rule's equivalence (stopping paper, eqs. 6–10; the argument is in
//! `proofs-notes/stopping-equivalence.md`, whose steps point here).
//!
//! `min PBGI ≥ y*` ⇔ `EI(x; y*) ≤ c(x)` for all candidates ⇔ `max LogEIPC ≤ 0`:
//! - exactly in the reference (every comparison decided from certified enclosures);
//! - in the fast crate except within its documented band around a tie, whose width is checked;
//! - for the unknown-cost `E[c]` form; and not for the `E[1/c]⁻¹` form (a pinned counterexample
//!   and a seeded search that finds more).
mod common;

use pbgi_conformance::function::Function;
use pbgi_conformance::oracle;
use pbgi_conformance::regions::Region;
use pbgi_conformance::tolerances::{fast_tolerance, known_reference_failure};
use pbgi_conformance::ulp::ulp_of;
use pbgi_reference::{Accuracy, Certified};
use proptest::prelude::*;
use std::cmp::Ordering;

/// Enclosures tight enough that a comparison with an f64 is decided unless it is an exact tie.
fn tight() -> Accuracy {
    Accuracy {
        enclosure_bits: 128,
        ..Accuracy::default()
    }
}

fn certified(result: Result<Certified, pbgi_reference::Error>) -> Certified {
    result.expect("the reference certifies every generated input")
}

/// The order of the exact value against `t`, decided from the enclosure; `None` only if the
/// enclosure contains `t` without being the point `t`.
fn compare(value: &Certified, t: f64) -> Option<Ordering> {
    if value.lower > t {
        Some(Ordering::Greater)
    } else if value.upper < t {
        Some(Ordering::Less)
    } else if value.lower == t && value.upper == t {
        Some(Ordering::Equal)
    } else {
        None
    }
}

/// `x` moved by `k` f64 steps.
fn step(x: f64, k: i32) -> f64 {
    let mut y = x;
    for _ in 0..k.unsigned_abs() {
        y = if k > 0 { y.next_up() } else { y.next_down() };
    }
    y
}

/// A candidate on a dyadic grid: `μ = j/64 ∈ [−10, 10]`, `σ = 0` (one in five) or `2^e`,
/// `cost = σ·2^k·(1 + f/8)` (`cost = 2^k·(1 + f/8)` when `σ = 0`) with `cost/σ ≤ 7.5`: beyond,
/// `g = μ + cost − σ·(tiny)` comes within `φ(u)/u²` of an f64, closer than any fixed-precision
/// enclosure separates (the order against such a `y*` is not decidable, only its rounding).
fn candidate() -> impl Strategy<Value = (f64, f64, f64)> {
    (-640i32..=640, -6i32..=6, 0u8..5, -30i32..=2, 0i32..8).prop_map(|(j, e, zero, k, f)| {
        let sigma = if zero == 0 { 0.0 } else { 2f64.powi(e) };
        let scale = if zero == 0 { 1.0 } else { sigma };
        (
            f64::from(j) / 64.0,
            sigma,
            scale * 2f64.powi(k) * (1.0 + f64::from(f) / 8.0),
        )
    })
}

fn reference_candidates(set: &[(f64, f64, f64)]) -> Vec<pbgi_reference::Candidate> {
    set.iter()
        .map(|&(mu, sigma, cost)| pbgi_reference::Candidate { mu, sigma, cost })
        .collect()
}

fn fast_candidates(set: &[(f64, f64, f64)]) -> Vec<pbgi_fast::Candidate> {
    set.iter()
        .map(|&(mu, sigma, cost)| pbgi_fast::Candidate { mu, sigma, cost })
        .collect()
}

/// The reference's answer, or `None` for an input in one of the known reference failure classes
/// (`conformance/src/tolerances.rs`; the conformance table counts those); any other failure
/// panics.
fn known_or_certified(function: Function, args: &[f64]) -> Option<Certified> {
    match oracle::reference_with(function, args, &tight()) {
        Ok(certified) => Some(certified),
        Err(e) if known_reference_failure(function, &e.message()).is_some() => {
            eprintln!("skipped (known reference failure): {}", e.message());
            None
        }
        Err(e) => panic!("reference failed: {}", e.message()),
    }
}

/// The three set-level forms of the rule, each decided exactly by the reference:
/// `(min g ≥ y*, all EI ≤ c, max LogEIPC ≤ 0)`; `None` if the reference hits a known failure.
fn exact_forms(set: &[(f64, f64, f64)], y_best: f64) -> Option<(bool, bool, bool)> {
    let mut forms = (true, true, true);
    for &(mu, sigma, cost) in set {
        let g = known_or_certified(Function::Pbgi, &[mu, sigma, cost])?;
        let ei = known_or_certified(Function::Ei, &[mu, sigma, y_best])?;
        let log_eipc = known_or_certified(Function::LogEipc, &[mu, sigma, y_best, cost])?;
        let g_vs_y = compare(&g, y_best).expect("g vs y* decided");
        let ei_vs_c = compare(&ei, cost).expect("EI vs cost decided");
        let l_vs_0 = compare(&log_eipc, 0.0).expect("LogEIPC vs 0 decided");
        forms.0 &= g_vs_y != Ordering::Less;
        forms.1 &= ei_vs_c != Ordering::Greater;
        forms.2 &= l_vs_0 != Ordering::Greater;
    }
    Some(forms)
}

mod reference {
    use super::*;

    proptest! {
        #![proptest_config(common::config(128))]

        /// Steps 3 of the note: per candidate, `g ≥ y*` ⇔ `EI(y*) ≤ c`, with `y*` within a few
        /// ULPs of the index (the hardest place to decide), strict order and ties included.
        #[test]
        fn pbgi_at_least_incumbent_iff_ei_at_most_cost((mu, sigma, cost) in candidate(), k in -3i32..=3) {
            let g = certified(pbgi_reference::pbgi_with(mu, sigma, cost, &tight()));
            let y_best = step(g.value, k);
            let ei = certified(pbgi_reference::ei_with(mu, sigma, y_best, &tight()));
            let g_vs_y = compare(&g, y_best).expect("decided");
            let c_vs_ei = compare(&ei, cost).expect("decided").reverse();
            prop_assert_eq!(g_vs_y, c_vs_ei, "g {} y* {} EI {} c {}", g.value, y_best, ei.value, cost);
        }

        /// Step 4: `EI(y*) ≤ c` ⇔ `LogEIPC ≤ 0`, same order.
        #[test]
        fn log_eipc_sign_matches_ei_against_cost((mu, sigma, cost) in candidate(), k in -3i32..=3) {
            let g = certified(pbgi_reference::pbgi_with(mu, sigma, cost, &tight()));
            let y_best = step(g.value, k);
            let ei = certified(pbgi_reference::ei_with(mu, sigma, y_best, &tight()));
            let log_eipc = certified(pbgi_reference::log_eipc_with(mu, sigma, y_best, cost, &tight()));
            prop_assert_eq!(compare(&ei, cost), compare(&log_eipc, 0.0));
        }

        /// Step 5: the three set-level forms and `stop_decision` agree.
        #[test]
        fn stop_rules_agree(
            set in proptest::collection::vec(candidate(), 1..=4),
            pick in 0usize..4,
            k in -2i32..=2,
        ) {
            let (mu, sigma, cost) = set[pick % set.len()];
            let y_best = step(certified(pbgi_reference::pbgi(mu, sigma, cost)).value, k);
            let forms = exact_forms(&set, y_best);
            prop_assume!(forms.is_some(), "known reference failure");
            let (by_pbgi, by_ei, by_log_eipc) = forms.expect("assumed");
            prop_assert_eq!(by_pbgi, by_ei);
            prop_assert_eq!(by_pbgi, by_log_eipc);
            let decision = pbgi_reference::stop_decision(&reference_candidates(&set), y_best)
                .expect("stop_decision decides");
            prop_assert_eq!(decision.stop, by_pbgi);
        }

        /// Step 7: with `ln c ~ N(m, s²)`, PBGI with `E[c]` and LogEIPC-exp decide alike.
        #[test]
        fn expected_cost_form_stop_rules_agree(
            (mu, sigma, _) in candidate(),
            m in -6.0f64..2.0,
            s in 0.0f64..2.0,
            k in -2i32..=2,
        ) {
            let g = certified(pbgi_reference::pbgi_lognormal(mu, sigma, m, s));
            let y_best = step(g.value, k);
            let log_eipc_exp = certified(pbgi_reference::log_eipc_exp(mu, sigma, y_best, m, s));
            match (compare(&g, y_best), compare(&log_eipc_exp, 0.0)) {
                (Some(g_vs_y), Some(l_vs_0)) => prop_assert_eq!(g_vs_y, l_vs_0.reverse()),
                // exp(m + s²/2) is irrational: an exact tie cannot happen, so both must decide.
                other => prop_assert!(false, "undecided: {:?}", other),
            }
        }
    }
}

mod fast {
    use super::*;

    proptest! {
        #![proptest_config(common::config(128))]

        /// Step 6: the fast rules agree with the exact decision except for a candidate within the
        /// documented band around a tie (the PBGI and LogEIPC bounds of the tolerance table).
        #[test]
        fn stop_rules_agree_outside_the_tie_band(
            set in proptest::collection::vec(candidate(), 1..=4),
            pick in 0usize..4,
            k in -4i32..=4,
        ) {
            let (mu, sigma, cost) = set[pick % set.len()];
            let y_best = step(pbgi_fast::pbgi(mu, sigma, cost), k);
            let forms = exact_forms(&set, y_best);
            prop_assume!(forms.is_some(), "known reference failure");
            let (exact, _, _) = forms.expect("assumed");
            let candidates = fast_candidates(&set);
            let by_pbgi = pbgi_fast::stop_by_pbgi(&candidates, y_best);
            let by_log_eipc = pbgi_fast::stop_by_log_eipc(&candidates, y_best);
            // Distance of the closest candidate to its tie, in each rule's own ULP measure.
            let mut pbgi_distance = f64::INFINITY;
            let mut log_eipc_distance = f64::INFINITY;
            for &(mu, sigma, cost) in &set {
                let g = known_or_certified(Function::Pbgi, &[mu, sigma, cost]).expect("certified in exact_forms").value;
                let l = known_or_certified(Function::LogEipc, &[mu, sigma, y_best, cost]).expect("certified in exact_forms").value;
                pbgi_distance = pbgi_distance.min((g - y_best).abs() / ulp_of(mu.abs() + (g - mu).abs()));
                log_eipc_distance = log_eipc_distance.min(l.abs() / ulp_of(l.abs().max(cost.ln().abs()).max(1.0)));
            }
            let pbgi_band = fast_tolerance(Function::Pbgi, Region::NearMinusOne).max_ulp;
            let log_eipc_band = fast_tolerance(Function::LogEipc, Region::NearMinusOne).max_ulp;
            if by_pbgi != exact {
                eprintln!("stop_by_pbgi disagreed at {pbgi_distance} ULP from a tie");
                prop_assert!(pbgi_distance <= pbgi_band + 1.0, "disagreement {} ULP from the tie, band {}", pbgi_distance, pbgi_band);
            }
            if by_log_eipc != exact {
                eprintln!("stop_by_log_eipc disagreed at {log_eipc_distance} ULP from a tie");
                prop_assert!(log_eipc_distance <= log_eipc_band + 1.0, "disagreement {} ULP from the tie, band {}", log_eipc_distance, log_eipc_band);
            }
        }

        /// Step 7 in f64: PBGI with `E[c]` and LogEIPC-exp agree away from a tie.
        #[test]
        fn expected_cost_form_stop_rules_agree(
            (mu, sigma, _) in candidate(),
            m in -6.0f64..2.0,
            s in 0.0f64..2.0,
            y_offset in -4.0f64..4.0,
        ) {
            let g = pbgi_fast::pbgi_lognormal(mu, sigma, m, s);
            let y_best = g + y_offset * sigma.max(1e-3);
            let stop_by_index = g >= y_best;
            let stop_by_log_eipc = pbgi_fast::log_eipc_exp(mu, sigma, y_best, m, s) <= 0.0;
            prop_assert_eq!(stop_by_index, stop_by_log_eipc, "g {} y* {}", g, y_best);
        }
    }
}

/// The exact σ = 0 ties of Step 5: `y* = μ + c` exactly for the best candidate, so every form
/// says "stop" (ties stop); at `y* + 1/64` every form says "continue". Checked in both crates
/// (σ = 0 on this grid is exact in the fast crate too: `y − μ` and `μ + c` are exact). One f64
/// above the tie is not used for the fast crate: there `y − μ` rounds back to `c` (that is the
/// band of Step 6). Quickcheck shrinks the small integers well.
#[test]
fn stop_rules_agree_at_exact_ties() {
    fn property(points: Vec<(i8, u8)>) -> bool {
        let set: Vec<(f64, f64, f64)> = points
            .iter()
            .take(4)
            .map(|&(j, c)| (f64::from(j) / 8.0, 0.0, f64::from(c) / 8.0 + 0.125))
            .collect();
        if set.is_empty() {
            return true;
        }
        let tie = set
            .iter()
            .map(|&(mu, _, cost)| mu + cost)
            .fold(f64::INFINITY, f64::min);
        [(tie, true), (tie + 1.0 / 64.0, false)]
            .into_iter()
            .all(|(y_best, expected)| {
                let forms = exact_forms(&set, y_best).expect("sigma = 0 is always certified");
                let reference = pbgi_reference::stop_decision(&reference_candidates(&set), y_best)
                    .expect("decides")
                    .stop;
                let candidates = fast_candidates(&set);
                forms == (expected, expected, expected)
                    && reference == expected
                    && pbgi_fast::stop_by_pbgi(&candidates, y_best) == expected
                    && pbgi_fast::stop_by_log_eipc(&candidates, y_best) == expected
            })
    }
    quickcheck::QuickCheck::new()
        .tests(64)
        .quickcheck(property as fn(Vec<(i8, u8)>) -> bool);
}

/// Step 7, the pinned counterexample: `μ = 0, σ = 1, y* = 0` (EI = φ(0) = 0.3989…),
/// `ln c ~ N(ln 0.4, 1)`. `E[1/c]⁻¹ = 0.4·e^{−1/2} ≈ 0.243 < EI < 0.4·e^{1/2} ≈ 0.659 = E[c]`:
/// PBGI with `E[c]` says stop, LogEIPC-inv says continue.
#[test]
fn inverse_expected_cost_form_is_not_equivalent() {
    let (mu, sigma, y_best, m, s) = (0.0, 1.0, 0.0, 0.4f64.ln(), 1.0);
    let g = certified(pbgi_reference::pbgi_lognormal(mu, sigma, m, s));
    let inv = certified(pbgi_reference::log_eipc_inv(mu, sigma, y_best, m, s));
    let exp = certified(pbgi_reference::log_eipc_exp(mu, sigma, y_best, m, s));
    assert_eq!(
        compare(&g, y_best),
        Some(Ordering::Greater),
        "PBGI (E[c]) says stop"
    );
    assert_eq!(
        compare(&exp, 0.0),
        Some(Ordering::Less),
        "LogEIPC-exp says stop"
    );
    assert_eq!(
        compare(&inv, 0.0),
        Some(Ordering::Greater),
        "LogEIPC-inv says continue"
    );
    // The same in the fast crate.
    assert!(pbgi_fast::pbgi_lognormal(mu, sigma, m, s) > y_best);
    assert!(pbgi_fast::log_eipc_inv(mu, sigma, y_best, m, s) > 0.0);
}

/// Step 7: a seeded search over random candidates finds LogEIPC-inv disagreeing with PBGI, each
/// disagreement confirmed by the reference, so the pinned case is not a fluke.
#[test]
fn search_finds_an_inverse_cost_counterexample() {
    use rand::{Rng, SeedableRng};
    let seed = common::DEFAULT_SEED;
    eprintln!("search seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut confirmed = 0;
    for _ in 0..2000 {
        let (mu, sigma) = (rng.gen_range(-5.0..5.0), rng.gen_range(0.1..3.0));
        let (m, s) = (rng.gen_range(-5.0..1.0), rng.gen_range(0.1..2.0));
        let y_best = mu + sigma * rng.gen_range(-3.0..3.0);
        let stop_by_index = pbgi_fast::pbgi_lognormal(mu, sigma, m, s) >= y_best;
        let stop_by_inv = pbgi_fast::log_eipc_inv(mu, sigma, y_best, m, s) <= 0.0;
        if stop_by_index != stop_by_inv {
            let g = certified(pbgi_reference::pbgi_lognormal(mu, sigma, m, s));
            let inv = certified(pbgi_reference::log_eipc_inv(mu, sigma, y_best, m, s));
            let index_says_stop = compare(&g, y_best) != Some(Ordering::Less);
            let inv_says_stop = compare(&inv, 0.0) != Some(Ordering::Greater);
            if index_says_stop != inv_says_stop {
                confirmed += 1;
                if confirmed == 1 {
                    eprintln!("first counterexample: mu {mu:e} sigma {sigma:e} y* {y_best:e} m {m:e} s {s:e}");
                }
            }
        }
        if confirmed >= 3 {
            break;
        }
    }
    assert!(
        confirmed >= 3,
        "found only {confirmed} certified counterexamples"
    );
}

/// Step 6 on continuous inputs: 300 seeded sets of 1–5 candidates (`μ ∈ [−2, 2]`, `σ` log-uniform
/// in `[1e-3, 10^0.5]` or 0 in one of ten, cost log-uniform in `[1e-6, 1]`) with the incumbent at
/// the smallest fast index, a few f64 steps from it, or within `1e-3` of it (close calls are
/// common). Both fast rules agree with the reference's exact `stop_decision` except when the
/// smallest index is within the PBGI band of the tolerance table from `y*` (in ULPs of
/// `|μ| + |g − μ|`; half an ULP more, as the table bounds the distance to the correctly rounded
/// index, and a disagreement puts `y*` between the exact and the computed index). The reference may refuse an exact decision (`PrecisionExhausted`, e.g. an
/// index `μ + c − e^{-35000}` next to an f64 midpoint) but rarely.
#[test]
fn stop_rules_agree_with_the_exact_decision_on_seeded_close_calls() {
    use rand::{Rng, SeedableRng};
    let seed = common::DEFAULT_SEED ^ 0x5709;
    eprintln!("close-call seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut close_calls, mut refused) = (0, 0);
    for case in 0..300 {
        let n = rng.gen_range(1..6);
        let set: Vec<(f64, f64, f64)> = (0..n)
            .map(|_| {
                let mu = rng.gen_range(-2.0..2.0);
                let sigma = if rng.gen_bool(0.1) {
                    0.0
                } else {
                    10f64.powf(rng.gen_range(-3.0..0.5))
                };
                (mu, sigma, 10f64.powf(rng.gen_range(-6.0..0.0)))
            })
            .collect();
        let (g_min, best) = set
            .iter()
            .enumerate()
            .map(|(i, &(mu, sigma, cost))| (pbgi_fast::pbgi(mu, sigma, cost), i))
            .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
        let y_best = match case % 3 {
            0 => g_min,
            1 => step(g_min, rng.gen_range(-4..=4)),
            _ => g_min + rng.gen_range(-1e-3..1e-3),
        };
        let exact = match pbgi_reference::stop_decision(&reference_candidates(&set), y_best) {
            Ok(decision) => decision.stop,
            Err(pbgi_reference::Error::PrecisionExhausted { .. }) => {
                refused += 1;
                continue;
            }
            Err(e) => panic!("reference failed on case {case}: {e}; y* = {y_best:e}, {set:?}"),
        };
        let (mu, sigma, _) = set[best];
        let u = if sigma > 0.0 {
            Some((g_min - mu) / sigma)
        } else {
            None
        };
        let band = fast_tolerance(Function::Pbgi, Region::of_z(u)).max_ulp + 0.5;
        let distance = (g_min - y_best).abs() / ulp_of(mu.abs() + (g_min - mu).abs());
        let candidates = fast_candidates(&set);
        for (form, fast) in [
            ("pbgi", pbgi_fast::stop_by_pbgi(&candidates, y_best)),
            ("log_eipc", pbgi_fast::stop_by_log_eipc(&candidates, y_best)),
        ] {
            if fast != exact {
                assert!(
                    distance <= band,
                    "case {case} ({form} form): fast {fast} vs exact {exact} at {distance} ULP \
                     from the tie, outside the band {band}; y* = {y_best:e} ({:#x}), {set:?}",
                    y_best.to_bits()
                );
                close_calls += 1;
            }
        }
    }
    eprintln!("disagreements inside the band: {close_calls}; reference refused: {refused}");
    assert!(refused < 30, "the reference refused {refused} of 300 cases");
}
