//! The one tolerance table: how far `pbgi-fast` may be from the reference, per function and
//! region of `z`, each entry with its reason (libm-test's `precision.rs` style).
//!
//! Errors are measured by [`crate::ulp::error_in_ulps`] against the reference's correctly
//! rounded f64. The bounds are the fast crate's documented accuracy (its rustdoc); a measured
//! error above a bound fails `conformance/tests/fast_vs_reference.rs`, and the measured figures
//! are kept in the snapshot `conformance/tests/snapshots/fast_vs_reference__conformance_table.snap`.
use crate::function::Function;
use crate::regions::Region;

/// An accuracy bound and why it is what it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Largest allowed error, in the function's ULP measure.
    pub max_ulp: f64,
    /// Why (where the bound comes from).
    pub reason: &'static str,
}

/// The bound for `pbgi-fast`'s `function` in `region`.
pub fn fast_tolerance(function: Function, region: Region) -> Tolerance {
    use Function::*;
    use Region::*;
    match (function, region) {
        (Ei | LogEi | LogEipc | Pbgi, SigmaZero) => Tolerance {
            max_ulp: 0.0,
            reason: "sigma = 0 is one correctly rounded operation: max(y - mu, 0), its ln, or mu + cost",
        },
        (H, _) => Tolerance {
            max_ulp: 4.0,
            reason: "pbgi_fast::h documents <= 4 ULP on the whole line",
        },
        (LnH, _) => Tolerance {
            max_ulp: 4.0,
            reason: "pbgi_fast::ln_h documents <= 4 ULP (of max(|ln h|, 1))",
        },
        (Ei, _) => Tolerance {
            max_ulp: 6.0,
            reason: "pbgi_fast::ei = sigma*h(z): h's 4 ULP, the product's rounding, and z's rounding amplified by h'/h*z",
        },
        (LogEi, _) => Tolerance {
            max_ulp: 6.0,
            reason: "pbgi_fast::log_ei = ln sigma + ln h(z): ln h's 4 ULP plus the sum's rounding",
        },
        (LogEipc, _) => Tolerance {
            max_ulp: 6.0,
            reason: "pbgi_fast::log_eipc = log_ei - ln cost, measured at the larger term's scale",
        },
        (Pbgi, _) => Tolerance {
            max_ulp: 4.0,
            reason: "pbgi_fast::pbgi documents <= 4 ULP of |mu| + sigma*|u|",
        },
    }
}
