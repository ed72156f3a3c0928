//! Decimal strings for certified bounds and exact values.
//!
//! The digits come from `pbgi-reference` ([`Certified::lower_decimal`] / `upper_decimal`: MPFR's
//! directed-rounding conversion, which also handles exponents far outside f64's range, like the
//! `10^-2171472420` of `EI(0, 1; -1e5)`); this module only rounds such strings further.
use pbgi_reference::Certified;

/// Significant digits printed for enclosure bounds (`pbgi eval`'s `lower`, `upper`) and for the
/// exact values of the fixture files.
pub const DIGITS: usize = 40;

/// The enclosure's lower bound with `digits` significant digits, rounded toward `-inf`, trailing
/// zeros dropped (`2`, not `2.000…`); `inf`, `-inf`, `0` as such.
pub fn lower(certified: &Certified, digits: usize) -> String {
    trim_zeros(certified.lower_decimal(digits))
}

/// The enclosure's upper bound with `digits` significant digits, rounded toward `+inf`.
pub fn upper(certified: &Certified, digits: usize) -> String {
    trim_zeros(certified.upper_decimal(digits))
}

/// [`lower`]'s text appended to `out`, with no string of its own (`pbgi eval` writes it
/// straight into its output row).
pub fn push_lower(certified: &Certified, digits: usize, out: &mut Vec<u8>) {
    let start = out.len();
    certified.push_lower_decimal(digits, out);
    trim_zeros_from(out, start);
}

/// [`upper`]'s text appended to `out`.
pub fn push_upper(certified: &Certified, digits: usize, out: &mut Vec<u8>) {
    let start = out.len();
    certified.push_upper_decimal(digits, out);
    trim_zeros_from(out, start);
}

/// [`lower`]'s text, `,` and [`upper`]'s text appended to `out` (`pbgi eval`'s `lower,upper`),
/// the ends' digits formed together ([`Certified::push_ends_decimal`]).
pub fn push_ends(certified: &Certified, digits: usize, out: &mut Vec<u8>) {
    let start = out.len();
    let upper_at = certified.push_ends_decimal(digits, b',', out);
    // The upper end's zeros first (at the end), then the lower end's (before the comma).
    trim_zeros_from(out, upper_at);
    trim_zeros_within(out, start, upper_at - 1);
}

/// The exact value rounded to nearest (ties away from zero) at `digits` significant digits, when
/// the enclosure settles it: rounding is monotone, so if both ends of the enclosure (printed
/// outward with extra digits) round to the same string, so does every point between them.
pub fn settled_nearest(certified: &Certified, digits: usize) -> Option<String> {
    let low = round_nearest(&certified.lower_decimal(digits + 20), digits)?;
    let high = round_nearest(&certified.upper_decimal(digits + 20), digits)?;
    (low == high).then_some(low)
}

