//! Source of truth: agreement of independent enclosures (Arb style). Certified enclosures of
//! the same number must overlap whatever formula or precision produced them:
//! * the closed form `z·Φ(z) + φ(z)` through MPFR's `erfc`, evaluated here with directed
//!   rounding at 400 bits, against the crate's Taylor / continued-fraction / asymptotic code;
//! * the crate at two very different precisions (60-bit and 400-bit enclosures);
//! * `log_ei` against `ln` of `ei`'s enclosure, and PBGI's bracket against `ei`;
//! * `log_ndtr` against `ln` (or `log1p`) of MPFR's `erfc` form; gradients at two precisions.

mod common;
use common::{down, up};
use pbgi_reference::{
    ei, ei_grad_with, ei_with, h_with, log_ei, log_ei_grad_with, log_ei_with, log_eipc_with,
    log_ndtr_with, pbgi, pbgi_grad_with, pbgi_with, Accuracy, Certified, Float,
};
use rug::float::{Constant, Round};

const P: u32 = 400;

/// `Φ(z) = erfc(-z/√2)/2` enclosed with directed rounding.
fn cdf_closed_form(z: f64) -> (Float, Float) {
    let (s2_lo, s2_hi) = (
        down(P, Float::with_val(P, 2u32).sqrt_ref()),
        up(P, Float::with_val(P, 2u32).sqrt_ref()),
    );
    let minus_z = Float::with_val(53, -z);
    // t = -z/√2 enclosed (its sign decides which end of √2 gives which end of t)
    let (t_lo, t_hi) = if z <= 0.0 {
        (down(P, &minus_z / &s2_hi), up(P, &minus_z / &s2_lo))
    } else {
        (down(P, &minus_z / &s2_lo), up(P, &minus_z / &s2_hi))
    };
    // erfc decreasing
    (
        down(P, t_hi.erfc_ref()) >> 1u32,
        up(P, t_lo.erfc_ref()) >> 1u32,
    )
}

/// `h(z) = z·Φ(z) + φ(z)`, `Φ(z) = erfc(-z/√2)/2`, enclosed with directed rounding.
fn closed_form(z: f64) -> (Float, Float) {
    let zf = Float::with_val(53, z);
    let (cdf_lo, cdf_hi) = cdf_closed_form(z);
    let (zc_lo, zc_hi) = if z >= 0.0 {
        (down(P, &zf * &cdf_lo), up(P, &zf * &cdf_hi))
    } else {
        (down(P, &zf * &cdf_hi), up(P, &zf * &cdf_lo))
    };
    let half_z2 = Float::with_val(P, zf.square_ref()) >> 1u32;
    let (e_lo, e_hi) = (
        down(P, Float::with_val(P, -&half_z2).exp_ref()),
        up(P, Float::with_val(P, -&half_z2).exp_ref()),
    );
    let (pi_lo, pi_hi) = (down(P, Constant::Pi), up(P, Constant::Pi));
    let (r_lo, r_hi) = (
        down(P, Float::with_val(P, &pi_lo * 2u32).sqrt_ref()),
        up(P, Float::with_val(P, &pi_hi * 2u32).sqrt_ref()),
    );
    let (phi_lo, phi_hi) = (down(P, &e_lo / &r_hi), up(P, &e_hi / &r_lo));
    (down(P, &zc_lo + &phi_lo), up(P, &zc_hi + &phi_hi))
}

fn overlaps(a: &Certified, lo: &Float, hi: &Float) -> bool {
    a.lower <= *hi && a.upper >= *lo
}

fn overlap(a: &Certified, b: &Certified) -> bool {
    overlaps(a, &b.lower, &b.upper)
}

fn wide() -> Accuracy {
    Accuracy {
        start_bits: 64,
        max_bits: 8192,
        enclosure_bits: 60,
    }
}

fn tight() -> Accuracy {
    Accuracy {
        start_bits: 512,
        max_bits: 8192,
        enclosure_bits: 400,
    }
}

/// Relative width `≤ 2^-bits`.
fn is_tight(c: &Certified, bits: u32) -> bool {
    let w = Float::with_val(64, &c.upper - &c.lower);
    let m = Float::with_val(64, c.lower.abs_ref()).min(&Float::with_val(64, c.upper.abs_ref()));
    c.lower == c.upper || w <= (m >> bits)
}

