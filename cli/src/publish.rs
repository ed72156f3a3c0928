//! A study's output directory is replaced whole, never file by file: the run's files go into a
//! fresh hidden sibling directory (`.NAME.tmp-PID`, made before the work starts, so that an
//! unwritable place is found at once), are synced to disk, and then take the old directory's
//! place by two renames. A reader, or a run killed at any moment, sees the old directory or the
//! new one (or, between the renames, neither), never a mix of two runs; what a killed run leaves
//! is a hidden sibling, removed by the next run once its process is gone.
//!
//! An existing directory is replaced only when it holds nothing but what a `pbgi` run writes
//! ([`written_by_pbgi`]); anything else in it (another file, a subdirectory) stops the command
//! before the work, so that nothing of the user's is lost.
use pbgi_lab::study::output::Files;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether `name`, in an output directory, is a file some `pbgi validate`, `experiment` or
/// `merge` run writes (or a hidden leftover of an atomic write).
pub fn written_by_pbgi(name: &str) -> bool {
    const NAMES: [&str; 16] = [
        "runs.csv",
        "variants.svg",
        "statistic.csv",
        "rule_timings.csv",
        "rule_timings.md",
        "rule_timings.svg",
        "summary.txt",
        "trajectories.csv",
        "summary.csv",
        "curves.csv",
        "comparison.md",
        "config.toml",
        "validate.md",
        "validate.csv",
        "cost_distribution.svg",
        pbgi_lab::study::shard::MANIFEST,
    ];
    NAMES.contains(&name)
        || (name.starts_with("regret_") && name.ends_with(".svg"))
        || (name.starts_with("statistic_") && name.ends_with(".svg"))
        || (name.starts_with('.') && name.contains(".tmp-"))
}

/// A run's output directory in preparation (module docs).
pub struct Staging {
    target: PathBuf,
    staging: PathBuf,
    published: bool,
}

/// `dir/../.NAME.KIND-PID`.
fn sibling(dir: &Path, kind: &str, pid: u32) -> PathBuf {
    let name = dir
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    dir.with_file_name(format!(".{name}.{kind}-{pid}"))
}

/// Removes the hidden siblings of `dir` left by runs whose process is gone (Linux: no
/// `/proc/PID`); elsewhere leaves them.
fn remove_stale_siblings(dir: &Path) {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let name = name.to_string_lossy();
    for entry in entries.flatten() {
        let entry_name = entry.file_name().to_string_lossy().into_owned();
        for kind in ["tmp", "old"] {
            let prefix = format!(".{name}.{kind}-");
            if let Some(pid) = entry_name.strip_prefix(&prefix) {
                if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
    }
}

impl Staging {
    /// Checks that `dir` may be replaced (module docs) and makes the staging directory beside
    /// it (creating the parents).
    pub fn prepare(dir: &Path) -> Result<Staging, String> {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries {
                let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let regular = entry.file_type().map(|t| t.is_file()).unwrap_or(false);
                if !(regular && written_by_pbgi(&name)) {
                    return Err(format!(
                        "--out {}: holds {name}, which no pbgi run writes; the output directory \
                         is replaced whole, so give a new or empty directory, or one a pbgi run \
                         wrote",
                        dir.display()
                    ));
                }
            }
        }
        remove_stale_siblings(dir);
        let staging = sibling(dir, "tmp", std::process::id());
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging).map_err(|e| {
            format!(
                "cannot create the output directory {}: {e}",
                staging.display()
            )
        })?;
        Ok(Staging {
            target: dir.to_path_buf(),
            staging,
            published: false,
        })
    }

    /// Writes `files` into the staging directory, syncs them, and swaps it in for the target.
    pub fn publish(mut self, files: &Files) -> Result<(), String> {
        let write_error =
            |path: &Path, e: std::io::Error| format!("cannot write {}: {e}", path.display());
        for (name, contents) in files {
            let path = self.staging.join(name);
            let mut file = std::fs::File::create(&path).map_err(|e| write_error(&path, e))?;
            file.write_all(contents)
                .and_then(|()| file.sync_all())
                .map_err(|e| write_error(&path, e))?;
        }
        let target = &self.target;
        let swap_error = |e: std::io::Error| format!("cannot replace {}: {e}", target.display());
        let old = sibling(target, "old", std::process::id());
        let had_old = match std::fs::rename(target, &old) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(swap_error(e)),
        };
        if let Err(e) = std::fs::rename(&self.staging, target) {
            if had_old {
                let _ = std::fs::rename(&old, target);
            }
            return Err(swap_error(e));
        }
        self.published = true;
        if had_old {
            std::fs::remove_dir_all(&old)
                .map_err(|e| format!("cannot remove the previous output {}: {e}", old.display()))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pbgi-publish-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_new_run_replaces_the_old_directory_whole_and_leaves_nothing_beside_it() {
        let root = scratch("whole");
        let out = root.join("validate");
        let first: Files = vec![
            ("runs.csv".into(), b"old runs".to_vec()),
            ("shard.toml".into(), b"old manifest".to_vec()),
        ];
        Staging::prepare(&out).unwrap().publish(&first).unwrap();
        assert_eq!(names(&out), ["runs.csv", "shard.toml"]);
        let second: Files = vec![
            ("runs.csv".into(), b"new runs".to_vec()),
            ("validate.md".into(), b"new".to_vec()),
        ];
        Staging::prepare(&out).unwrap().publish(&second).unwrap();
        // The old run's manifest is gone with its directory: no mix of two runs.
        assert_eq!(names(&out), ["runs.csv", "validate.md"]);
        assert_eq!(std::fs::read(out.join("runs.csv")).unwrap(), b"new runs");
        assert_eq!(names(&root), ["validate"]);
    }

    #[test]
    fn an_unfinished_run_leaves_the_old_directory_untouched() {
        let root = scratch("unfinished");
        let out = root.join("experiment");
        let first: Files = vec![("runs.csv".into(), b"old".to_vec())];
        Staging::prepare(&out).unwrap().publish(&first).unwrap();
        drop(Staging::prepare(&out).unwrap());
        assert_eq!(names(&out), ["runs.csv"]);
        assert_eq!(names(&root), ["experiment"]);
        // A staging directory of a process that is gone (a killed run) is removed by the next.
        if Path::new("/proc/self").exists() {
            let stale = root.join(".experiment.tmp-4294967295");
            std::fs::create_dir_all(&stale).unwrap();
            std::fs::write(stale.join("runs.csv"), b"half").unwrap();
            Staging::prepare(&out).unwrap().publish(&first).unwrap();
            assert_eq!(names(&root), ["experiment"]);
        }
    }

    #[test]
    fn a_directory_with_files_of_its_own_is_not_replaced() {
        let root = scratch("foreign");
        let out = root.join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("notes.txt"), b"mine").unwrap();
        let e = Staging::prepare(&out).err().unwrap();
        assert!(
            e.contains("holds notes.txt, which no pbgi run writes"),
            "{e}"
        );
        std::fs::remove_file(out.join("notes.txt")).unwrap();
        std::fs::create_dir_all(out.join("runs.csv")).unwrap();
        assert!(
            Staging::prepare(&out).is_err(),
            "a directory named like a result file"
        );
        assert_eq!(names(&root), ["out"]);
    }
}
