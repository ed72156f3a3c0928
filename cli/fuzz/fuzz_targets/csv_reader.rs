//! The CSV reader of `pbgi eval` / `pbgi check` on arbitrary bytes: it must return rows or an
//! error naming a line of the input, never panic. The first byte picks the function and whether
//! a `value` column is asked for.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pbgi_conformance::csv_io::ArgumentReader;
use pbgi_conformance::function::Function;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let function = Function::ALL[usize::from(selector) % Function::ALL.len()];
    let extras: &[&'static str] = if selector & 0x80 != 0 {
        &["value"]
    } else {
        &[]
    };
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let outcome =
        ArgumentReader::new(bytes, function, extras, &["lower"]).and_then(|mut reader| {
            while let Some(row) = reader.next_row()? {
                assert!(function.check_domain(&row.args).is_ok());
                assert_eq!(reader.record().len(), reader.headers().len());
            }
            Ok(())
        });
    if let Err(error) = outcome {
        assert!(error.line >= 1 && error.line <= lines, "{error}");
    }
});
