//! A deliberately naive expected improvement, to be graded by `pbgi check`.
//!
//! `EI(μ, σ; y) = σ·(zΦ(z) + φ(z))`, `z = (y − μ)/σ`, written plainly as in many codebases
//! (with an accurate `Φ` from `libm::erfc`). For `z ≲ −5` the two terms nearly cancel and the
//! result loses digits, until `zΦ(z) + φ(z)` is pure rounding noise and then 0 (MATH.md, "Gaussian
//! building blocks"). Prints `mu,sigma,y,value` for `z` from −40 to 5 in steps of 1/4:
//!
//! ```text
//! cargo run --release -p pbgi-conformance --example naive_ei > naive_ei.csv
//! pbgi check ei naive_ei.csv --max-ulp 4
//! ```
use std::f64::consts::{PI, SQRT_2};

fn naive_ei(mu: f64, sigma: f64, y: f64) -> f64 {
    let z = (y - mu) / sigma;
    let cdf = 0.5 * libm::erfc(-z / SQRT_2);
    let pdf = (-0.5 * z * z).exp() / (2.0 * PI).sqrt();
    sigma * (z * cdf + pdf)
}

fn main() {
    let (mu, sigma) = (1.0, 2.0);
    println!("mu,sigma,y,value");
    for k in 0..=180 {
        let z = -40.0 + 0.25 * f64::from(k);
        let y = mu + sigma * z;
        println!("{mu},{sigma},{y},{:e}", naive_ei(mu, sigma, y));
    }
}
