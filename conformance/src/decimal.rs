//! Decimal strings for certified bounds and exact values.
use rug::float::Round;
use rug::Float;

/// Significant digits printed for enclosure bounds (`pbgi eval`'s `lower`, `upper`) and for the
/// exact values of the fixture files.
pub const DIGITS: usize = 40;

/// `x` as a decimal with `digits` significant digits, rounded toward `-inf` (`Round::Down`) or
/// `+inf` (`Round::Up`), so that a lower bound stays a lower bound and an upper bound an upper
/// bound. Infinities print as `inf` / `-inf`, zero as `0`.
pub fn directed(x: &Float, digits: usize, round: Round) -> String {
    if x.is_infinite() {
        return if x.is_sign_negative() { "-inf" } else { "inf" }.to_string();
    }
    if x.is_zero() {
        return "0".to_string();
    }
    x.to_string_radix_round(10, Some(digits), round)
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
    fn special_values() {
        let ninf = Float::with_val(53, Special::NegInfinity);
        assert_eq!(directed(&ninf, 40, Round::Down), "-inf");
        assert_eq!(directed(&Float::new(53), 40, Round::Up), "0");
        let big = Float::with_val(53, 1e300);
        let s = directed(&big, 40, Round::Up);
        assert_eq!(s.parse::<f64>().unwrap(), 1e300, "{s}");
    }
}
