//! `pbgi validate` configuration files: defaults round-trip, bad keys and values are errors
//! that name the key, and every u64 seed survives the round trip.
use pbgi_lab::study::config::{parse_config, to_toml};
use pbgi_lab::theorem1::Config;

#[test]
fn default_config_round_trips_through_toml_and_json() {
    let c = Config::default();
    let toml_text = to_toml(&c).unwrap();
    assert_eq!(parse_config::<Config>(&toml_text, false).unwrap(), c);
    let json_text = serde_json::to_string(&c).unwrap();
    assert_eq!(parse_config::<Config>(&json_text, true).unwrap(), c);
    assert_eq!(parse_config::<Config>("", false).unwrap(), c);
}

#[test]
fn seeds_above_i64_max_round_trip() {
    // TOML integers are i64: a larger seed is written as a string and read back exactly.
    for seed in [
        0,
        9_223_372_036_854_775_807,
        9_223_372_036_854_775_808,
        u64::MAX,
    ] {
        let c = Config {
            seed,
            ..Config::default()
        };
        let text = to_toml(&c).unwrap();
        assert_eq!(
            parse_config::<Config>(&text, false).unwrap().seed,
            seed,
            "{text}"
        );
    }
    let e = parse_config::<Config>("seed = -3\n", false).unwrap_err();
    assert!(e.contains("seed"), "{e}");
}

#[test]
fn partial_config_keeps_defaults() {
    let c: Config = parse_config("samples = 12\n[domain]\npoints = 51\n", false).unwrap();
    assert_eq!(c.samples, 12);
    assert_eq!(c.domain.points, 51);
    assert_eq!(c.lambdas, Config::default().lambdas);
}

#[test]
fn unknown_keys_are_named() {
    let e = parse_config::<Config>("sampels = 3\n", false).unwrap_err();
    assert!(e.contains("sampels"), "{e}");
    let e = parse_config::<Config>("[prior]\nlengthscale = 0.2\n", false).unwrap_err();
    assert!(e.contains("lengthscale"), "{e}");
    let e = parse_config::<Config>(r#"{"rule": {"debounse": 2}}"#, true).unwrap_err();
    assert!(e.contains("debounse"), "{e}");
}

#[test]
fn bad_names_are_refused_with_the_known_ones() {
    for (text, key) in [
        ("[prior]\nkernel = \"matern32\"\n", "matern52"),
        ("[domain]\nkind = \"sphere\"\n", "grid"),
        ("costs = [\"cubic\"]\n", "uniform"),
        ("acquisitions = [\"ucb\"]\n", "logeipc"),
        ("acquisitions = [\"PBGI\"]\n", "pbgi"),
        ("samples = \"many\"\n", "samples"),
    ] {
        let e = parse_config::<Config>(text, false).unwrap_err();
        assert!(e.contains(key), "{text:?}: {e}");
    }
}

#[test]
fn bad_values_are_named() {
    let cases = [
        ("[domain]\ndim = 3\n", "domain.dim"),
        ("lambdas = [0.1, -1.0]\n", "lambdas[1]"),
        ("lambdas = [0.1, 0.01, 0.1]\n", "lambdas[2]"),
        ("lambdas = [nan]\n", "lambdas[0]"),
        ("costs = [\"linear\", \"linear\"]\n", "costs[1]"),
        ("acquisitions = []\n", "acquisitions"),
        ("samples = 0\n", "samples"),
        ("[prior]\nlength_scale = 0.0\n", "length_scale"),
        ("[prior]\nmean = inf\n", "prior.mean"),
        ("[rule]\ndebounce = 0\n", "debounce"),
        ("initial_points = 0\n", "initial_points"),
        ("[periodic]\nanchor = [0.1, 0.2]\n", "anchor"),
    ];
    for (text, key) in cases {
        let mut c: Config = parse_config(text, false).unwrap();
        c.domain.points = c.domain.points.min(21);
        c.max_evals = c.max_evals.min(21);
        let e = c.build().unwrap_err();
        assert!(e.contains(key), "{text:?}: {e}");
    }
}
