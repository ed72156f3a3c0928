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
    assert_eq!(a.moving_average(), 0.25);
    assert!(a.observe_pbgi(&exact_candidates(), 1.5));
    let mut b = StoppingHelper::new(0, 1, 1).unwrap();
    assert!(!b.observe_log_eipc(&exact_candidates(), 2.0));
    assert_eq!(b.moving_average(), max_log_eipc(&exact_candidates(), 2.0));
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
fn moving_average_is_the_mean_of_the_last_w_statistics() {
    let mut s = StoppingHelper::new(0, 1, 3).unwrap();
    assert!(s.moving_average().is_nan());
    s.observe(1.0);
    assert_eq!(s.moving_average(), 1.0);
    s.observe(2.0);
    assert_eq!(s.moving_average(), 1.5);
    s.observe(4.0);
    assert_eq!(s.moving_average(), 7.0 / 3.0);
    s.observe(8.0);
    assert_eq!(s.moving_average(), 14.0 / 3.0);
}

#[test]
fn reset_forgets_every_check_and_the_window() {
    let mut s = StoppingHelper::new(0, 2, 3).unwrap();
    assert!(!s.observe(5.0)); // mean 5
    assert!(!s.observe(-7.0)); // mean -1: first signal
    assert_eq!(s.consecutive_signals(), 1);
    // (Two of three slots used: the next write would go to the third.)
    s.reset();
    assert_eq!((s.checks(), s.consecutive_signals()), (0, 0));
    assert!(s.moving_average().is_nan());
    // Only the statistics after the reset count, in the window's first slots.
    s.observe(3.0);
    assert_eq!(s.moving_average(), 3.0);
    s.observe(-9.0);
    assert_eq!(s.moving_average(), -3.0);
    assert_eq!(s.checks(), 2);
    // A NaN before the reset does not linger.
    let mut t = StoppingHelper::new(0, 1, 2).unwrap();
    t.observe(f64::NAN);
    t.reset();
    assert!(t.observe(-1.0));
    assert!(t.observe(-1.0));
}

/// The full-window rule of the stopping paper's authors' code (App. B): the mean of the last
/// `w` statistics once `w` exist, no signal before; stop at the `m`-th consecutive signal.
/// Returns the 1-based check at which it stops.
fn full_window_stop(statistics: &[f64], debounce: usize, window: usize) -> Option<usize> {
    let mut consecutive = 0;
    for check in 1..=statistics.len() {
        let signal = check >= window && {
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
fn partial_window_can_stop_early_and_stabilisation_w_minus_1_reproduces_full_windows() {
    // A first statistic ≤ 0 with k = 0: the helper stops at check 1, the full-window rule
    // cannot stop before check w = 3.
    let early = [-1.0, 2.0, 2.0, -9.0];
    assert_eq!(
        helper_stop(StoppingHelper::new(0, 1, 3).unwrap(), &early),
        Some(1)
    );
    assert_eq!(full_window_stop(&early, 1, 3), Some(4));
    assert_eq!(
        helper_stop(StoppingHelper::new(2, 1, 3).unwrap(), &early),
        Some(4)
    );
    // Random sequences of small integers (exact sums, ties at 0 included): with k = w - 1 the
    // helper stops exactly where the full-window rule does, for every window and debounce.
    use rand::{Rng, SeedableRng};
    const SEED: u64 = 0x5709_a11e;
    println!("seed {SEED:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
    for case in 0..2000 {
        let window = rng.gen_range(1..=6);
        let debounce = rng.gen_range(1..=3);
        let statistics: Vec<f64> = (0..rng.gen_range(1..=30))
            .map(|_| f64::from(rng.gen_range(-3..=4)))
            .collect();
        let helper = StoppingHelper::new(window - 1, debounce, window).unwrap();
        assert_eq!(
            helper_stop(helper, &statistics),
            full_window_stop(&statistics, debounce, window),
            "case {case}: w = {window}, m = {debounce}, statistics {statistics:?}"
        );
    }
}
