//! The contents of a study's result files: CSV documents made and read back with the `csv`
//! crate (full-precision numbers, so a file read back gives the exact results). Studies return
//! `(file name, bytes)` lists; the command line writes them (each file whole or not at all)
//! after checking the output directory, so the lab itself never touches an output directory.

/// A study's output: `(file name, contents)` in the order the files are written.
pub type Files = Vec<(String, Vec<u8>)>;

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
pub fn read_csv(path: &std::path::Path, header: &[&str]) -> Result<Vec<csv::StringRecord>, String> {
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

/// Reads a CSV file written by [`csv_document`] as consecutive groups of `size` rows (one
/// sample, one run, …); `unit` names a group in the error when the rows do not divide evenly
/// (`"runs of 10 evaluations"`).
pub fn read_csv_groups(
    path: &std::path::Path,
    header: &[&str],
    size: usize,
    unit: &str,
) -> Result<Vec<Vec<csv::StringRecord>>, String> {
    let records = read_csv(path, header)?;
    if records.len() % size != 0 {
        return Err(format!(
            "{}: {} rows is not a whole number of {unit}",
            path.display(),
            records.len()
        ));
    }
    Ok(records.chunks(size).map(<[_]>::to_vec).collect())
}

/// The line of `record` in its file (0 if unknown), for error messages.
pub fn line_of(record: &csv::StringRecord) -> u64 {
    record.position().map_or(0, |p| p.line())
}

/// Field `i` of a record parsed as `T`; errors name the file, line and column.
pub fn field<T: std::str::FromStr>(
    path: &std::path::Path,
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