const ZS: [f64; 19] = [
    -12.0, -9.5, -6.0, -4.5, -4.0, -3.9, -2.5, -1.0, -0.3, 0.0, 1e-10, 0.3, 1.0, 2.5, 4.0, 4.1,
    6.0, 9.5, 12.0,
];

#[test]
fn h_closed_form_through_erfc_overlaps() {
    for z in ZS {
        let (lo, hi) = closed_form(z);
        for acc in [Accuracy::default(), wide(), tight()] {
            let r = h_with(z, &acc).unwrap();
            assert!(
                overlaps(&r, &lo, &hi),
                "h({z}) at {acc:?}: [{}, {}] vs erfc form [{lo}, {hi}]",
                r.lower_decimal(40),
                r.upper_decimal(40)
            );
        }
    }
}

#[test]
fn log_ndtr_closed_form_through_erfc_overlaps() {
    // ln of MPFR's erfc form; for x > 0 as log1p(-erfc(x/√2)/2) so that the enclosure keeps its
    // relative width where Φ(x) is close to 1.
    for x in ZS.into_iter().chain([-30.0, -100.0, 20.0, 37.5]) {
        let (lo, hi) = if x > 0.0 {
            let (q_lo, q_hi) = cdf_closed_form(-x);
            (
                down(P, Float::with_val(P, -&q_hi).ln_1p_ref()),
                up(P, Float::with_val(P, -&q_lo).ln_1p_ref()),
            )
        } else {
            let (c_lo, c_hi) = cdf_closed_form(x);
            (down(P, c_lo.ln_ref()), up(P, c_hi.ln_ref()))
        };
        for acc in [Accuracy::default(), wide(), tight()] {
            let r = log_ndtr_with(x, &acc).unwrap();
            assert!(
                overlaps(&r, &lo, &hi),
                "log_ndtr({x}) at {acc:?}: [{}, {}] vs erfc form [{lo}, {hi}]",
                r.lower_decimal(40),
                r.upper_decimal(40)
            );
            assert!(is_tight(&r, acc.enclosure_bits), "log_ndtr({x}) width");
        }
    }
}

#[test]
fn gradients_at_two_precisions_overlap() {
    for (mu, sigma, y) in [
        (0.0, 1.0, -38.5),
        (3.0, 2.0, 1e4),
        (-7.0, 0.5, -7.2),
        (0.0, 1.0, -1e8),
    ] {
        let (a, b) = (
            ei_grad_with(mu, sigma, y, &wide()).unwrap(),
            ei_grad_with(mu, sigma, y, &tight()).unwrap(),
        );
        for (f, g) in [(&a.d_mu, &b.d_mu), (&a.d_sigma, &b.d_sigma)] {
            assert!(
                overlap(f, g) && f.value == g.value,
                "ei_grad({mu},{sigma},{y})"
            );
        }
        let (a, b) = (
            log_ei_grad_with(mu, sigma, y, &wide()).unwrap(),
            log_ei_grad_with(mu, sigma, y, &tight()).unwrap(),
        );
        for (f, g) in [(&a.d_mu, &b.d_mu), (&a.d_sigma, &b.d_sigma)] {
            assert!(
                overlap(f, g) && f.value == g.value,
                "log_ei_grad({mu},{sigma},{y})"
            );
            assert!(is_tight(f, 60) && is_tight(g, 400), "log_ei_grad widths");
        }
    }
    for (mu, sigma, cost) in [(0.0, 1.0, 1e-4), (5.0, 1e-300, 1e-300), (-1.0, 2.0, 1e-250)] {
        let (a, b) = (
            pbgi_grad_with(mu, sigma, cost, &wide()).unwrap(),
            pbgi_grad_with(mu, sigma, cost, &tight()).unwrap(),
        );
        for (f, g) in [(&a.d_sigma, &b.d_sigma), (&a.d_cost, &b.d_cost)] {
            assert!(
                overlap(f, g) && f.value == g.value,
                "pbgi_grad({mu},{sigma},{cost})"
            );
            assert!(is_tight(f, 60) && is_tight(g, 400), "pbgi_grad widths");
        }
    }
}

