//! `pbgi validate` configuration files: defaults round-trip, bad keys and values are errors
//! that name the key.
use pbgi_conformance::cli::validate::{build_study, parse_config, Config};

#[test]
fn default_config_round_trips_through_toml_and_json() {
    let c = Config::default();
    let toml_text = toml::to_string(&c).unwrap();
    assert_eq!(parse_config(&toml_text, false).unwrap(), c);
    let json_text = serde_json::to_string(&c).unwrap();
    assert_eq!(parse_config(&json_text, true).unwrap(), c);
    assert_eq!(parse_config("", false).unwrap(), c);
}

#[test]
fn partial_config_keeps_defaults() {
    let c = parse_config("samples = 12\n[domain]\npoints = 51\n", false).unwrap();
    assert_eq!(c.samples, 12);
    assert_eq!(c.domain.points, 51);
    assert_eq!(c.lambdas, Config::default().lambdas);
}

#[test]
fn unknown_keys_are_named() {
    let e = parse_config("sampels = 3\n", false).unwrap_err();
    assert!(e.contains("sampels"), "{e}");
    let e = parse_config("[prior]\nlengthscale = 0.2\n", false).unwrap_err();
    assert!(e.contains("lengthscale"), "{e}");
    let e = parse_config(r#"{"rule": {"debounse": 2}}"#, true).unwrap_err();
    assert!(e.contains("debounse"), "{e}");
}

#[test]
fn bad_values_are_named() {
    let e = parse_config("samples = \"many\"\n", false).unwrap_err();
    assert!(e.contains("samples"), "{e}");
    let cases = [
        ("[prior]\nkernel = \"matern32\"\n", "prior.kernel"),
        ("[domain]\nkind = \"sphere\"\n", "domain.kind"),
        ("[domain]\ndim = 3\n", "domain.dim"),
        ("costs = [\"cubic\"]\n", "costs"),
        ("acquisitions = [\"ucb\"]\n", "acquisitions"),
        ("lambdas = [0.1, -1.0]\n", "lambdas"),
        ("samples = 0\n", "samples"),
        ("[prior]\nlength_scale = 0.0\n", "length_scale"),
        ("[rule]\ndebounce = 0\n", "debounce"),
        ("initial_points = 0\n", "initial_points"),
        ("[periodic]\nanchor = [0.1, 0.2]\n", "anchor"),
    ];
    for (text, key) in cases {
        let mut c = parse_config(text, false).unwrap();
        c.domain.points = c.domain.points.min(21);
        let e = build_study(&c).unwrap_err();
        assert!(e.contains(key), "{text:?}: {e}");
    }
}
