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
