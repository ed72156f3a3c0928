//! Property-based fuzzing of the CSV reader of `pbgi eval` / `pbgi check`
//! (`pbgi_conformance::csv_io::ArgumentReader`) and of `eval`'s whole stream: arbitrary bytes,
//! valid files with structure-aware mutations, and generated files read back exactly.
//!
//! Properties: no input makes it panic; every outcome is rows or an error naming a line that
//! exists in the input; the output of `eval` is always whole lines; and a well-formed file (any
//! column order, quoting, CRLF, comments, blank lines, byte-order mark, number spellings) reads
//! back to exactly the values and pass-through fields written. Seeds are printed
//! (`PBGI_PROPTEST_SEED` replays one); `PBGI_FUZZ_CASES` scales the case counts.
mod common;

use pbgi_cli::eval::{appended_columns, eval_stream, BATCH};
use pbgi_conformance::csv_io::{format_shortest, ArgumentReader, Fields, InputError};
use pbgi_conformance::decimal::{self, DIGITS};
use pbgi_conformance::function::Function;
use pbgi_conformance::oracle::{self, fast_has, Engine};
use proptest::prelude::*;

/// `default` cases, or `default × PBGI_FUZZ_CASES / 100` (a percentage) when set.
fn cases(default: u32) -> u32 {
    let percent = std::env::var("PBGI_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(100);
    (default * percent / 100).max(1)
}

const FUNCTIONS: [Function; Function::ALL.len()] = Function::ALL;

/// Number of lines an editor shows for `bytes` (a last line without `\n` counts).
fn line_count(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

/// Reads every row of `bytes` as `function`'s input (with a `value` column when `extras`);
/// returns the number of rows, or the error. Panics only if the reader panics.
fn read_all(bytes: &[u8], function: Function, extras: bool) -> Result<usize, InputError> {
    let extra: &[&'static str] = if extras { &["value"] } else { &[] };
    let mut reader = ArgumentReader::new(bytes, function, extra, &["lower"])?;
    let mut rows = 0;
    while let Some(row) = reader.next_row()? {
        assert_eq!(row.args.len(), function.input_columns().len());
        assert!(
            function.check_domain(&row.args).is_ok(),
            "a row outside the domain was accepted: {row:?}"
        );
        assert_eq!(reader.record().len(), reader.headers().len());
        rows += 1;
    }
    Ok(rows)
}

/// The error names a line of the input, and its message says so first.
fn assert_names_a_place(error: &InputError, bytes: &[u8]) {
    assert!(
        error.line >= 1 && error.line <= line_count(bytes),
        "line {} of a {}-line input: {error}",
        error.line,
        line_count(bytes)
    );
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("line {}", error.line)),
        "{message}"
    );
    assert!(!error.reason.is_empty());
}

/// `eval` on `bytes` through the fast engine (the reference for a function pbgi-fast does not
/// have): never panics, writes whole lines, and an error names a line.
fn assert_eval_stream_is_sound(bytes: &[u8], function: Function) {
    let engine = if fast_has(function) {
        Engine::Fast
    } else {
        Engine::Reference
    };
    let mut output = Vec::new();
    let outcome = eval_stream(function, engine, bytes, &mut output);
    assert!(
        output.is_empty() || output.ends_with(b"\n"),
        "a row written in part: {:?}",
        String::from_utf8_lossy(&output)
    );
    if let Err(error) = outcome {
        let message = error.to_string();
        let line: u64 = message
            .strip_prefix("line ")
            .and_then(|rest| rest.split([':', ',']).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("the error names no line: {message}"));
        assert!(line >= 1 && line <= line_count(bytes), "{message}");
    }
}

/// Reads `bytes` with [`ArgumentReader::next_row`] and, beside it, with
/// [`ArgumentReader::next_row_into`] (the reader of `pbgi eval`, which leaves plain records
/// unsplit): the same rows, lines, values and errors, and the same fields — a plain record's
/// pieces between commas are the split record's fields.
fn assert_row_readers_agree(bytes: &[u8], function: Function, extras: bool) {
    let extra: &[&'static str] = if extras { &["value"] } else { &[] };
    let (general, plain) = (
        ArgumentReader::new(bytes, function, extra, &["lower"]),
        ArgumentReader::new(bytes, function, extra, &["lower"]),
    );
    let (mut general, mut plain) = match (general, plain) {
        (Ok(g), Ok(p)) => (g, p),
        (Err(g), Err(p)) => return assert_eq!(g, p),
        _ => panic!("one header read failed, the other not"),
    };
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let (mut args, mut extra_values) = (vec![f64::NAN; 2], vec![f64::NAN]);
    loop {
        match (
            general.next_row(),
            plain.next_row_into(&mut args, &mut extra_values),
        ) {
            (Ok(Some(row)), Ok(Some(line))) => {
                assert_eq!(row.line, line);
                assert_eq!(bits(&row.args), bits(&args));
                assert_eq!(bits(&row.extras), bits(&extra_values));
                match plain.fields() {
                    Fields::Plain(text) => {
                        let pieces: Vec<&[u8]> = text.split(|&b| b == b',').collect();
                        let fields: Vec<&[u8]> =
                            general.record().iter().map(|f| f.as_bytes()).collect();
                        assert_eq!(pieces, fields);
                        assert!(text.is_ascii() && !text.contains(&b'"') && !text.contains(&b'\r'));
                    }
                    Fields::Split(fields) => assert_eq!(fields, general.record()),
                }
            }
            (Ok(None), Ok(None)) => return,
            (Err(g), Err(p)) => return assert_eq!(g, p),
            (g, p) => panic!("the readers disagree: {g:?} against {p:?}"),
        }
    }
}

/// `pbgi eval` as it was written before its rows were written as bytes: rows read with
/// [`ArgumentReader::next_row`] and [`ArgumentReader::record`], the fields of each row formed as
/// strings ([`format_shortest`], [`decimal::lower`], [`decimal::upper`]) and written with the
/// `csv` crate's writer. Kept as the oracle of [`eval_stream`]'s bytes and errors.
fn eval_stream_by_strings(
    function: Function,
    engine: Engine,
    input: &[u8],
    output: &mut Vec<u8>,
) -> Result<u64, String> {
    let appended = appended_columns(function, engine);
    let reserved: Vec<&str> = appended.iter().map(String::as_str).collect();
    let mut reader =
        ArgumentReader::new(input, function, &[], &reserved).map_err(|e| e.to_string())?;
    let mut writer = csv::WriterBuilder::new().from_writer(output);
    let header = reader
        .headers()
        .iter()
        .map(String::as_str)
        .chain(reserved.iter().copied());
    writer.write_record(header).unwrap();
    let mut rows = 0u64;
    loop {
        let mut batch = Vec::new();
        let mut failure = None;
        while batch.len() < BATCH {
            match reader.next_row() {
                Ok(Some(row)) => batch.push((row.line, row.args, reader.record().to_vec())),
                Ok(None) => break,
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            }
        }
        let count = batch.len();
        let mut evaluation_failure = None;
        for (line, args, record) in batch {
            let fields: Result<Vec<String>, (Option<String>, String)> = match engine {
                Engine::Reference => oracle::reference_all(function, &args)
                    .map(|results| {
                        results
                            .iter()
                            .flat_map(|c| {
                                [
                                    format_shortest(c.value),
                                    decimal::lower(c, DIGITS),
                                    decimal::upper(c, DIGITS),
                                ]
                            })
                            .collect()
                    })
                    .map_err(|e| {
                        (
                            e.argument().map(|a| a.name.to_string()),
                            e.message().to_string(),
                        )
                    }),
                Engine::Fast => oracle::fast_checked(function, &args)
                    .map(|values| values.into_iter().map(format_shortest).collect())
                    .map_err(|e| {
                        (
                            e.argument().map(|a| a.name.to_string()),
                            e.message().to_string(),
                        )
                    }),
            };
            match fields {
                Ok(fields) => {
                    writer.write_record(record.iter().chain(&fields)).unwrap();
                    rows += 1;
                }
                Err((column, reason)) => {
                    evaluation_failure = Some(InputError {
                        line,
                        column,
                        reason,
                    });
                    break;
                }
            }
        }
        if let Some(error) = evaluation_failure.or(failure) {
            writer.flush().unwrap();
            return Err(format!(
                "{error} ({rows} row{} before it written)",
                if rows == 1 { "" } else { "s" }
            ));
        }
        if count < BATCH {
            break;
        }
    }
    writer.flush().unwrap();
    Ok(rows)
}

/// [`eval_stream`] writes the bytes and gives the error [`eval_stream_by_strings`] does, with
/// the reference engine for EI (the 40-digit bounds) and the fast engine otherwise.
fn assert_eval_is_eval_by_strings(bytes: &[u8], function: Function) {
    let engine = if fast_has(function) && function != Function::Ei {
        Engine::Fast
    } else {
        Engine::Reference
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let outcome = eval_stream(function, engine, bytes, &mut ours).map_err(|e| e.to_string());
    let expected = eval_stream_by_strings(function, engine, bytes, &mut theirs);
    assert_eq!(outcome, expected, "{:?}", String::from_utf8_lossy(bytes));
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs),
        "{:?}",
        String::from_utf8_lossy(bytes)
    );
    assert_eq!(ours, theirs);
    // The same when the input arrives a few bytes at a time (records cross the reads).
    for size in [1, 2, 7] {
        let mut pieces_out = Vec::new();
        let pieces = std::io::BufReader::with_capacity(3, Pieces { bytes, size });
        let outcome =
            eval_stream(function, engine, pieces, &mut pieces_out).map_err(|e| e.to_string());
        assert_eq!(outcome, expected, "{:?}", String::from_utf8_lossy(bytes));
        assert_eq!(pieces_out, theirs);
    }
}

/// An input that hands out at most `size` bytes per read.
struct Pieces<'a> {
    bytes: &'a [u8],
    size: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.size.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fn function_strategy() -> impl Strategy<Value = Function> {
    (0..FUNCTIONS.len()).prop_map(|i| FUNCTIONS[i])
}

/// Bytes that matter to a CSV reader, weighted towards them.
fn csv_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(b",\"\n\r# 0123456789.eE-+infa\xef\xbb\xbf\xff\t".to_vec()),
        1 => any::<u8>(),
    ]
}

