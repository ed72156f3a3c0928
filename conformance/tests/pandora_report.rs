//! The Pandora report (of `pbgi pandora` and `pbgi.pandora`) on the fixture instances, against
//! hand-computed values (`fixtures/pandora/theorem2_tie.json`: see its description and
//! `reference/tests/pandora_theorem2.rs::hand_computed_budget_breakpoint`).
mod common;

use common::{pandora_fixture as fixture, PANDORA_FIXTURES as FIXTURES};
use pbgi_conformance::pandora::format::read_instance;
use pbgi_conformance::pandora::report::{counterexample_report, instance_report, parse_tie, Exact};
use pbgi_conformance::pandora::Engine;
use rug::float::Constant;
use rug::ops::Pow;
use rug::{Float, Rational};

fn report(name: &str, tie: &str, budget: Option<&str>, engine: Engine) -> serde_json::Value {
    let path = fixture(name);
    let file = read_instance(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let budget = budget.map(|b| b.parse::<Rational>().unwrap());
    instance_report(
        name,
        &file,
        &parse_tie(tie).unwrap(),
        budget,
        engine,
        &mut Exact::quiet(),
    )
    .unwrap()
}

#[test]
fn theorem2_fixture_gives_the_hand_computed_mixture() {
    let r = report("theorem2_tie.json", "early", Some("6/5"), Engine::Reference);
    let b = &r["budget"];
    assert_eq!(b["kind"], "breakpoint");
    assert_eq!(b["lambda"]["exact"], "1/2");
    assert_eq!(b["stop_early_probability"]["exact"], "1/5");
    assert_eq!(b["expected_best"]["exact"], "2/5");
    assert_eq!(b["lagrangian_check"]["mixture_is_budget_optimal"], true);
}

/// `tie_at_outside.json`, by hand: both indices are `g = 1 = y0`. Stop-early keeps `y0` at
/// cost 0. Stop-late opens box 1 (1/2), and box 2 when `X₁ = 2` leaves `min(1, 2) = 1 = g`
/// (another tie, probability 1/2): cost `1/2 + 1/4 = 3/4`. The objective is 1 either way;
/// `--tie 1/3` (stop-early with probability 1/3) spends `2/3·3/4 = 1/2`.
#[test]
fn tie_rules_on_the_fixture() {
    let early = report("tie_at_outside.json", "early", None, Engine::Reference);
    assert_eq!(early["expected_cost"]["exact"], "0");
    assert_eq!(early["expected_objective"]["exact"], "1");
    let late = report("tie_at_outside.json", "late", None, Engine::Reference);
    assert_eq!(late["expected_cost"]["exact"], "3/4");
    assert_eq!(late["expected_objective"]["exact"], "1");
    let mixed = report("tie_at_outside.json", "1/3", None, Engine::Reference);
    assert_eq!(mixed["expected_cost"]["exact"], "1/2");
    assert_eq!(mixed["dp"]["policy_attains_optimum"], true);
}

/// Both engines agree on every fixture, expected cost included: the f64 engine decides
/// comparisons that rounding could flip from the exact instance (`two_boxes.json` has an index
/// tie at 1/2 that rounding `0.3`, `0.2` to f64 would break: exact cost 2/5, once 0.425 in f64).
#[test]
fn every_fixture_runs_on_both_engines_and_agrees() {
    for name in FIXTURES {
        for tie in ["early", "late", "1/3"] {
            let r = report(name, tie, None, Engine::Reference);
            let f = report(name, tie, None, Engine::Fast);
            for field in ["expected_objective", "expected_cost", "expected_best"] {
                let reference = r[field]["decimal"].as_f64().unwrap();
                let fast = f[field].as_f64().unwrap();
                assert!(
                    (reference - fast).abs() <= 1e-12,
                    "{name}, tie {tie}, {field}: {reference} vs {fast}"
                );
            }
            if r["dp"].get("policy_attains_optimum").is_some() {
                assert_eq!(r["dp"]["policy_attains_optimum"], true, "{name}");
            }
        }
    }
}

/// `two_boxes.json` by hand: box a (cost 1/4, X ∈ {0, 2}) has index 1/2; box b (cost 3/10,
/// X ∈ {-1, 1/2, 3} with probabilities 1/5, 3/10, 1/2) solves `(g + 1)/5 = 3/10`, index 1/2
/// too; both below `y0 = 1`. Input order opens a, then b only when `X_a = 2`:
/// `E[cost] = 1/4 + 3/10·1/2 = 2/5`; `E[best] = 1/2·0 + 1/2·(1/5·(-1) + 3/10·1/2 + 1/2·1) = 9/40`.
#[test]
fn two_boxes_fixture_by_hand() {
    let r = report("two_boxes.json", "early", None, Engine::Reference);
    assert_eq!(r["expected_cost"]["exact"], "2/5");
    assert_eq!(r["expected_best"]["exact"], "9/40");
    assert_eq!(r["policy_order"][0]["name"], "a");
    assert_eq!(r["policy_order"][1]["index"]["exact"], "1/2");
    let f = report("two_boxes.json", "early", None, Engine::Fast);
    assert_eq!(f["expected_cost"].as_f64(), Some(0.4));
    assert_eq!(f["policy_order"][0]["name"], "a");
}

#[test]
fn counterexample_report_has_exact_sizes() {
    let r = counterexample_report("1/7,1/2").unwrap();
    assert_eq!(r["cheap_boxes_K"], "11");
    assert_eq!(r["opened_by_ei_per_cost_N"], "10");
    assert!(counterexample_report("0,1")
        .unwrap_err()
        .contains("must be > 0"));
    assert!(counterexample_report("0.1")
        .unwrap_err()
        .contains("EPS,DELTA"));
}

#[test]
fn budget_on_a_normal_instance_is_an_error() {
    let path = fixture("mixed_normal.json");
    let file = read_instance(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let e = instance_report(
        "x",
        &file,
        &parse_tie("early").unwrap(),
        Some(Rational::from(1)),
        Engine::Reference,
        &mut Exact::quiet(),
    )
    .unwrap_err();
    assert!(e.contains("--budget needs a discrete instance"), "{e}");
}

fn report_of(text: &str) -> serde_json::Value {
    let file = read_instance(text).unwrap();
    instance_report(
        "x",
        &file,
        &parse_tie("early").unwrap(),
        None,
        Engine::Reference,
        &mut Exact::quiet(),
    )
    .unwrap()
}

/// Checks that an estimate's printed digits are supported by its error estimate: the unit of
/// the last printed digit is at least the error (a value below the error prints as `0`), the
/// value lies in its certified enclosure, and within the error (plus half a unit of the last
/// digit, its rounding) of `exact` when that is known.
fn assert_supported(estimate: &serde_json::Value, exact: Option<&Float>) {
    let text = |key: &str| estimate[key].as_str().unwrap().to_string();
    let float = |s: &str| Float::with_val(256, Float::parse(s).unwrap());
    let (value, error) = (float(&text("value")), float(&text("error_estimate")));
    let mut half_unit = Float::new(256);
    if !value.is_zero() {
        let shown = text("value");
        let mantissa = shown
            .trim_start_matches('-')
            .split(['e', 'E'])
            .next()
            .unwrap();
        let count = mantissa
            .trim_start_matches(['0', '.'])
            .replace('.', "")
            .len() as i32;
        let exponent = value.clone().abs().log10().floor().to_f64() as i32;
        let unit = Float::with_val(256, 10).pow(exponent - count + 1);
        assert!(
            unit >= error,
            "{estimate}: digits beyond the error estimate"
        );
        half_unit = unit / 2u32;
    }
    let (lower, upper) = (
        float(&text("certified_lower")),
        float(&text("certified_upper")),
    );
    assert!(lower <= value && value <= upper, "{estimate}");
    if let Some(exact) = exact {
        assert!(
            Float::with_val(256, &value - exact).abs() <= error + half_unit,
            "{estimate}: exact {exact}"
        );
    }
}

/// One box `N(0, sd²)` with cost `sd·1e-10` and `y0 = 0` is opened, and its objective is
/// `−sd/√(2π) + cost` for the f64-rounded parameters (computed here in 256-bit arithmetic): at
/// `sd = 1e-30` the report once printed −4.0757e-31 with 30 digits. A must-open symmetric box has
/// `E[best] = 0`, which no digit of a quadrature estimate below its error may contradict.
#[test]
fn printed_digits_are_supported_and_right_at_every_scale() {
    for e in [25, 30, 100, 200, 300] {
        let (sd, cost) = (format!("1e-{e}"), format!("1e-{}", e + 10));
        let r = report_of(&format!(
            r#"{{"outside": 0, "boxes": [{{"cost": "{cost}", "normal": {{"mean": 0, "sd": "{sd}"}}}}]}}"#
        ));
        let sd = Float::with_val(256, sd.parse::<f64>().unwrap());
        let cost = Float::with_val(256, cost.parse::<f64>().unwrap());
        let root_two_pi = Float::with_val(256, Float::with_val(256, Constant::Pi) * 2u32).sqrt();
        let exact = Float::with_val(256, cost - sd / root_two_pi);
        let objective = &r["expected_objective"];
        assert_supported(objective, Some(&exact));
        let shown = objective["value"].as_str().unwrap();
        assert!(shown.len() >= 30, "sd 1e-{e}: only {shown}");
    }
    let r = report_of(r#"{"boxes": [{"cost": 0.1, "normal": {"mean": 0, "sd": 1}}]}"#);
    assert_supported(&r["expected_best"], Some(&Float::new(256)));
    assert_supported(&r["expected_objective"], None);
}
