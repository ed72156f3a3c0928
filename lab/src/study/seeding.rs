//! Independent, reproducible random streams for every part of every run, derived from the
//! master seed and the run's coordinates, so results do not depend on scheduling or on which
//! other runs, acquisitions or rules are present.
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 64-bit FNV-1a of a label, so streams can be keyed by names (stable across versions).
pub fn label(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

/// A ChaCha8 generator keyed by `master` and the path `parts` (e.g. `[seed index, label("TS")]`).
pub fn stream(master: u64, parts: &[u64]) -> ChaCha8Rng {
    let key = parts.iter().fold(mix(master), |h, &p| mix(h ^ mix(p)));
    ChaCha8Rng::seed_from_u64(key)
}