/// A valid file for `function`: a header (columns shuffled, a pass-through column) and rows.
fn valid_file(function: Function) -> impl Strategy<Value = Vec<u8>> {
    let inputs = function.input_columns().len();
    (
        Just(function),
        prop::collection::vec(prop::collection::vec(0.0f64..1e3, inputs + 1), 0..6),
        any::<u64>(),
    )
        .prop_map(move |(function, rows, shuffle)| {
            let mut columns: Vec<String> = function
                .input_columns()
                .iter()
                .map(|c| c.to_string())
                .collect();
            columns.push("value".to_string());
            columns.push("note".to_string());
            let rotate = (shuffle % columns.len() as u64) as usize;
            columns.rotate_left(rotate);
            let mut text = columns.join(",");
            text.push('\n');
            for row in rows {
                let fields: Vec<String> = columns
                    .iter()
                    .map(
                        |c| match function.input_columns().iter().position(|n| n == c) {
                            Some(i) => format_shortest(row[i]),
                            None if c == "value" => format_shortest(row[inputs]),
                            None => "\"a, b\"".to_string(),
                        },
                    )
                    .collect();
                text.push_str(&fields.join(","));
                text.push('\n');
            }
            text.into_bytes()
        })
}

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Mutation {
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Replace(usize, u8),
    DuplicateLine(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let token = prop_oneof![
        prop::sample::select(vec![
            b"\"".to_vec(),
            b",".to_vec(),
            b"\n".to_vec(),
            b"\r\n".to_vec(),
            b"#".to_vec(),
            b"  # note\n".to_vec(),
            b"\xef\xbb\xbf".to_vec(),
            b"\xff\xfe".to_vec(),
            b"1e400".to_vec(),
            b"1e-400".to_vec(),
            b"nan".to_vec(),
            b"-inf".to_vec(),
            b"-0".to_vec(),
            b"5e-324".to_vec(),
            b"1.7976931348623157e308".to_vec(),
            b"\"\"".to_vec(),
            b"mu".to_vec(),
            b"value".to_vec(),
        ]),
        prop::collection::vec(csv_byte(), 1..8),
    ];
    prop_oneof![
        3 => (any::<usize>(), token).prop_map(|(at, t)| Mutation::Insert(at, t)),
        2 => (any::<usize>(), 1usize..6).prop_map(|(at, n)| Mutation::Delete(at, n)),
        2 => (any::<usize>(), csv_byte()).prop_map(|(at, b)| Mutation::Replace(at, b)),
        1 => any::<usize>().prop_map(Mutation::DuplicateLine),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let n = bytes.len();
    match mutation {
        Mutation::Insert(at, token) => {
            let at = at % (n + 1);
            bytes.splice(at..at, token.iter().copied());
        }
        Mutation::Delete(at, len) if n > 0 => {
            let at = at % n;
            bytes.drain(at..(at + len).min(n));
        }
        Mutation::Replace(at, byte) if n > 0 => bytes[at % n] = *byte,
        Mutation::DuplicateLine(which) => {
            let lines: Vec<Vec<u8>> = bytes
                .split_inclusive(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .collect();
            if !lines.is_empty() {
                let i = which % lines.len();
                let mut out = Vec::with_capacity(n * 2);
                for (j, line) in lines.iter().enumerate() {
                    out.extend_from_slice(line);
                    if j == i {
                        out.extend_from_slice(line);
                    }
                }
                *bytes = out;
            }
        }
        Mutation::Truncate(at) => bytes.truncate(at % (n + 1)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(common::config(cases(3000)))]

    #[test]
    fn arbitrary_bytes_give_rows_or_an_error_naming_a_line(
        bytes in prop::collection::vec(csv_byte(), 0..300),
        function in function_strategy(),
        extras in any::<bool>(),
    ) {
        if let Err(error) = read_all(&bytes, function, extras) {
            assert_names_a_place(&error, &bytes);
        }
        assert_row_readers_agree(&bytes, function, extras);
        assert_eval_is_eval_by_strings(&bytes, function);
    }
}

proptest! {
    #![proptest_config(common::config(cases(3000)))]

    #[test]
    fn mutated_files_give_rows_or_an_error_naming_a_line(
        (function, file) in function_strategy().prop_flat_map(|f| (Just(f), valid_file(f))),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let mut bytes = file;
        for m in &mutations {
            apply(&mut bytes, m);
        }
        if let Err(error) = read_all(&bytes, function, true) {
            assert_names_a_place(&error, &bytes);
        }
        assert_eval_stream_is_sound(&bytes, function);
        assert_row_readers_agree(&bytes, function, true);
        assert_eval_is_eval_by_strings(&bytes, function);
    }
}

/// A field spelled the ways a writer might: shortest, scientific, fixed, padded, `+`-signed.
fn spelled(x: f64, style: u8) -> String {
    match style % 5 {
        0 => format_shortest(x),
        1 => format!("{x:e}"),
        2 => format!("{x:E}"),
        3 => format!("  {}\t", format_shortest(x)),
        _ if x.is_sign_positive() => format!("+{x:e}"),
        _ => format!("{x:e}"),
    }
}

/// Text of a pass-through field, quoted as RFC 4180 asks when needed.
fn quoted(text: &str) -> String {
    pbgi_conformance::csv_io::quote_field(text)
}

#[derive(Clone, Debug)]
struct GeneratedFile {
    bytes: Vec<u8>,
    /// (line, arguments in input-column order, pass-through field) per data row.
    rows: Vec<(u64, Vec<f64>, String)>,
}

/// A well-formed file with known content: shuffled columns, a pass-through column with commas,
/// quotes and line breaks, CRLF or LF, comment and blank lines, an optional byte-order mark.
fn generated_file(function: Function) -> impl Strategy<Value = GeneratedFile> {
    let inputs = function.input_columns().len();
    let finite = prop_oneof![
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        -1e3f64..1e3,
        Just(0.0),
        Just(-0.0),
        Just(5e-324),
    ];
    let row = (
        prop::collection::vec(finite, inputs),
        "[a-z ,\"\n]{0,8}",
        any::<u8>(),
        0u8..4,
    );
    (
        Just(function),
        prop::collection::vec(row, 0..8),
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(move |(function, rows, crlf, bom, shuffle)| {
            let end = if crlf { "\r\n" } else { "\n" };
            let mut columns: Vec<&str> = function.input_columns().to_vec();
            columns.push("note");
            let rotate = (shuffle % columns.len() as u64) as usize;
            columns.rotate_left(rotate);
            let mut text = String::new();
            if bom {
                text.push('\u{feff}');
            }
            text.push_str("# generated");
            text.push_str(end);
            text.push_str(&columns.join(","));
            text.push_str(end);
            let mut line = 3u64;
            let mut expected = Vec::new();
            for (mut args, note, style, extra) in rows {
                // Arguments in the domain: sigma >= 0, cost > 0.
                for (i, name) in function.input_columns().iter().enumerate() {
                    match *name {
                        "sigma" => args[i] = args[i].abs(),
                        "cost" if args[i] == 0.0 => args[i] = 1.0,
                        "cost" => args[i] = args[i].abs(),
                        _ => {}
                    }
                }
                match extra {
                    1 => {
                        text.push_str(end);
                        line += 1;
                    }
                    2 => {
                        text.push_str("   # note \"with an odd quote");
                        text.push_str(end);
                        line += 1;
                    }
                    _ => {}
                }
                let fields: Vec<String> = columns
                    .iter()
                    .map(
                        |c| match function.input_columns().iter().position(|n| n == c) {
                            Some(i) => spelled(args[i], style),
                            None => quoted(&note),
                        },
                    )
                    .collect();
                expected.push((line, args.clone(), note.clone()));
                text.push_str(&fields.join(","));
                text.push_str(end);
                line += 1 + note.matches('\n').count() as u64;
            }
            GeneratedFile {
                bytes: text.into_bytes(),
                rows: expected,
            }
        })
}

proptest! {
    #![proptest_config(common::config(cases(1000)))]

    #[test]
    fn well_formed_files_read_back_exactly(
        (function, file) in function_strategy().prop_flat_map(|f| (Just(f), generated_file(f))),
    ) {
        let mut reader = ArgumentReader::new(&file.bytes[..], function, &[], &[])
            .unwrap_or_else(|e| panic!("{e}"));
        let note = reader.headers().iter().position(|h| h == "note").unwrap();
        for (line, args, text) in &file.rows {
            let row = reader.next_row().unwrap_or_else(|e| panic!("{e}")).expect("a row");
            prop_assert_eq!(row.line, *line);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&row.args), bits(args));
            prop_assert_eq!(&reader.record()[note], text);
        }
        prop_assert_eq!(reader.next_row().unwrap(), None);
        assert_row_readers_agree(&file.bytes, function, false);
        assert_eval_is_eval_by_strings(&file.bytes, function);
    }
}
