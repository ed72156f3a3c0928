//! The one rule for where a command may write (`check --rows`, `--out` of `validate`,
//! `experiment` and `merge`), checked before any work starts:
//!
//! - an output file is a new path or an existing **regular file**: never a directory, a device
//!   (`/dev/full`, `/dev/null`), a FIFO, a socket or a symbolic link (whose target a rename
//!   would not reach, and whose replacement would surprise);
//! - an output directory is a new path or an existing directory (not a symbolic link);
//! - neither is one of the same command's **inputs** (the same file or directory, however it is
//!   spelled: compared by device and inode);
//!
//! and the output is then written whole ([`crate::io::AtomicFile`], [`crate::publish`]).
use std::path::Path;

/// What is at `path`, in words, when it is not a regular file or a directory.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Whether `a` and `b` name the same existing file or directory.
fn same_entry(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                a.dev() == b.dev() && a.ino() == b.ino()
            }
            #[cfg(not(unix))]
            {
                let _ = (a, b);
                false
            }
        }
        _ => false,
    }
}

/// Refuses `path` when it is one of `inputs`.
fn not_an_input(flag: &str, path: &Path, inputs: &[&Path]) -> Result<(), String> {
    match inputs.iter().find(|input| same_entry(path, input)) {
        Some(input) => Err(format!(
            "{flag} {}: is also an input of this command ({}); give another path",
            path.display(),
            input.display()
        )),
        None => Ok(()),
    }
}

/// Checks an output file: a new path or an existing regular file, and none of `inputs`.
pub fn check_output_file(flag: &str, path: &Path, inputs: &[&Path]) -> Result<(), String> {
    if let Ok(metadata) = std::fs::symlink_metadata(path) {
        if !metadata.file_type().is_file() {
            return Err(format!(
                "{flag} {}: is {}; {flag} writes a regular file (give a new path or a regular \
                 file, which is replaced whole)",
                path.display(),
                kind_of(&metadata)
            ));
        }
    }
    not_an_input(flag, path, inputs)
}

/// Checks an output directory: a new path or an existing directory, and none of `inputs`.
pub fn check_output_dir(flag: &str, dir: &Path, inputs: &[&Path]) -> Result<(), String> {
    if let Ok(metadata) = std::fs::symlink_metadata(dir) {
        if !metadata.file_type().is_dir() {
            return Err(format!(
                "{flag} {}: is {}; {flag} names a directory (a new path or an existing \
                 directory, whose files are replaced whole)",
                dir.display(),
                kind_of(&metadata)
            ));
        }
    }
    not_an_input(flag, dir, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("pbgi-output-paths-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn new_paths_and_regular_files_are_outputs_other_kinds_are_not() {
        let dir = scratch("kinds");
        let file = dir.join("rows.csv");
        assert!(check_output_file("--rows", &file, &[]).is_ok());
        std::fs::write(&file, "old").unwrap();
        assert!(check_output_file("--rows", &file, &[]).is_ok());
        let e = check_output_file("--rows", &dir, &[]).unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
        #[cfg(unix)]
        {
            let link = dir.join("link.csv");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            let e = check_output_file("--rows", &link, &[]).unwrap_err();
            assert!(e.contains("is a symbolic link"), "{e}");
            let e = check_output_dir("--out", &link, &[]).unwrap_err();
            assert!(e.contains("is a symbolic link"), "{e}");
            let e = check_output_file("--rows", Path::new("/dev/null"), &[]).unwrap_err();
            assert!(e.contains("is a device"), "{e}");
        }
        let e = check_output_dir("--out", &file, &[]).unwrap_err();
        assert!(e.contains("is a regular file"), "{e}");
        assert!(check_output_dir("--out", &dir, &[]).is_ok());
    }

    #[test]
    fn an_input_is_never_an_output_however_it_is_spelled() {
        let dir = scratch("inputs");
        let file = dir.join("theirs.csv");
        std::fs::write(&file, "x").unwrap();
        let spelled = dir.join(".").join("theirs.csv");
        let e = check_output_file("--rows", &spelled, &[&file]).unwrap_err();
        assert!(e.contains("is also an input of this command"), "{e}");
        let e = check_output_dir("--out", &dir.join("."), &[&dir]).unwrap_err();
        assert!(e.contains("is also an input of this command"), "{e}");
    }
}
