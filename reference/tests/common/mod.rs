//! Helpers shared by the reference's integration tests: values rounded down or up at a given
//! precision (for enclosures computed in the tests themselves), and the Pandora tests' exact
//! rationals `r(num, den)`, random instances and seeded runner ([`pandora`]).
// Each test file uses some of these.
#![allow(dead_code)]
use pbgi_reference::Float;
use rug::float::Round;

pub mod pandora;

/// `v` rounded toward −∞ at `prec` bits.
pub fn down<T>(prec: u32, v: T) -> Float
where
    Float: rug::ops::AssignRound<T, Round = Round, Ordering = std::cmp::Ordering>,
{
    Float::with_val_round(prec, v, Round::Down).0
}

/// `v` rounded toward +∞ at `prec` bits.
pub fn up<T>(prec: u32, v: T) -> Float
where
    Float: rug::ops::AssignRound<T, Round = Round, Ordering = std::cmp::Ordering>,
{
    Float::with_val_round(prec, v, Round::Up).0
}
