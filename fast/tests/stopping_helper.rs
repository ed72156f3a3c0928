//! The stopping rule's statistics and the stopping helper's public state, against closed forms
//! (σ = 0 candidates, where PBGI = μ + c and LogEIPC = ln(max(y − μ, 0)/c) exactly) and the
//! certified reference (σ > 0 candidates).
use pbgi_fast::{max_log_eipc, pbgi_gap, Candidate, StoppingHelper};

fn exact_candidates() -> Vec<Candidate> {
    vec![
        Candidate {
            mu: 1.0,
            sigma: 0.0,
            cost: 0.5,
        },
        Candidate {
            mu: 0.25,
            sigma: 0.0,
            cost: 2.0,
        },
    ]
}

#[test]
fn pbgi_gap_is_the_incumbent_minus_the_smallest_index() {
    // Indices μ + c: 1.5 and 2.25; the smallest is 1.5.
    assert_eq!(pbgi_gap(&exact_candidates(), 1.75), 0.25);
    assert_eq!(pbgi_gap(&exact_candidates(), 1.5), 0.0);
    // A σ > 0 candidate, against the certified index.
    let c = Candidate {
        mu: 0.0,
        sigma: 1.0,
        cost: 0.1,
    };
    let g = pbgi_reference::pbgi(0.0, 1.0, 0.1).unwrap().value;
    let gap = pbgi_gap(&[c], 0.0);
    assert!(
        (gap + g).abs() <= 4.0 * f64::EPSILON * g.abs(),
        "{gap} vs {}",
        -g
    );
    assert_eq!(pbgi_gap(&[], 0.0), f64::NEG_INFINITY);
    let bad = Candidate {
        mu: 0.0,
        sigma: -1.0,
        cost: 1.0,
    };
    assert!(pbgi_gap(&[exact_candidates()[0], bad], 0.0).is_nan());
}

#[test]
fn max_log_eipc_is_the_largest_log_ratio() {
    // y = 1.5: EI = 0.5 and 1.25, c = 0.5 and 2: LogEIPC = ln 1 = 0 and ln 0.625.
    assert_eq!(max_log_eipc(&exact_candidates(), 1.5), 0.0);
    // y = 2: ln(1/0.5) = ln 2 and ln(1.75/2).
    let v = max_log_eipc(&exact_candidates(), 2.0);
    let exact = pbgi_reference::log_eipc(1.0, 0.0, 2.0, 0.5).unwrap().value;
    assert!((v - exact).abs() <= 2.0 * f64::EPSILON, "{v} vs {exact}");
    assert_eq!(max_log_eipc(&[], 0.0), f64::NEG_INFINITY);
    let bad = Candidate {
        mu: 0.0,
        sigma: 1.0,
        cost: 0.0,
    };
    assert!(max_log_eipc(&[bad], 0.0).is_nan());
}

#[test]
fn observe_forms_feed_their_statistic() {
    let mut a = StoppingHelper::new(0, 1, 1).unwrap();
    // Gap 0.25 > 0: no stop; gap 0 (ties stop).
    assert!(!a.observe_pbgi(&exact_candidates(), 1.75));
    assert_eq!(a.moving_average(), Some(0.25));
    assert!(a.observe_pbgi(&exact_candidates(), 1.5));
    let mut b = StoppingHelper::new(0, 1, 1).unwrap();
    assert!(!b.observe_log_eipc(&exact_candidates(), 2.0));
    assert_eq!(
        b.moving_average(),
        Some(max_log_eipc(&exact_candidates(), 2.0))
    );
    assert!(b.observe_log_eipc(&exact_candidates(), 1.5));
}

#[test]
fn checks_and_consecutive_signals_count() {
    let mut s = StoppingHelper::new(1, 3, 1).unwrap();
    assert_eq!((s.checks(), s.consecutive_signals()), (0, 0));
    assert!(!s.observe(-1.0)); // stabilisation: not counted
    assert_eq!((s.checks(), s.consecutive_signals()), (1, 0));
    assert!(!s.observe(-1.0));
    assert!(!s.observe(-1.0));
    assert_eq!((s.checks(), s.consecutive_signals()), (3, 2));
    assert!(s.observe(-1.0));
    assert_eq!(s.consecutive_signals(), 3);
    assert!(!s.observe(1.0));
    assert_eq!((s.checks(), s.consecutive_signals()), (5, 0));
}

#[test]
fn moving_average_is_the_mean_of_the_last_w_statistics_once_w_exist() {
    let mut s = StoppingHelper::new(0, 1, 3).unwrap();
    assert_eq!(s.moving_average(), None);
    s.observe(1.0);
    assert_eq!(s.moving_average(), None); // one statistic of three: not yet available
    s.observe(2.0);
    assert_eq!(s.moving_average(), None);
    s.observe(4.0);
    assert_eq!(s.moving_average(), Some(7.0 / 3.0)); // (1 + 2 + 4)/3
    s.observe(8.0);
    assert_eq!(s.moving_average(), Some(14.0 / 3.0)); // (2 + 4 + 8)/3
}

