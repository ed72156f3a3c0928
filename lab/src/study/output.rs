//! Writing a study's result files: every file is written whole or not at all (a temporary file
//! in the same directory, then a rename), and the directory is checked for writability before
//! any simulation starts, so a long run never ends in a lost result.
use std::path::Path;

/// Creates `dir` if needed and proves it writable by creating and removing a probe file.
pub fn prepare_output_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create output directory {}: {e}", dir.display()))?;
    let probe = dir.join(".pbgi-write-probe");
    std::fs::write(&probe, b"")
        .map_err(|e| format!("output directory {} is not writable: {e}", dir.display()))?;
    std::fs::remove_file(&probe)
        .map_err(|e| format!("output directory {} is not writable: {e}", dir.display()))
}

/// Writes `path` via a temporary file and a rename, so no file is ever left half-written.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, contents).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes each `(name, contents)` into `dir` atomically, in order.
pub fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    for (name, contents) in files {
        write_atomic(&dir.join(name), contents)?;
    }
    Ok(())
}

/// A CSV document from a header and rows (the `csv` crate's quoting).
pub fn csv_document(header: &[&str], rows: &[Vec<String>]) -> Result<Vec<u8>, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| format!("cannot format CSV: {e}");
    w.write_record(header).map_err(err)?;
    for row in rows {
        w.write_record(row).map_err(err)?;
    }
    w.into_inner()
        .map_err(|e| format!("cannot format CSV: {e}"))
}

/// Reads a CSV file written by [`csv_document`]: the header (checked against `header`) and
/// the rows. Errors name the file and line.
pub fn read_csv(path: &Path, header: &[&str]) -> Result<Vec<csv::StringRecord>, String> {
    let mut r =
        csv::Reader::from_path(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let found = r
        .headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    if found.iter().ne(header.iter().copied()) {
        return Err(format!(
            "{}: unexpected header (expected {})",
            path.display(),
            header.join(",")
        ));
    }
    r.records()
        .map(|rec| rec.map_err(|e| format!("{}: {e}", path.display())))
        .collect()
}

/// Field `i` of a record parsed as `T`; errors name the file, line and column.
pub fn field<T: std::str::FromStr>(
    path: &Path,
    record: &csv::StringRecord,
    header: &[&str],
    i: usize,
) -> Result<T, String> {
    let text = record.get(i).unwrap_or("");
    text.parse().map_err(|_| {
        let line = record.position().map_or(0, |p| p.line());
        format!(
            "{}: line {line}, column `{}`: cannot read `{text}`",
            path.display(),
            header[i]
        )
    })
}
