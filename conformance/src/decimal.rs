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
    trim_zeros(&certified.lower_decimal(digits))
}

/// The enclosure's upper bound with `digits` significant digits, rounded toward `+inf`.
pub fn upper(certified: &Certified, digits: usize) -> String {
    trim_zeros(&certified.upper_decimal(digits))
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
fn trim_zeros(text: &str) -> String {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    let mut out = String::with_capacity(mantissa.len() + exponent.len());
    out.push_str(mantissa);
    out.push_str(exponent);
    out
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

    #[test]
    fn trailing_zeros_are_dropped() {
        assert_eq!(trim_zeros("2.000000"), "2");
        assert_eq!(trim_zeros("2.500e-1"), "2.5e-1");
        assert_eq!(trim_zeros("1500"), "1500");
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
    }
}
