//! The Pandora instance file format (JSON), read exactly.
//!
//! ```json
//! {
//!   "description": "optional free text",
//!   "outside": "1/2",
//!   "boxes": [
//!     { "name": "a", "cost": "1/4", "values": [0, 1], "probs": ["1/2", "1/2"] },
//!     { "cost": 0.1, "normal": { "mean": 0, "sd": 1 } }
//!   ]
//! }
//! ```
//!
//! Numbers may be JSON numbers or strings; both are read **exactly** from their text: a
//! decimal with optional exponent (`0.1` is `1/10`, `-2.5e-3` is `-1/400`) or a fraction
//! `"p/q"`. `"outside"` (the value in hand, `y0`) may be omitted or `null`: then at least one
//! box must be opened. A box is discrete (`"values"` + `"probs"`) or normal (`"normal"` with
//! `"mean"`, `"sd"`); `"name"` and `"description"` are optional strings. Unknown fields are
//! errors. Every error names the box and field, or the line and column of a syntax error.
use super::json::{parse, Json};
use crate::limits::read_text_file;
use pbgi_reference::pandora::{Distribution, Instance, InstanceError, PandoraBox};
use rug::ops::Pow;
use rug::{Integer, Rational};
use std::path::Path;

/// An instance as read from a file, with the optional box names.
#[derive(Clone, Debug)]
pub struct InstanceFile {
    /// The instance.
    pub instance: Instance,
    /// Box names (`None` when not given), input order.
    pub names: Vec<Option<String>>,
}

/// Largest decimal exponent accepted (keeps `10^e` small).
pub const MAX_EXPONENT: i64 = 1000;

/// Parses an exact rational from `text`: a decimal `[-]digits[.digits][(e|E)[+|-]digits]` or a
/// fraction `[-]digits/digits` with a non-zero denominator.
///
/// # Errors
/// Anything else (including `inf`, `nan`, hexadecimal, spaces), with the text quoted.
pub fn parse_exact(text: &str) -> Result<Rational, String> {
    let bad = || format!("not an exact number (decimal or \"p/q\"): {text:?}");
    let unsigned_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some((num, den)) = text.split_once('/') {
        let num_digits = num.strip_prefix('-').unwrap_or(num);
        if !unsigned_digits(num_digits) || !unsigned_digits(den) {
            return Err(bad());
        }
        let n: Integer = num.parse().map_err(|_| bad())?;
        let d: Integer = den.parse().map_err(|_| bad())?;
        if d == 0 {
            return Err(format!("zero denominator in \"{text}\""));
        }
        return Ok(Rational::from((n, d)));
    }
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !unsigned_digits(int_part) || (mantissa.contains('.') && !unsigned_digits(frac_part)) {
        return Err(bad());
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if !unsigned_digits(digits) {
                return Err(bad());
            }
            let e: i64 = e.parse().map_err(|_| bad())?;
            if e.abs() > MAX_EXPONENT {
                return Err(format!(
                    "exponent out of range (|e| ≤ {MAX_EXPONENT}): \"{text}\""
                ));
            }
            e
        }
    };
    let digits: Integer = format!("{int_part}{frac_part}")
        .parse()
        .map_err(|_| bad())?;
    let scale = exponent - frac_part.len() as i64;
    let power = Integer::from(10).pow(u32::try_from(scale.unsigned_abs()).map_err(|_| bad())?);
    let magnitude = if scale >= 0 {
        Rational::from(digits * power)
    } else {
        Rational::from((digits, power))
    };
    Ok(if negative { -magnitude } else { magnitude })
}

fn field_error(box_index: Option<usize>, field: &str, message: String) -> InstanceError {
    InstanceError {
        box_index,
        field: field.to_string(),
        message,
    }
}

/// Reads a number field (JSON number or string), exactly.
fn number(value: &Json, box_index: Option<usize>, field: &str) -> Result<Rational, InstanceError> {
    let text = match value {
        Json::Number(t) | Json::String(t) => t,
        other => {
            return Err(field_error(
                box_index,
                field,
                format!(
                    "expected a number or a string like \"3/10\", got {}",
                    other.kind()
                ),
            ))
        }
    };
    parse_exact(text).map_err(|m| field_error(box_index, field, m))
}

fn positive(
    value: &Json,
    box_index: Option<usize>,
    field: &str,
) -> Result<Rational, InstanceError> {
    let x = number(value, box_index, field)?;
    if x <= 0 {
        let shown = match value {
            Json::Number(t) | Json::String(t) => t.clone(),
            _ => x.to_string(),
        };
        return Err(field_error(
            box_index,
            field,
            format!("must be > 0, got \"{shown}\""),
        ));
    }
    Ok(x)
}

