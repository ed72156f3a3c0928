//! CSV output rows written as bytes into a reused buffer, as the `csv` crate's writer (with its
//! default settings, which `pbgi eval` used) writes them.
//!
//! That writer separates fields with `,`, ends a record with `\n`, and puts a field in double
//! quotes (each `"` inside doubled) exactly when it contains a comma, a double quote, `\r` or
//! `\n` (`QuoteStyle::Necessary`; `csv_core`'s table of special bytes for the default
//! delimiter, quote and terminator); other fields are written as they are. Its one further
//! rule, that a record consisting of a single empty field is written `""`, never applies here:
//! `pbgi eval` appends at least one column to every row. Tested against the `csv` crate's
//! writer (`tests` below).

/// Whether the `csv` writer puts `field` in quotes.
pub fn needs_quotes(field: &[u8]) -> bool {
    field
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
}

/// Appends `fields` separated by commas, each quoted where the `csv` writer quotes it, without a
/// line end. The caller appends at least one more field before the line end (see the module
/// documentation).
pub fn push_fields<S: AsRef<str>>(out: &mut Vec<u8>, fields: &[S]) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_field(out, field.as_ref().as_bytes());
    }
}

/// Appends one field, quoted where the `csv` writer quotes it.
fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    if !needs_quotes(field) {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The `csv` crate's writer with its default settings, as `pbgi eval` used it.
    fn by_csv_writer(fields: &[String]) -> Vec<u8> {
        let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
        writer.write_record(fields).unwrap();
        writer.into_inner().unwrap()
    }

    /// Records of two to six fields drawn from an alphabet of the bytes that matter (comma,
    /// quote, CR, LF, space, tab, `#`, letters, digits, a two-byte and a three-byte character,
    /// a byte-order mark), empty fields included: the same bytes as the `csv` writer's.
    #[test]
    fn rows_are_the_csv_writers() {
        let alphabet = [
            ",", "\"", "\r", "\n", " ", "\t", "#", "a", "Z", "0", "9", ".", "-", "é", "€",
            "\u{feff}", "'", "\\",
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4180);
        for _ in 0..200_000 {
            let count = rng.gen_range(2..=6);
            let fields: Vec<String> = (0..count)
                .map(|_| {
                    let len = rng.gen_range(0..=6);
                    (0..len)
                        .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                        .collect()
                })
                .collect();
            let mut ours = Vec::new();
            push_fields(&mut ours, &fields);
            ours.push(b'\n');
            assert_eq!(ours, by_csv_writer(&fields), "{fields:?}");
        }
        for special in ["", ",", "\"", "\r", "\n", "a\"b", "\"\"", " , "] {
            let fields = vec![special.to_string(), "1".to_string()];
            let mut ours = Vec::new();
            push_fields(&mut ours, &fields);
            ours.push(b'\n');
            assert_eq!(ours, by_csv_writer(&fields), "{fields:?}");
        }
    }
}