#[test]
fn a_window_of_w_never_stops_before_check_w() {
    // The most negative statistics there are (finite and infinite): with window w the first
    // stop is check w exactly, with debounce m it is check w + m - 1, and a stabilisation
    // period shorter than w changes nothing.
    for w in 1..=25 {
        for statistic in [-1.0, -f64::MAX, f64::NEG_INFINITY] {
            let run = vec![statistic; 40];
            for k in 0..w {
                let helper = StoppingHelper::new(k, 1, w).unwrap();
                assert_eq!(helper_stop(helper, &run), Some(w), "w = {w}, k = {k}");
            }
            let debounced = StoppingHelper::new(0, 3, w).unwrap();
            assert_eq!(helper_stop(debounced, &run), Some(w + 2), "w = {w}, m = 3");
            // A stabilisation period longer than the window: its end decides.
            let stabilised = StoppingHelper::new(w + 4, 1, w).unwrap();
            assert_eq!(
                helper_stop(stabilised, &run),
                Some(w + 5),
                "w = {w}, k = w + 4"
            );
        }
    }
    // Before check w nothing counts: no signal, the debounce count stays 0.
    let mut s = StoppingHelper::new(0, 1, 20).unwrap();
    for check in 1..20 {
        assert!(!s.observe(-1e300), "check {check}");
        assert_eq!(s.moving_average(), None);
        assert_eq!(s.consecutive_signals(), 0);
    }
    assert!(s.observe(-1e300));
    assert_eq!(s.moving_average(), Some(-1e300));
}

#[test]
fn reset_forgets_every_check_and_the_window() {
    let mut s = StoppingHelper::new(0, 2, 3).unwrap();
    assert!(!s.observe(5.0)); // window not full
    assert!(!s.observe(-7.0));
    assert!(!s.observe(-4.0)); // mean (5 - 7 - 4)/3 = -2: first signal
    assert_eq!(s.consecutive_signals(), 1);
    s.reset();
    assert_eq!((s.checks(), s.consecutive_signals()), (0, 0));
    assert_eq!(s.moving_average(), None);
    // Only the statistics after the reset count: the window fills anew.
    assert!(!s.observe(3.0));
    assert!(!s.observe(-9.0));
    assert_eq!(s.moving_average(), None);
    assert!(!s.observe(0.0)); // mean (3 - 9 + 0)/3 = -2: first signal after the reset
    assert_eq!(s.moving_average(), Some(-2.0));
    assert_eq!((s.checks(), s.consecutive_signals()), (3, 1));
    // A NaN before the reset does not linger.
    let mut t = StoppingHelper::new(0, 1, 2).unwrap();
    t.observe(f64::NAN);
    t.reset();
    assert!(!t.observe(-1.0)); // one statistic of two
    assert!(t.observe(-1.0)); // mean -1
}

/// The full-window rule of the stopping paper's authors' code (App. B), with a stabilisation
/// period: a check signals when it comes after the first `stabilisation` checks, `w`
/// statistics exist and the mean of the last `w` is `≤ 0`; stop at the `m`-th consecutive
/// signal. Returns the 1-based check at which it stops.
fn full_window_stop(
    statistics: &[f64],
    stabilisation: usize,
    debounce: usize,
    window: usize,
) -> Option<usize> {
    let mut consecutive = 0;
    for check in 1..=statistics.len() {
        let signal = check > stabilisation && check >= window && {
            let last = &statistics[check - window..check];
            last.iter().sum::<f64>() / window as f64 <= 0.0
        };
        consecutive = if signal { consecutive + 1 } else { 0 };
        if consecutive >= debounce {
            return Some(check);
        }
    }
    None
}

/// The 1-based check at which `helper` first says stop.
fn helper_stop(mut helper: StoppingHelper, statistics: &[f64]) -> Option<usize> {
    statistics
        .iter()
        .position(|&v| helper.observe(v))
        .map(|i| i + 1)
}

#[test]
fn the_helper_is_the_full_window_rule() {
    // A first statistic ≤ 0: no stop before the window of 3 is full; the first full window,
    // (-1 + 2 + 2)/3 = 1, does not signal, the next, (2 + 2 - 9)/3 = -5/3, does.
    let early = [-1.0, 2.0, 2.0, -9.0];
    assert_eq!(full_window_stop(&early, 0, 1, 3), Some(4));
    for k in 0..=3 {
        assert_eq!(
            helper_stop(StoppingHelper::new(k, 1, 3).unwrap(), &early),
            Some(4),
            "k = {k}"
        );
    }
    // Random sequences of small integers (exact sums, ties at 0 included): the helper stops
    // exactly where the full-window rule does, for every window, debounce and stabilisation.
    use rand::{Rng, SeedableRng};
    const SEED: u64 = 0x5709_a11e;
    println!("seed {SEED:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
    for case in 0..4000 {
        let window = rng.gen_range(1..=6);
        let debounce = rng.gen_range(1..=3);
        let stabilisation = rng.gen_range(0..=8);
        let statistics: Vec<f64> = (0..rng.gen_range(1..=30))
            .map(|_| f64::from(rng.gen_range(-3..=4)))
            .collect();
        let helper = StoppingHelper::new(stabilisation, debounce, window).unwrap();
        assert_eq!(
            helper_stop(helper, &statistics),
            full_window_stop(&statistics, stabilisation, debounce, window),
            "case {case}: k = {stabilisation}, w = {window}, m = {debounce}, statistics \
             {statistics:?}"
        );
    }
}
