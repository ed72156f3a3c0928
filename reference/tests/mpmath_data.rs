//! Source of truth: independent values computed by mpmath at 90 digits
//! (`tests/data/mpmath_values.py`, output checked in as `tests/data/mpmath_values.csv`): the
//! values of every function, `ln Φ`, and each field of the three gradients (closed forms).
//!
//! For every row: `value` must be the f64 nearest to mpmath's value (0 ULP, the sign of a zero
//! included), mpmath's value must lie in `[lower, upper]` (up to the 60-digit decimal's own
//! rounding, relative 1e-58), and `lower_f64() ≤ mpmath ≤ upper_f64()`.

use pbgi_reference::{
    ei, ei_grad, h, ln_h, log_ei, log_ei_grad, log_eipc, log_eipc_exp, log_eipc_inv, log_ndtr,
    pbgi, pbgi_grad, pbgi_lognormal, Certified, Float,
};
use rug::float::Round;

const DATA: &str = include_str!("data/mpmath_values.csv");

/// The decimal as an enclosure `[d - |d|·1e-58, d + |d|·1e-58]` at 400 bits, rounded outward.
fn decimal_enclosure(s: &str) -> (Float, Float) {
    let parsed = Float::parse(s).unwrap_or_else(|e| panic!("bad decimal {s}: {e}"));
    let d = Float::with_val_round(400, parsed, Round::Down).0;
    let slack = Float::with_val_round(400, Float::parse("1e-58").unwrap(), Round::Up).0;
    let abs = Float::with_val(400, d.abs_ref());
    let delta = Float::with_val_round(400, &abs * &slack, Round::Up).0;
    // One more ulp at 400 bits covers the parse rounding.
    let delta = Float::with_val_round(400, &delta + &(abs >> 380u32), Round::Up).0;
    let lo = Float::with_val_round(400, &d - &delta, Round::Down).0;
    let hi = Float::with_val_round(400, &d + &delta, Round::Up).0;
    (lo, hi)
}

fn ulp_distance(a: f64, b: f64) -> u64 {
    let key = |x: f64| {
        let bits = x.to_bits() as i64;
        if bits < 0 {
            -(bits & i64::MAX)
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}

#[test]
fn reference_matches_mpmath_exactly() {
    let mut rows = 0;
    let mut subnormals = 0;
    let mut failures = Vec::new();
    let mut per_function = std::collections::BTreeMap::new();
    for line in DATA.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let num = |i: usize| cols[i].parse::<f64>().unwrap();
        let got: Certified = match cols[0] {
            "h" => h(num(1)),
            "ln_h" => ln_h(num(1)),
            "ei" => ei(num(1), num(2), num(3)),
            "log_ei" => log_ei(num(1), num(2), num(3)),
            "pbgi" => pbgi(num(1), num(2), num(3)),
            "log_eipc" => log_eipc(num(1), num(2), num(3), num(4)),
            "log_eipc_inv" => log_eipc_inv(num(1), num(2), num(3), num(4), num(5)),
            "log_eipc_exp" => log_eipc_exp(num(1), num(2), num(3), num(4), num(5)),
            "pbgi_lognormal" => pbgi_lognormal(num(1), num(2), num(3), num(4)),
            "log_ndtr" => log_ndtr(num(1)),
            "ei_grad.d_mu" => ei_grad(num(1), num(2), num(3)).map(|g| g.d_mu),
            "ei_grad.d_sigma" => ei_grad(num(1), num(2), num(3)).map(|g| g.d_sigma),
            "log_ei_grad.d_mu" => log_ei_grad(num(1), num(2), num(3)).map(|g| g.d_mu),
            "log_ei_grad.d_sigma" => log_ei_grad(num(1), num(2), num(3)).map(|g| g.d_sigma),
            "pbgi_grad.d_sigma" => pbgi_grad(num(1), num(2), num(3)).map(|g| g.d_sigma),
            "pbgi_grad.d_cost" => pbgi_grad(num(1), num(2), num(3)).map(|g| g.d_cost),
            other => panic!("unknown function {other}"),
        }
        .unwrap_or_else(|e| panic!("{line}: {e}"));
        rows += 1;
        *per_function.entry(cols[0]).or_insert(0usize) += 1;
        let expected = cols[6];
        if expected == "-inf" {
            if !(got.value == f64::NEG_INFINITY
                && got.lower == f64::NEG_INFINITY
                && got.upper == f64::NEG_INFINITY)
            {
                failures.push(format!(
                    "{line}: got {} [{}, {}]",
                    got.value,
                    got.lower_decimal(20),
                    got.upper_decimal(20)
                ));
            }
            continue;
        }
        let (lo, hi) = decimal_enclosure(expected);
        let (nearest_lo, nearest_hi) = (lo.to_f64(), hi.to_f64());
        // A zero takes the sign of mpmath's decimal (exactly 0 is +0): the slack around the
        // decimal may straddle 0, and a decimal below MPFR's range parses as zero.
        let nearest_lo = match nearest_lo == 0.0 {
            true if expected.starts_with('-') => -0.0,
            true => 0.0,
            false => nearest_lo,
        };
        assert_eq!(
            nearest_lo, nearest_hi,
            "{line}: mpmath's decimal does not decide the rounding"
        );
        if lo.is_finite() && lo.clone().abs() < f64::MIN_POSITIVE {
            // Subnormal range: round to a multiple of 2^-1074 (ties to even) by integer
            // arithmetic, independently of MPFR's conversion to double.
            let scaled = Float::with_val(400, &lo << 1074u32);
            let k = Float::with_val(400, scaled.round_even_ref());
            subnormals += 1;
            assert_eq!(
                k.to_f64() * f64::from_bits(1),
                nearest_lo,
                "{line}: subnormal rounding"
            );
        }
        if got.value.to_bits() != nearest_lo.to_bits() {
            failures.push(format!(
                "{line}: value {:e} ({:#x}) vs nearest {:e}: {} ULP",
                got.value,
                got.value.to_bits(),
                nearest_lo,
                ulp_distance(got.value, nearest_lo)
            ));
        }
        if got.upper < lo || got.lower > hi {
            failures.push(format!(
                "{line}: mpmath outside [{}, {}]",
                got.lower_decimal(40),
                got.upper_decimal(40)
            ));
        }
        if got.upper_f64() < lo || got.lower_f64() > hi {
            failures.push(format!(
                "{line}: mpmath outside the f64 bounds [{:e}, {:e}]",
                got.lower_f64(),
                got.upper_f64()
            ));
        }
    }
    println!("rows per function: {per_function:?}");
    assert!(
        rows > 1400 && subnormals >= 3 && per_function.len() == 16,
        "only {rows} rows, {subnormals} in the subnormal range"
    );
    assert!(
        failures.is_empty(),
        "{} of {rows} rows fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