#[test]
fn two_precisions_overlap_and_meet_their_targets() {
    let cases = [
        (0.0, 1.0, -38.5),
        (1e-300, 1e-300, 0.0),
        (3.0, 2.0, 1e4),
        (0.0, 1e300, -1e308),
        (-7.0, 0.5, -7.2),
    ];
    for (mu, sigma, y) in cases {
        let (a, b) = (
            ei_with(mu, sigma, y, &wide()).unwrap(),
            ei_with(mu, sigma, y, &tight()).unwrap(),
        );
        assert!(
            overlap(&a, &b) && a.value == b.value,
            "ei({mu},{sigma},{y})"
        );
        assert!(
            is_tight(&a, 60) && is_tight(&b, 400),
            "ei({mu},{sigma},{y}) widths"
        );
        let (a, b) = (
            log_ei_with(mu, sigma, y, &wide()).unwrap(),
            log_ei_with(mu, sigma, y, &tight()).unwrap(),
        );
        assert!(
            overlap(&a, &b) && a.value == b.value,
            "log_ei({mu},{sigma},{y})"
        );
        assert!(
            is_tight(&a, 60) && is_tight(&b, 400),
            "log_ei({mu},{sigma},{y}) widths"
        );
        let (a, b) = (
            log_eipc_with(mu, sigma, y, 0.25, &wide()).unwrap(),
            log_eipc_with(mu, sigma, y, 0.25, &tight()).unwrap(),
        );
        assert!(
            overlap(&a, &b) && a.value == b.value,
            "log_eipc({mu},{sigma},{y})"
        );
    }
    for (mu, sigma, cost) in [
        (0.0, 1.0, 1e-4),
        (5.0, 1e-300, 1e-300),
        (0.0, 1e300, 1e300),
        (-1.0, 2.0, 1e-250),
    ] {
        let (a, b) = (
            pbgi_with(mu, sigma, cost, &wide()).unwrap(),
            pbgi_with(mu, sigma, cost, &tight()).unwrap(),
        );
        assert!(
            overlap(&a, &b) && a.value == b.value,
            "pbgi({mu},{sigma},{cost})"
        );
        assert!(
            is_tight(&a, 60) && is_tight(&b, 400),
            "pbgi({mu},{sigma},{cost}) widths"
        );
    }
}

#[test]
fn log_ei_overlaps_ln_of_ei() {
    for (mu, sigma, y) in [
        (0.0, 1.0, -30.0),
        (0.0, 1.0, 0.0),
        (2.0, 3.0, 50.0),
        (1e-10, 1e-12, 0.0),
    ] {
        let e = ei(mu, sigma, y).unwrap();
        let (lo, hi) = (down(P, e.lower.ln_ref()), up(P, e.upper.ln_ref()));
        let l = log_ei(mu, sigma, y).unwrap();
        assert!(overlaps(&l, &lo, &hi), "log_ei({mu},{sigma},{y})");
    }
}

#[test]
fn pbgi_bracket_agrees_with_ei() {
    // EI is increasing in its threshold: EI at a double below the PBGI enclosure is below the
    // cost, and above it above the cost (checked with ei's own enclosures).
    for (mu, sigma, cost) in [
        (0.0, 1.0, 1e-4),
        (0.0, 1.0, 0.1),
        (3.0, 0.5, 2.0),
        (0.0, 1.0, 1e-300),
        (1e5, 1.0, 1e-20),
    ] {
        let g = pbgi(mu, sigma, cost).unwrap();
        let below = g.lower.to_f64_round(Round::Down);
        let above = g.upper.to_f64_round(Round::Up);
        let (below, above) = (below.next_down_compat(), above.next_up_compat());
        assert!(
            ei(mu, sigma, below).unwrap().upper < cost,
            "pbgi({mu},{sigma},{cost}) lower side"
        );
        assert!(
            ei(mu, sigma, above).unwrap().lower > cost,
            "pbgi({mu},{sigma},{cost}) upper side"
        );
    }
}

/// `f64::next_up`/`next_down` for toolchains before 1.86.
trait NextCompat {
    fn next_up_compat(self) -> Self;
    fn next_down_compat(self) -> Self;
}

impl NextCompat for f64 {
    fn next_up_compat(self) -> f64 {
        let b = self.to_bits();
        if self == 0.0 {
            f64::from_bits(1)
        } else if self > 0.0 {
            f64::from_bits(b + 1)
        } else {
            f64::from_bits(b - 1)
        }
    }
    fn next_down_compat(self) -> f64 {
        -(-self).next_up_compat()
    }
}
