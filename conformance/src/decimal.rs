//! Decimal strings for certified bounds and exact values.
use rug::float::Round;
use rug::Float;

/// Significant digits printed for enclosure bounds (`pbgi eval`'s `lower`, `upper`) and for the
/// exact values of the fixture files.
pub const DIGITS: usize = 40;

/// `x` as a decimal with `digits` significant digits, rounded toward `-inf` (`Round::Down`) or
/// `+inf` (`Round::Up`), so that a lower bound stays a lower bound and an upper bound an upper
/// bound. Trailing zeros of the digits are dropped (`2`, not `2.000…`). Infinities print as
/// `inf` / `-inf`, zero as `0`.
pub fn directed(x: &Float, digits: usize, round: Round) -> String {
    if x.is_infinite() {
        return if x.is_sign_negative() { "-inf" } else { "inf" }.to_string();
    }
    if x.is_zero() {
        return "0".to_string();
    }
    let text = x.to_string_radix_round(10, Some(digits), round);
    let (mantissa, exponent) = match text.find('e') {
        Some(at) => text.split_at(at),
        None => (text.as_str(), ""),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    format!("{mantissa}{exponent}")
}

/// `x` rounded to nearest with `digits` significant digits.
pub fn nearest(x: &Float, digits: usize) -> String {
    directed(x, digits, Round::Nearest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::float::Special;

    #[test]
    fn directed_rounding_brackets_the_value() {
        let third = Float::with_val(200, 1) / 3u32;
        let down = directed(&third, 5, Round::Down);
        let up = directed(&third, 5, Round::Up);
        assert_eq!((down.as_str(), up.as_str()), ("3.3333e-1", "3.3334e-1"));
        let minus = -third;
        assert_eq!(directed(&minus, 5, Round::Down), "-3.3334e-1");
        assert_eq!(directed(&minus, 5, Round::Up), "-3.3333e-1");
    }

    #[test]
    fn trailing_zeros_are_dropped() {
        assert_eq!(directed(&Float::with_val(53, 2), 40, Round::Down), "2");
        assert_eq!(directed(&Float::with_val(53, -1536), 40, Round::Up), "-1536");
        assert_eq!(directed(&Float::with_val(53, 0.25), 40, Round::Up), "2.5e-1");
    }

    #[test]
    fn special_values() {
        let ninf = Float::with_val(53, Special::NegInfinity);
        assert_eq!(directed(&ninf, 40, Round::Down), "-inf");
        assert_eq!(directed(&Float::new(53), 40, Round::Up), "0");
        let big = Float::with_val(53, 1e300);
        let s = directed(&big, 40, Round::Up);
        assert_eq!(s.parse::<f64>().unwrap(), 1e300, "{s}");
    }
}