/// Drops trailing zeros of the digits of a decimal string (and a trailing `.`).
fn trim_zeros(text: String) -> String {
    let mut bytes = text.into_bytes();
    trim_zeros_from(&mut bytes, 0);
    // Only ASCII bytes ('0' and '.') were removed: still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

/// Drops trailing zeros of the digits of the decimal text `bytes[start..]` (and a trailing `.`)
/// in place: no second buffer, byte scans only, the exponent (`e` or `E` and what follows, the
/// last such marker; the texts here have at most one) moved back over the dropped bytes.
#[inline(always)]
fn trim_zeros_from(bytes: &mut Vec<u8>, start: usize) {
    trim_zeros_within(bytes, start, bytes.len());
}

/// [`trim_zeros_from`] for the text `bytes[start..end]`: the bytes after it move back over the
/// dropped ones.
#[inline(always)]
fn trim_zeros_within(bytes: &mut Vec<u8>, start: usize, end: usize) {
    let text = &bytes[start..end];
    let exponent_at = text
        .iter()
        .rposition(|&b| b == b'e' || b == b'E')
        .unwrap_or(text.len());
    // Nothing to drop unless the digits end in `0` or `.` (nine bounds in ten end otherwise):
    // decided before the search for the point.
    if !matches!(text[..exponent_at].last(), Some(b'0' | b'.'))
        || !text[..exponent_at].contains(&b'.')
    {
        return;
    }
    let mut kept = exponent_at;
    while kept > 0 && text[kept - 1] == b'0' {
        kept -= 1;
    }
    if kept > 0 && text[kept - 1] == b'.' {
        kept -= 1;
    }
    let (kept, exponent_at) = (start + kept, start + exponent_at);
    bytes.copy_within(exponent_at.., kept);
    bytes.truncate(bytes.len() - (exponent_at - kept));
}

/// Rounds the decimal `text` (`[-]digits[.digits][e[-]exponent]`, or `inf`/`-inf`/`0`) to nearest
/// at `digits` significant digits, ties away from zero, printed as `d.ddd…e±x` (trailing zeros
/// dropped). `None` if `text` is not such a decimal.
pub fn round_nearest(text: &str, digits: usize) -> Option<String> {
    match text {
        "inf" | "-inf" => return Some(text.to_string()),
        "0" | "-0" => return Some("0".to_string()),
        _ => {}
    }
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], body[at + 1..].parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: Vec<u8> = integer.bytes().chain(fraction.bytes()).collect();
    if all.is_empty() || !all.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let leading = all.iter().take_while(|&&d| d == b'0').count();
    if leading == all.len() {
        return Some("0".to_string());
    }
    let significant = &all[leading..];
    // value = 0.significant × 10^(point), point counted from the first significant digit.
    let point = integer.len() as i64 - leading as i64 + exponent;
    let mut kept: Vec<u8> = significant.iter().take(digits).map(|d| d - b'0').collect();
    let mut point = point;
    if significant.get(digits).is_some_and(|&d| d >= b'5') {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, 1);
                kept.truncate(digits);
                point += 1;
                break;
            }
            i -= 1;
            if kept[i] == 9 {
                kept[i] = 0;
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    while kept.len() > 1 && kept.last() == Some(&0) {
        kept.pop();
    }
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    out.push(char::from(b'0' + kept[0]));
    if kept.len() > 1 {
        out.push('.');
        out.extend(kept[1..].iter().map(|d| char::from(b'0' + d)));
    }
    out.push_str(&format!("e{}", point - 1));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rounding_of_decimal_strings() {
        assert_eq!(
            round_nearest("3.98942280401432677939946e-1", 5).unwrap(),
            "3.9894e-1"
        );
        assert_eq!(
            round_nearest("-1.0833154705876862983830627", 16).unwrap(),
            "-1.083315470587686e0"
        );
        assert_eq!(round_nearest("9.99996e5", 5).unwrap(), "1e6");
        assert_eq!(round_nearest("1536", 40).unwrap(), "1.536e3");
        assert_eq!(round_nearest("0.00125", 2).unwrap(), "1.3e-3");
        assert_eq!(
            round_nearest("1.2152088604e-2171472420", 3).unwrap(),
            "1.22e-2171472420"
        );
        assert_eq!(round_nearest("-inf", 3).unwrap(), "-inf");
        assert_eq!(round_nearest("0", 3).unwrap(), "0");
        assert_eq!(round_nearest("abc", 3), None);
    }

    /// [`push_ends`] writes [`lower`], `,` and [`upper`]: on the reference's EI, LogEI and `h`
    /// at random arguments (tight enclosures of either sign), exact cases whose ends are short
    /// decimals (`EI(μ, 0; y) = max(y - μ, 0)`: trailing zeros on both ends, and zero), ends far
    /// outside f64's range, and at 21, 33 and 40 digits.
    #[test]
    fn ends_are_lower_comma_upper() {
        use crate::function::Function;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4041);
        let mut cases: Vec<(Function, Vec<f64>)> = vec![
            (Function::Ei, vec![0.0, 0.0, 2.5]),
            (Function::Ei, vec![1.0, 0.0, 0.5]),
            (Function::Ei, vec![0.0, 0.0, 1e300]),
            (Function::Ei, vec![0.0, 1.0, -1e5]),
            (Function::LogEi, vec![0.0, 1.0, -1e5]),
            (Function::LogEi, vec![0.0, 0.0, 1.0]),
        ];
        for _ in 0..3000 {
            let (mu, sigma, y) = (
                rng.gen_range(-10.0..10.0),
                rng.gen_range(0.0..5.0f64).powi(3),
                rng.gen_range(-40.0..40.0),
            );
            cases.push((Function::Ei, vec![mu, sigma, y]));
            cases.push((Function::LogEi, vec![mu, sigma, y]));
            cases.push((Function::H, vec![rng.gen_range(-40.0..40.0)]));
        }
        for (function, args) in cases {
            let certified = crate::oracle::reference(function, &args).unwrap();
            for digits in [21, 33, 40] {
                let mut got = b"x,".to_vec();
                push_ends(&certified, digits, &mut got);
                let expected = format!(
                    "x,{},{}",
                    lower(&certified, digits),
                    upper(&certified, digits)
                );
                assert_eq!(String::from_utf8(got).unwrap(), expected, "{args:?}");
            }
        }
    }

    #[test]
    fn trailing_zeros_are_dropped() {
        assert_eq!(trim_zeros("2.000000".into()), "2");
        assert_eq!(trim_zeros("2.500e-1".into()), "2.5e-1");
        assert_eq!(trim_zeros("1500".into()), "1500");
    }

    /// The in-place trimming gives the same strings as trimming the mantissa with
    /// `trim_end_matches('0')` then `trim_end_matches('.')` and re-attaching the exponent, on
    /// every shape `decimal::lower`/`upper` meet (and a few they do not).
    #[test]
    fn trimming_in_place_matches_trimming_by_patterns() {
        fn by_patterns(text: &str) -> String {
            let (mantissa, exponent) = match text.find(['e', 'E']) {
                Some(at) => text.split_at(at),
                None => (text, ""),
            };
            let mantissa = if mantissa.contains('.') {
                mantissa.trim_end_matches('0').trim_end_matches('.')
            } else {
                mantissa
            };
            format!("{mantissa}{exponent}")
        }
        let mut cases: Vec<String> = [
            "inf",
            "-inf",
            "0",
            "",
            ".",
            "0.",
            "0.0",
            "-0.000e5",
            "100",
            "100.",
            "1.0e0",
            "9.990000000000000000000000000000000000000e-2171472420",
            "1E10",
            "1.50E-3",
            "-3.000000000000000000000000000000000000001e-1",
            "5.e3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for digits in ["1", "10", "1000", "12345", "100200300", "9999"] {
            for zeros in 0..4 {
                for exponent in ["", "e0", "e-12", "e345"] {
                    for sign in ["", "-"] {
                        let (head, tail) = digits.split_at(1);
                        let z = "0".repeat(zeros);
                        cases.push(format!("{sign}{head}.{tail}{z}{exponent}"));
                        cases.push(format!("{sign}{digits}{z}{exponent}"));
                    }
                }
            }
        }
        for case in cases {
            assert_eq!(trim_zeros(case.clone()), by_patterns(&case), "{case:?}");
            // At the end of a buffer holding other text: only the case's part changes.
            let mut buffer = b"1.00,0.0e5,".to_vec();
            buffer.extend_from_slice(case.as_bytes());
            trim_zeros_from(&mut buffer, 11);
            assert_eq!(
                String::from_utf8(buffer).unwrap(),
                format!("1.00,0.0e5,{}", by_patterns(&case)),
                "{case:?}"
            );
        }
    }

    #[test]
    fn bounds_of_a_certified_value_are_outward() {
        let third = pbgi_reference::Certified {
            value: 1.0 / 3.0,
            lower: pbgi_reference::Float::with_val(200, 1) / 3u32,
            upper: pbgi_reference::Float::with_val(200, 1) / 3u32,
        };
        assert!(
            lower(&third, 5).starts_with("3.3333"),
            "{}",
            lower(&third, 5)
        );
        assert!(
            upper(&third, 5).starts_with("3.3334"),
            "{}",
            upper(&third, 5)
        );
        assert_eq!(settled_nearest(&third, 5).unwrap(), "3.3333e-1");
        for digits in [1, 5, 40, 60] {
            let mut row = b"x,".to_vec();
            push_lower(&third, digits, &mut row);
            row.push(b',');
            push_upper(&third, digits, &mut row);
            assert_eq!(
                row,
                format!("x,{},{}", lower(&third, digits), upper(&third, digits)).as_bytes()
            );
        }
    }
}
