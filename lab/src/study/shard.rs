//! Splitting a study across machines: `--shard K/N` runs the K-th of N deterministic slices of
//! the samples, and `pbgi merge` puts the slices back together.
//!
//! Sample `i` (0-based) belongs to shard `K` iff `i mod N = K − 1`, so every shard gets the same
//! mix of early and late samples. Each sample's results depend on the master seed and the
//! sample index only (`seeding.rs`), never on which other samples run, so the union of the
//! shards' raw results equals the unsplit run's, and the merged reports are byte-identical.
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The `K`-th of `N` slices (`1 ≤ K ≤ N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// `K`, 1-based.
    pub index: usize,
    /// `N`.
    pub count: usize,
}

impl Shard {
    /// The whole study as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether sample `i` (0-based) belongs to this slice.
    pub fn contains(&self, sample: usize) -> bool {
        sample % self.count == self.index - 1
    }

    /// The samples of `0..samples` in this slice, in order.
    pub fn samples(&self, samples: usize) -> Vec<usize> {
        (0..samples).filter(|&i| self.contains(i)).collect()
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with `1 ≤ K ≤ N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard `{text}`: expected K/N with 1 ≤ K ≤ N, e.g. 3/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Which study a directory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StudyKind {
    /// `pbgi validate`.
    Validate,
    /// `pbgi experiment`.
    Experiment,
}

/// `shard.toml`, written into every shard's output directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Which study.
    pub study: StudyKind,
    /// `K/N`.
    pub shard: String,
}

/// Name of the manifest file in a shard directory.
pub const MANIFEST: &str = "shard.toml";

/// The files of one shard's output directory: its raw results (`raw`, what `pbgi merge` reads
/// back), then `config.toml` (`config_text`, the configuration in effect) and the manifest.
pub fn shard_directory(
    study: StudyKind,
    shard: Shard,
    raw: crate::study::output::Files,
    config_text: String,
) -> Result<crate::study::output::Files, String> {
    let manifest = Manifest {
        study,
        shard: shard.to_string(),
    };
    let mut files = raw;
    files.push(("config.toml".to_string(), config_text.into_bytes()));
    files.push((
        MANIFEST.to_string(),
        crate::study::config::to_toml(&manifest)?.into_bytes(),
    ));
    Ok(files)
}

/// The raw results of shard directories `dirs` (already checked to be one complete split with
/// one configuration), each read by `read`, in the order of `key`: the unsplit run's order
/// when `key` is the position of a result in it. Whether every result is there once is the
/// caller's check.
pub fn read_shards<T, K: Ord>(
    dirs: &[&std::path::Path],
    read: impl Fn(&std::path::Path) -> Result<Vec<T>, String>,
    key: impl Fn(&T) -> K,
) -> Result<Vec<T>, String> {
    let mut results = Vec::new();
    for dir in dirs {
        results.extend(read(dir)?);
    }
    results.sort_by_key(key);
    Ok(results)
}

/// Checks that `shards` are `1/N, …, N/N` for one `N`, each exactly once; errors name the
/// directory at fault.
pub fn check_complete(shards: &[(String, Shard)]) -> Result<usize, String> {
    let (n, missing) = split_coverage(shards)?;
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|k| format!("{k}/{n}")).collect();
        return Err(format!("missing shards: {}", names.join(", ")));
    }
    Ok(n)
}

/// Checks that `shards` come from one split into `N` parts, each part at most once (errors
/// name the directory at fault); returns `N` and the parts missing (`K` of `K/N`, ascending).
/// `pbgi merge --partial` accepts a set with parts missing.
pub fn split_coverage(shards: &[(String, Shard)]) -> Result<(usize, Vec<usize>), String> {
    let Some((_, first)) = shards.first() else {
        return Err("no shard directories given".into());
    };
    let n = first.count;
    let mut seen: Vec<Option<&str>> = vec![None; n];
    for (dir, shard) in shards {
        if shard.count != n {
            return Err(format!(
                "{dir}: shard {shard} is from a split into {} parts, the first directory's into {n}",
                shard.count
            ));
        }
        if let Some(other) = seen[shard.index - 1].replace(dir) {
            return Err(format!("{dir}: shard {shard} is also in {other}"));
        }
    }
    let missing = (1..=n).filter(|&k| seen[k - 1].is_none()).collect();
    Ok((n, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_samples() {
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k, count: 3 }).collect();
        let mut all: Vec<usize> = shards.iter().flat_map(|s| s.samples(10)).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!("2/3".parse::<Shard>().unwrap(), shards[1]);
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let named = |k| (format!("d{k}"), Shard { index: k, count: 3 });
        assert_eq!(check_complete(&[named(2), named(1), named(3)]), Ok(3));
        assert!(check_complete(&[named(1), named(3)])
            .unwrap_err()
            .contains("2/3"));
        assert!(check_complete(&[named(1), named(1), named(2), named(3)])
            .unwrap_err()
            .contains("also in"));
        assert_eq!(split_coverage(&[named(3), named(1)]), Ok((3, vec![2])));
        assert!(split_coverage(&[named(1), named(1)])
            .unwrap_err()
            .contains("also in"));
    }
}