fn members<'a>(
    value: &'a Json,
    box_index: Option<usize>,
    what: &str,
    allowed: &[&str],
) -> Result<&'a [(String, Json)], InstanceError> {
    let Json::Object(m) = value else {
        return Err(field_error(
            box_index,
            what,
            format!("expected an object, got {}", value.kind()),
        ));
    };
    if let Some((k, _)) = m.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        return Err(field_error(
            box_index,
            k,
            format!("unknown field (allowed: {})", allowed.join(", ")),
        ));
    }
    Ok(m)
}

fn get<'a>(m: &'a [(String, Json)], key: &str) -> Option<&'a Json> {
    m.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn number_list(
    value: &Json,
    box_index: usize,
    field: &str,
) -> Result<Vec<Rational>, InstanceError> {
    let Json::Array(items) = value else {
        return Err(field_error(
            Some(box_index),
            field,
            format!("expected an array, got {}", value.kind()),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(j, v)| number(v, Some(box_index), &format!("{field}[{j}]")))
        .collect()
}

fn read_box(value: &Json, i: usize) -> Result<(PandoraBox, Option<String>), InstanceError> {
    let m = members(
        value,
        Some(i),
        "boxes",
        &["name", "cost", "values", "probs", "normal"],
    )?;
    let name = match get(m, "name") {
        None => None,
        Some(Json::String(s)) => Some(s.clone()),
        Some(other) => {
            return Err(field_error(
                Some(i),
                "name",
                format!("expected a string, got {}", other.kind()),
            ))
        }
    };
    let cost = positive(
        get(m, "cost").ok_or_else(|| field_error(Some(i), "cost", "missing".into()))?,
        Some(i),
        "cost",
    )?;
    let distribution = match (get(m, "values"), get(m, "probs"), get(m, "normal")) {
        (Some(values), Some(probs), None) => {
            let values = number_list(values, i, "values")?;
            let probs = number_list(probs, i, "probs")?;
            Distribution::Discrete(pbgi_reference::pandora::Discrete::new(
                values,
                probs,
                Some(i),
            )?)
        }
        (None, None, Some(normal)) => {
            let n = members(normal, Some(i), "normal", &["mean", "sd"])?;
            let mean = number(
                get(n, "mean").ok_or_else(|| field_error(Some(i), "mean", "missing".into()))?,
                Some(i),
                "mean",
            )?;
            let sd = positive(
                get(n, "sd").ok_or_else(|| field_error(Some(i), "sd", "missing".into()))?,
                Some(i),
                "sd",
            )?;
            Distribution::Normal { mean, sd }
        }
        _ => {
            return Err(field_error(
                Some(i),
                "values",
                "a box needs either \"values\" and \"probs\" (discrete) or \"normal\" \
                 (with \"mean\" and \"sd\"), not both"
                    .into(),
            ))
        }
    };
    Ok((PandoraBox::new(cost, distribution, Some(i))?, name))
}

/// Reads an instance from JSON text.
///
/// # Errors
/// JSON syntax errors (with line and column) and field errors (with box and field).
pub fn read_instance(text: &str) -> Result<InstanceFile, String> {
    let json = parse(text)?;
    let m = members(
        &json,
        None,
        "(top level)",
        &["description", "outside", "boxes"],
    )
    .map_err(|e| e.to_string())?;
    if let Some(other) = get(m, "description").filter(|d| !matches!(d, Json::String(_))) {
        return Err(format!(
            "field \"description\": expected a string, got {}",
            other.kind()
        ));
    }
    let outside = match get(m, "outside") {
        None | Some(Json::Null) => None,
        Some(v) => Some(number(v, None, "outside").map_err(|e| e.to_string())?),
    };
    let Some(Json::Array(items)) = get(m, "boxes") else {
        return Err("field \"boxes\": missing, or not an array".into());
    };
    let mut boxes = Vec::with_capacity(items.len());
    let mut names = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let (b, name) = read_box(item, i).map_err(|e| e.to_string())?;
        boxes.push(b);
        names.push(name);
    }
    let instance = Instance::new(boxes, outside).map_err(|e| e.to_string())?;
    Ok(InstanceFile { instance, names })
}

/// Reads an instance file: at most [`crate::limits::MAX_FILE_BYTES`], UTF-8 (a leading
/// byte-order mark is dropped), then [`read_instance`]. Every error starts with the file's
/// name, then the line and column (syntax) or the box and field (content).
///
/// # Errors
/// As [`crate::limits::read_text_file`] and [`read_instance`].
pub fn read_instance_file(path: &Path) -> Result<InstanceFile, String> {
    let text = read_text_file(path)?;
    read_instance(&text).map_err(|e| format!("{}: {e}", path.display()))
}
