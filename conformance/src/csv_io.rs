//! Streaming CSV input with errors that name the line, the column and the reason, and the
//! number formats of the oracle's output.
//!
//! Rows are read one at a time into a reused record, so memory does not grow with the number of
//! rows. Lines starting with `#` are comments (the fixture files' headers use them).
use crate::function::{Bound, Function};
use crate::limits::{describe_size, MAX_RECORD_BYTES};
use std::fmt;
use std::io::BufRead;
use std::ops::Range;

/// What was wrong with the input, and where. Lines are counted from 1, as an editor shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct InputError {
    /// Line of the input (1-based).
    pub line: u64,
    /// Name of the offending column, when the problem is in one field.
    pub column: Option<String>,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.column {
            Some(column) => write!(
                f,
                "line {}, column `{}`: {}",
                self.line, column, self.reason
            ),
            None => write!(f, "line {}: {}", self.line, self.reason),
        }
    }
}

/// One parsed data row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Line of the input where the row starts (1-based).
    pub line: u64,
    /// The function's arguments, in [`Function::input_columns`] order, checked to be in the
    /// domain.
    pub args: Vec<f64>,
    /// The extra numeric columns asked for (e.g. `value` for `pbgi check`), in the order asked;
    /// these may be `inf`, `-inf` or `nan`.
    pub extras: Vec<f64>,
}

/// Reads the rows of a CSV whose header names the function's input columns (in any order, among
/// other columns that are passed through untouched).
///
/// The CSV dialect is RFC 4180: comma-separated, fields optionally in double quotes (`""` is a
/// quote inside a quoted field; a quoted field may span lines), `\n` or `\r\n` line ends. Blank
/// lines and lines starting with `#` (after optional spaces) are skipped; a UTF-8 byte-order mark
/// before the header is ignored. A record is at most [`MAX_RECORD_BYTES`] (1 MiB).
///
/// Lines are counted here, and quoting is checked strictly: the `csv` crate's reader would accept
/// `"a"b` as `ab` and an unclosed quote at the end of the input as a field, where this reader
/// names the line, and it has no bound on a record's length.
pub struct ArgumentReader<R: BufRead> {
    lines: RecordLines<R>,
    headers: Vec<String>,
    function: Function,
    arg_index: Vec<usize>,
    extra_names: Vec<&'static str>,
    extra_index: Vec<usize>,
    record: Vec<String>,
    /// The bounds of the function's arguments ([`Function::bounds`]).
    bounds: Vec<Bound>,
    check_domain: bool,
}

impl<R: BufRead> ArgumentReader<R> {
    /// Reads the header row. `extras` are further numeric columns that must be present.
    /// Fails when a required column is missing or appears twice, or a column in `reserved`
    /// (names the caller will append to the output) is already present.
    pub fn new(
        input: R,
        function: Function,
        extras: &[&'static str],
        reserved: &[&str],
    ) -> Result<Self, InputError> {
        let mut lines = RecordLines::new(input);
        let mut headers = Vec::new();
        let Some(header_line) = lines.next_record(&mut headers, true)? else {
            return Err(InputError {
                line: lines.line.max(1),
                column: None,
                reason: format!(
                    "the input is empty; `{}` needs a header row naming the columns {}",
                    function.cli_name(),
                    function.input_columns().join(",")
                ),
            });
        };
        let find = |name: &str| -> Result<usize, InputError> {
            let mut hits = headers.iter().enumerate().filter(|(_, h)| h.trim() == name);
            match (hits.next(), hits.next()) {
                (Some((i, _)), None) => Ok(i),
                (None, _) => Err(InputError {
                    line: header_line,
                    column: None,
                    reason: format!(
                        "header has no column `{name}`; `{}` needs the columns {}{} (found: {})",
                        function.cli_name(),
                        function.input_columns().join(","),
                        extras.iter().map(|e| format!(",{e}")).collect::<String>(),
                        headers.join(",")
                    ),
                }),
                (Some(_), Some(_)) => Err(InputError {
                    line: header_line,
                    column: Some(name.to_string()),
                    reason: "the column appears more than once in the header".to_string(),
                }),
            }
        };
        let arg_index = function
            .input_columns()
            .iter()
            .map(|name| find(name))
            .collect::<Result<Vec<_>, _>>()?;
        let extra_index = extras
            .iter()
            .map(|name| find(name))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(name) = reserved
            .iter()
            .find(|name| headers.iter().any(|h| h.trim() == **name))
        {
            return Err(InputError {
                line: header_line,
                column: Some(name.to_string()),
                reason: format!(
                    "the input already has a column `{name}`, which the output appends; \
                     rename or drop it"
                ),
            });
        }
        Ok(ArgumentReader {
            lines,
            headers,
            function,
            arg_index,
            extra_names: extras.to_vec(),
            extra_index,
            record: Vec::new(),
            bounds: function.bounds(),
            check_domain: true,
        })
    }

    /// Reads arguments outside the domain too (NaN, ±inf, `σ < 0`, `cost ≤ 0`), as the
    /// edge-case grading needs; they must still be numbers.
    pub fn accepting_any_arguments(mut self) -> Self {
        self.check_domain = false;
        self
    }

    /// The header row as read.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// The raw fields of the row most recently returned by [`ArgumentReader::next_row`].
    pub fn record(&self) -> &[String] {
        &self.record
    }

    /// The next row, `None` at the end of the input.
    pub fn next_row(&mut self) -> Result<Option<Row>, InputError> {
        let mut args = Vec::with_capacity(self.arg_index.len());
        let mut extras = Vec::with_capacity(self.extra_index.len());
        let Some(line) = self.read_row(true, &mut args, &mut extras)? else {
            return Ok(None);
        };
        Ok(Some(Row { line, args, extras }))
    }

    /// The next row as [`ArgumentReader::next_row`] reads it (the same rows, values and errors),
    /// into the caller's reused vectors: its arguments into `args`, its extra columns into
    /// `extras`; returns its line, `None` at the end of the input. Its fields are then
    /// [`ArgumentReader::fields`] ([`ArgumentReader::record`] is not kept up to date).
    ///
    /// A plain record — one ASCII line without `"` or `\r` — is not split into strings: its fields
    /// are the pieces between its commas, which is what the splitting of an unquoted record
    /// gives, and its text is left where it was read ([`Fields::Plain`]).
    pub fn next_row_into(
        &mut self,
        args: &mut Vec<f64>,
        extras: &mut Vec<f64>,
    ) -> Result<Option<u64>, InputError> {
        self.read_row(false, args, extras)
    }

    /// The fields of the row most recently returned by [`ArgumentReader::next_row_into`].
    pub fn fields(&self) -> Fields<'_> {
        match self.lines.plain.clone() {
            Some(range) => Fields::Plain(self.lines.text(range)),
            None => Fields::Split(&self.record),
        }
    }

    /// Reads the next record (split into [`ArgumentReader::record`] always if `split`, else only
    /// if it is not plain), checks its field count, parses its arguments (checked against the
    /// domain) and extras; returns its line.
    fn read_row(
        &mut self,
        split: bool,
        args: &mut Vec<f64>,
        extras: &mut Vec<f64>,
    ) -> Result<Option<u64>, InputError> {
        let Some(line) = self.lines.next_record(&mut self.record, split)? else {
            return Ok(None);
        };
        args.clear();
        extras.clear();
        // A plain record's text, read as a string once (it is ASCII: this cannot fail); the
        // ends of its fields (as offsets into it: the commas, then its end) were found as it was
        // read.
        let plain = match self.lines.plain.clone() {
            Some(range) => Some(std::str::from_utf8(self.lines.text(range)).unwrap_or_default()),
            None => None,
        };
        let ends = &self.lines.ends;
        let count = match plain {
            Some(_) => ends.len(),
            None => self.record.len(),
        };
        if count != self.headers.len() {
            return Err(InputError {
                line,
                column: None,
                reason: format!(
                    "expected {} fields (as in the header), found {}",
                    self.headers.len(),
                    count
                ),
            });
        }
        let columns = self.function.input_columns();
        let record = &self.record;
        for (&index, &name) in self.arg_index.iter().zip(columns) {
            let value = parse_number(field_of(plain, ends, record, index)).map_err(|reason| {
                InputError {
                    line,
                    column: Some(name.to_string()),
                    reason,
                }
            })?;
            args.push(value);
        }
        // Most rows are in the domain: their arguments' bounds admit them, and `check_domain`
        // (which would accept them) is asked only for the others, for its error.
        if self.check_domain && !args.iter().zip(&self.bounds).all(|(&v, b)| b.admits(v)) {
            self.function.check_domain(args).map_err(|e| InputError {
                line,
                column: Some(e.name.to_string()),
                reason: e.message,
            })?;
        }
        for (&index, &name) in self.extra_index.iter().zip(&self.extra_names) {
            let value = parse_number(field_of(plain, ends, record, index)).map_err(|reason| {
                InputError {
                    line,
                    column: Some(name.to_string()),
                    reason,
                }
            })?;
            extras.push(value);
        }
        Ok(Some(line))
    }
}

/// Field `index` of the record: of the plain record `plain` if given, with [`plain_field`],
/// else of the split record `record`.
#[inline(always)]
fn field_of<'a>(
    plain: Option<&'a str>,
    ends: &[usize],
    record: &'a [String],
    index: usize,
) -> &'a str {
    match plain {
        Some(text) => plain_field(text, ends, index),
        None => record[index].as_str(),
    }
}

/// Field `index` of a plain record `text` whose fields end at `ends` (its count checked): the
/// piece between the comma before it (or the start) and its end.
#[inline(always)]
fn plain_field<'a>(text: &'a str, ends: &[usize], index: usize) -> &'a str {
    let start = if index == 0 { 0 } else { ends[index - 1] + 1 };
    &text[start..ends[index]]
}

/// The fields of a record (see [`ArgumentReader::fields`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fields<'a> {
    /// The text of a record of one ASCII line without `"` or `\r`: its fields are the pieces
    /// between its commas (none of them contains a quote or a line end).
    Plain(&'a [u8]),
    /// The record's fields, unquoted.
    Split(&'a [String]),
}

/// Splits a `BufRead` into CSV records, counting lines. A record (with the lines it spans inside
/// quotes) is at most [`MAX_RECORD_BYTES`]; beyond it reading stops with an error naming the line.
///
/// The input is read in blocks of [`BLOCK`] bytes into `buf`, and records are read where they
/// lie in it: `buf[pos..filled]` is the input read and not yet consumed, the current record
/// starting at `pos`. Only when a record runs past `filled` is more read, after the record's
/// bytes have been moved to the front of `buf` (which grows only for a record longer than a
/// block, so it stays below [`MAX_RECORD_BYTES`] plus two blocks).
struct RecordLines<R: BufRead> {
    input: R,
    /// Lines consumed so far.
    line: u64,
    buf: Vec<u8>,
    pos: usize,
    filled: usize,
    /// Where the last record's text lies in `buf` when it was left unsplit (plain).
    plain: Option<Range<usize>>,
    /// For a plain record: the ends of its fields, as offsets into its text (its commas, then
    /// its length).
    ends: Vec<usize>,
}

/// Bytes asked of the input at a time.
const BLOCK: usize = 1 << 16;

/// How the next line of a record ends ([`RecordLines::line_end`]).
enum LineEnd {
    /// The line ends at this offset from the record's start (after its `\n`, or at the end
    /// of the input).
    At(usize),
    /// The input is at its end; the line has no bytes.
    End,
    /// The record would be longer than [`MAX_RECORD_BYTES`] (counting the bytes of its lines
    /// before this one with their line ends, and this line without its own).
    TooLong,
}

/// What [`RecordLines::plain_line`] found at the start of the unread input.
enum PlainLine {
    /// A plain line: its text is `buf[pos..pos + content]` (without its line end), the next
    /// line starts at `pos + next`, and `ends` holds the ends of its fields.
    Plain { content: usize, next: usize },
    /// Anything else (a quote, a `\r` not before the line end, a byte that is not ASCII, a
    /// line longer than the limit, the end of the input): the general path reads it.
    Other,
}

/// `8` bytes of `bytes` (at least that many) as a little-endian word.
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

/// The bytes of `word` (eight, little-endian) below `-` (`0x2D`: among them `,`, `"`, `\n`,
/// `\r`) or not ASCII (`0x80` and above), each marked by its high bit. For a byte `b`,
/// `(b | 0x80) - 0x2D` borrows from no other byte and has its high bit set exactly when
/// `b & 0x7F ≥ 0x2D`.
#[inline(always)]
fn below_dash_or_not_ascii(word: u64) -> u64 {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    (!((word | HIGH) - LOW * 0x2D) | word) & HIGH
}

impl<R: BufRead> RecordLines<R> {
    fn new(input: R) -> Self {
        RecordLines {
            input,
            line: 0,
            buf: Vec::new(),
            pos: 0,
            filled: 0,
            plain: None,
            ends: Vec::new(),
        }
    }

    /// The text of the last record (ASCII, checked when it was read) at `range`.
    fn text(&self, range: Range<usize>) -> &[u8] {
        &self.buf[range]
    }

    /// Moves the unread input `buf[pos..filled]` to the front and reads more after it; `false`
    /// at the end of the input. Offsets from `pos` are unchanged.
    fn fill(&mut self) -> std::io::Result<bool> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.filled, 0);
            self.filled -= self.pos;
            self.pos = 0;
        }
        if self.buf.is_empty() {
            // Zeroed memory from the allocator (fresh pages need no writing).
            self.buf = vec![0; 2 * BLOCK];
        }
        if self.buf.len() < self.filled + BLOCK {
            self.buf.resize(self.filled + BLOCK, 0);
        }
        loop {
            match self.input.read(&mut self.buf[self.filled..]) {
                Ok(0) => return Ok(false),
                Ok(read) => {
                    self.filled += read;
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// [`RecordLines::fill`], a failure named as a read error at the line being read.
    fn fill_or_fail(&mut self) -> Result<bool, InputError> {
        self.fill().map_err(|e| InputError {
            line: self.line + 1,
            column: None,
            reason: format!("could not read the input: {e}"),
        })
    }

    /// The end of the line that starts at offset `from` from the record's start (`pos`),
    /// reading more input as needed.
    fn line_end(&mut self, from: usize) -> Result<LineEnd, InputError> {
        let mut searched = from;
        loop {
            let unread = &self.buf[self.pos + searched..self.filled];
            // Most lines have no quote: `memchr` looks for one quickly.
            if let Some(at) = memchr::memchr(b'\n', unread) {
                let newline = searched + at;
                // The line end itself does not count towards the limit.
                return Ok(if newline > MAX_RECORD_BYTES {
                    LineEnd::TooLong
                } else {
                    LineEnd::At(newline + 1)
                });
            }
            searched = self.filled - self.pos;
            if searched > MAX_RECORD_BYTES {
                return Ok(LineEnd::TooLong);
            }
            if !self.fill_or_fail()? {
                return Ok(if searched == from {
                    LineEnd::End
                } else {
                    LineEnd::At(searched)
                });
            }
        }
    }

    /// Whether the unread input starts with a plain line (one ASCII line without `"` or `\r`
    /// but for a `\r` before its `\n`, at most [`MAX_RECORD_BYTES`] long without its line end):
    /// its commas are found in the same pass and left in `ends`.
    fn plain_line(&mut self) -> Result<PlainLine, InputError> {
        self.ends.clear();
        let mut from = 0;
        loop {
            match self.scan_plain(from) {
                Scan::Found(line) => return Ok(line),
                Scan::Unfinished(resume) => from = resume,
            }
            let length = self.filled - self.pos;
            if length > MAX_RECORD_BYTES {
                return Ok(PlainLine::Other);
            }
            if !self.fill_or_fail()? {
                if length == 0 {
                    return Ok(PlainLine::Other);
                }
                // The last line, without a line end: a `\r` at its end is dropped, as before one.
                let content = length - usize::from(self.buf[self.pos + length - 1] == b'\r');
                return Ok(PlainLine::Plain {
                    content,
                    next: length,
                });
            }
        }
    }

    /// [`RecordLines::plain_line`] on the input read so far, from offset `from` (the bytes before
    /// it looked at already, their commas in `ends`): eight bytes at a time, only the bytes
    /// [`below_dash_or_not_ascii`] marks looked at one by one (the commas, the line end, and
    /// the bytes that make a line other than plain are among them), then the last few bytes
    /// one at a time.
    #[inline(always)]
    fn scan_plain(&mut self, from: usize) -> Scan {
        let unread = &self.buf[self.pos..self.filled];
        let line = |content: usize, next: usize| {
            // The line end itself does not count towards the limit.
            Scan::Found(if next - 1 > MAX_RECORD_BYTES {
                PlainLine::Other
            } else {
                PlainLine::Plain { content, next }
            })
        };
        let mut at = from;
        while at < unread.len() {
            let (mut marked, step) = if at + 8 <= unread.len() {
                (below_dash_or_not_ascii(word(&unread[at..])), 8)
            } else {
                let b = unread[at];
                (u64::from(!(0x2D..0x80).contains(&b)) << 7, 1)
            };
            while marked != 0 {
                let i = at + (marked.trailing_zeros() / 8) as usize;
                marked &= marked - 1;
                match unread[i] {
                    b',' => self.ends.push(i),
                    b'\n' => return line(i, i + 1),
                    b'\r' => match unread.get(i + 1) {
                        Some(b'\n') => return line(i, i + 2),
                        Some(_) => return Scan::Found(PlainLine::Other),
                        // The byte after it is not read yet: look again from here.
                        None => return Scan::Unfinished(i),
                    },
                    b'"' | 0x80.. => return Scan::Found(PlainLine::Other),
                    _ => {}
                }
            }
            at += step;
        }
        Scan::Unfinished(unread.len())
    }

    /// Reads the next record into `fields`; returns the line it starts on, `None` at the end.
    /// Unless `split`, a plain record (one ASCII line without `"` or `\r`) is not split: `plain` is
    /// then its range in `buf` and `ends` the ends of its fields.
    fn next_record(
        &mut self,
        fields: &mut Vec<String>,
        split: bool,
    ) -> Result<Option<u64>, InputError> {
        self.plain = None;
        loop {
            let start = self.line + 1;
            if !split {
                if let PlainLine::Plain { content, next } = self.plain_line()? {
                    let record = &self.buf[self.pos..self.pos + content];
                    let begin = self.pos;
                    self.line += 1;
                    self.pos += next;
                    // What the general path below decides from `trim_start`: blank (only white
                    // space) or a comment (`#` first after white space) is skipped.
                    match record.iter().find(|&&b| !is_white_space(b)) {
                        None | Some(b'#') => continue,
                        Some(_) => {
                            self.ends.push(content);
                            self.plain = Some(begin..begin + content);
                            return Ok(Some(start));
                        }
                    }
                }
            }
            // The record's lines, up to `end` (an offset from `pos`). A record ends at a line
            // end outside quotes: after an even number of `"` (a quoted quote is written `""`,
            // so it never changes the parity).
            let mut end = 0usize;
            let mut quotes = 0usize;
            loop {
                match self.line_end(end)? {
                    LineEnd::End if end == 0 => return Ok(None),
                    LineEnd::End => {
                        return Err(InputError {
                            line: start,
                            column: None,
                            reason: "a quoted field is not closed before the end of the input"
                                .to_string(),
                        })
                    }
                    LineEnd::TooLong => {
                        let limit = describe_size(MAX_RECORD_BYTES);
                        return Err(InputError {
                            line: start,
                            column: None,
                            reason: if self.line + 1 == start {
                                format!("the line is longer than {limit}, the limit of one record")
                            } else {
                                format!(
                                    "the record (a quoted field from line {start} on) is longer \
                                     than {limit}, the limit of one record"
                                )
                            },
                        });
                    }
                    LineEnd::At(line_end) => {
                        self.line += 1;
                        let line = &self.buf[self.pos + end..self.pos + line_end];
                        // Most lines have no quote: `memchr` looks for one quickly.
                        if memchr::memchr(b'"', line).is_some() {
                            quotes += line.iter().filter(|&&b| b == b'"').count();
                        }
                        // A comment ends at its line, whatever quotes it holds.
                        let comment = end == 0
                            && without_bom(line, start)
                                .trim_ascii_start()
                                .starts_with(b"#");
                        end = line_end;
                        if quotes % 2 == 0 || comment {
                            break;
                        }
                    }
                }
            }
            let bytes = &self.buf[self.pos..self.pos + end];
            self.pos += end;
            let begin = bytes.len() - without_bom(bytes, start).len();
            let mut stop = bytes.len();
            if bytes[begin..stop].ends_with(b"\n") {
                stop -= 1;
            }
            if bytes[begin..stop].ends_with(b"\r") {
                stop -= 1;
            }
            let record = std::str::from_utf8(&bytes[begin..stop]).map_err(|e| InputError {
                line: start
                    + bytes[begin..begin + e.valid_up_to()]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count() as u64,
                column: None,
                reason: "the line is not valid UTF-8".to_string(),
            })?;
            let unindented = record.trim_start();
            if unindented.trim_end().is_empty() || unindented.starts_with('#') {
                continue;
            }
            split_fields(record, fields).map_err(|reason| InputError {
                line: start,
                column: None,
                reason,
            })?;
            return Ok(Some(start));
        }
    }
}

/// Where [`RecordLines::scan_plain`] stopped.
enum Scan {
    /// What the line is.
    Found(PlainLine),
    /// The input read so far ends before the line does: look again from this offset once
    /// more is read.
    Unfinished(usize),
}

/// The ASCII bytes that are white space to `str::trim_start` (Unicode's `White_Space`:
/// tab, line feed, vertical tab, form feed, carriage return and space).
fn is_white_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ')
}

/// `bytes` without a UTF-8 byte-order mark (as some spreadsheet programs write) when they are the
/// input's first line.
fn without_bom(bytes: &[u8], line: u64) -> &[u8] {
    match bytes.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) if line == 1 => rest,
        _ => bytes,
    }
}

/// Splits one RFC 4180 record (without its line end) into unquoted fields. The strings of
/// `fields` are reused (cleared and refilled) so that reading a row allocates nothing once the
/// fields have grown to their length.
fn split_fields(record: &str, fields: &mut Vec<String>) -> Result<(), String> {
    let mut count = 0usize;
    let outcome = split_fields_into(record, fields, &mut count);
    fields.truncate(count);
    outcome
}

/// [`split_fields`]: fills `fields[..count]`, counting them in `count`.
fn split_fields_into(
    record: &str,
    fields: &mut Vec<String>,
    count: &mut usize,
) -> Result<(), String> {
    let mut rest = record;
    loop {
        if *count == fields.len() {
            fields.push(String::new());
        }
        let field = &mut fields[*count];
        field.clear();
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut chars = quoted.char_indices().peekable();
            let end = loop {
                match chars.next() {
                    Some((_, '"')) if chars.peek().map(|&(_, c)| c) == Some('"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some((i, '"')) => break i + 1,
                    Some((_, c)) => field.push(c),
                    None => return Err("a quoted field is not closed".to_string()),
                }
            };
            rest = &quoted[end..];
            if !(rest.is_empty() || rest.starts_with(',')) {
                return Err(format!(
                    "unexpected text after the closing quote of field {}",
                    *count + 1
                ));
            }
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            field.push_str(&rest[..end]);
            rest = &rest[end..];
        }
        *count += 1;
        match rest.strip_prefix(',') {
            Some(after) => rest = after,
            None => return Ok(()),
        }
    }
}

/// Parses one numeric field: a decimal or scientific number, surrounding spaces allowed;
/// `inf`, `-inf` and `nan` are read as such (the domain check rejects them as arguments).
///
/// A number whose text lies beyond f64's range is an error, not a silent `inf` or `0`: `1e400`
/// overflows, and `1e-400` (nonzero digits that round to zero) underflows. Decimals inside the
/// range are rounded to the nearest f64 (subnormals included), which is what the oracle
/// evaluates.
#[inline]
pub fn parse_number(field: &str) -> Result<f64, String> {
    // A field that starts and ends with a printable ASCII character (most fields) has no
    // white space to trim: white space is ASCII 9 to 13 and 32, or a non-ASCII character.
    // Such a field that reads as a finite nonzero number (most of those) is that number: the
    // rest of the checks (in `parse_number_checked`) concern the others.
    let printable = |b: Option<&u8>| b.is_some_and(|&b| (b'!'..=b'~').contains(&b));
    let bytes = field.as_bytes();
    if printable(bytes.first()) && printable(bytes.last()) {
        if let Ok(value) = field.parse::<f64>() {
            if value.is_finite() && value != 0.0 {
                return Ok(value);
            }
        }
    }
    parse_number_checked(field)
}

/// [`parse_number`] in full.
#[inline(never)]
fn parse_number_checked(field: &str) -> Result<f64, String> {
    // A field that starts and ends with a printable ASCII character (most fields) has no
    // white space to trim: white space is ASCII 9 to 13 and 32, or a non-ASCII character.
    let printable = |b: Option<&u8>| b.is_some_and(|&b| (b'!'..=b'~').contains(&b));
    let bytes = field.as_bytes();
    let trimmed = if printable(bytes.first()) && printable(bytes.last()) {
        field
    } else {
        field.trim()
    };
    if trimmed.is_empty() {
        return Err("the field is empty".to_string());
    }
    let value = trimmed
        .parse::<f64>()
        .map_err(|_| format!("`{trimmed}` is not a number"))?;
    // Only an infinite or zero result can be an overflow or an underflow.
    if value.is_finite() && value != 0.0 {
        return Ok(value);
    }
    let digits = trimmed.split(['e', 'E']).next().unwrap_or("");
    let is_decimal = digits.bytes().any(|b| b.is_ascii_digit());
    if value.is_infinite() && is_decimal {
        return Err(format!(
            "`{trimmed}` overflows f64 (the largest finite f64 is {:e})",
            f64::MAX
        ));
    }
    if value == 0.0 && digits.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        return Err(format!(
            "`{trimmed}` underflows f64: it is nonzero but rounds to 0 (the smallest \
             positive f64 is 5e-324); write 0 if 0 is meant"
        ));
    }
    Ok(value)
}

/// The shortest decimal that parses back to exactly `x` (round to nearest), in plain notation
/// for `1e-5 ≤ |x| < 1e16` and scientific notation otherwise; `inf`, `-inf`, `NaN`; `-0` keeps
/// its sign.
pub fn format_shortest(x: f64) -> String {
    let magnitude = x.abs();
    // Written into a string long enough for every f64 (at most 24 bytes in either notation),
    // so that it is never reallocated (this runs once per row of `pbgi eval`).
    use std::fmt::Write;
    let mut out = String::with_capacity(32);
    // Writing into a String cannot fail.
    let _ = if !x.is_finite() || x == 0.0 || (1e-5..1e16).contains(&magnitude) {
        // Rust's `Display` for f64 prints the shortest round-trip digits.
        write!(out, "{x}")
    } else {
        write!(out, "{x:e}")
    };
    out
}

/// [`format_shortest`]'s text appended to `out`, with no string of its own (`pbgi eval` writes
/// it straight into its output row).
///
/// The digits are Ryū's (the `ryu` crate). Ryū and Rust's formatter (Grisu with a Dragon
/// fallback) both give the shortest digit strings that read back to `x` (the same rounding
/// interval: its ends included when the mantissa is even) and, among those, the one nearest to
/// `x`; they differ only on a tie, where `x` lies exactly halfway between two nearest candidates:
/// Ryū takes the even one, Rust the larger one. A tie needs `x` to be an `(n+1)`-digit decimal
/// ending in 5 (`n ≤ 17` the candidates' length), so `x = m·2^-s` (`m` odd, `s > 0`: the exact
/// expansion of `m·2^e` with `e ≥ 0` is an integer that does not end in 5, or an odd integer
/// below `2^53`, its own shortest form) with `m·5^s < 10^18`; for those few doubles
/// ([`may_tie`]) the text is [`format_shortest`]'s own.
///
/// Ryū's layout is [`format_shortest`]'s but for integers. With the digits `d1d2…dn` and `x =
/// 0.d1d2…dn × 10^k`, Ryū writes plain notation for `-5 < k ≤ 16` (`ddd000.0`, `dd.ddd`,
/// `0.000ddd`) and `d.ddde(k-1)` (`de(k-1)` for one digit) otherwise, as `format_shortest` does
/// for `1e-5 ≤ |x| < 1e16`: these are the same doubles (`k ≤ 16` is `x < 10^16`, a double; `k ≥
/// -4` is `x ≥ 10^-5`, since the double nearest to `10^-5` has the digits `1` and `k = -4`, and
/// those below it have shortest digits below `10^-5`). Only the integers differ: Ryū's
/// `ddd000.0` is written `ddd000`. Tested against [`format_shortest`] on millions of doubles, the
/// neighbours of every power of two and ten, and every tie class
/// (`tests::shortest_decimal_in_place_is_format_shortest`).
pub fn push_shortest(x: f64, out: &mut Vec<u8>) {
    if x.is_nan() {
        out.extend_from_slice(b"NaN");
        return;
    }
    if x.is_sign_negative() {
        out.push(b'-');
    }
    let magnitude = x.abs();
    if magnitude.is_infinite() {
        out.extend_from_slice(b"inf");
        return;
    }
    if magnitude == 0.0 {
        out.push(b'0');
        return;
    }
    if may_tie(magnitude) {
        out.extend_from_slice(format_shortest(magnitude).as_bytes());
        return;
    }
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(magnitude).as_bytes();
    out.extend_from_slice(text.strip_suffix(b".0").unwrap_or(text));
}

/// Whether the positive finite `x` is `m·2^-s` (`m` odd, `s > 0`) with `m·5^s < 10^18`: its
/// exact decimal expansion (the digits of `m·5^s`, ending in 5) has at most 18 significant
/// digits, so that it may lie exactly halfway between two shortest candidates.
fn may_tie(x: f64) -> bool {
    let bits = x.to_bits();
    let biased = (bits >> 52) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    let zeros = m.trailing_zeros();
    let (m, e) = (m >> zeros, e + i64::from(zeros));
    // 5^26 > 10^18: longer expansions need no test.
    (1..=26).contains(&-e) && u128::from(m) * 5u128.pow((-e) as u32) < 10u128.pow(18)
}

/// `field` as a CSV field: quoted (with `"` doubled) when it contains a comma, a quote or a line
/// end, as is otherwise.
pub fn quote_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// `x`'s IEEE-754 bit pattern as `0x` and 16 hex digits (what fixture files and failure
/// messages print, so that an input can be reproduced exactly).
pub fn format_hex_bits(x: f64) -> String {
    format!("{:#018x}", x.to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(text: &str, function: Function) -> Result<ArgumentReader<&[u8]>, InputError> {
        ArgumentReader::new(text.as_bytes(), function, &[], &["value"])
    }

    #[test]
    fn columns_in_any_order_with_extras() {
        let mut r = reader("y,id,sigma,mu\n1,a,2,3\n", Function::Ei).unwrap();
        let row = r.next_row().unwrap().unwrap();
        assert_eq!(row.args, vec![3.0, 2.0, 1.0]);
        assert_eq!(row.line, 2);
        assert_eq!(&r.record()[1], "a");
        assert_eq!(r.next_row().unwrap(), None);
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        let mut r = reader("mu,sigma,y\n0,1,0\n0,-1,0\n", Function::Ei).unwrap();
        r.next_row().unwrap();
        let e = r.next_row().unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column `sigma`: sigma must be >= 0, got -1"
        );
        let mut r = reader("mu,sigma,cost\n0,1,abc\n", Function::Pbgi).unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 2, column `cost`: `abc` is not a number"
        );
        let mut r = reader("mu,sigma,y\n\n0,1\n", Function::Ei).unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 3: expected 3 fields (as in the header), found 2"
        );
        let mut r = reader("mu,sigma,y\n0,,1\n", Function::Ei).unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 2, column `sigma`: the field is empty"
        );
    }

    #[test]
    fn header_problems_are_reported() {
        let e = reader("mu,sigma\n0,1\n", Function::Ei).err().unwrap();
        assert_eq!(
            e.to_string(),
            "line 1: header has no column `y`; `ei` needs the columns mu,sigma,y (found: mu,sigma)"
        );
        let e = reader("mu,sigma,y,mu\n", Function::Ei).err().unwrap();
        assert_eq!(
            e.to_string(),
            "line 1, column `mu`: the column appears more than once in the header"
        );
        let e = reader("mu,sigma,y,value\n", Function::Ei).err().unwrap();
        assert!(e
            .to_string()
            .starts_with("line 1, column `value`: the input already has"));
    }

    #[test]
    fn comment_lines_are_skipped_and_counted() {
        let mut r = reader("# made by hand\nmu,sigma,y\n# note\n0,1,x\n", Function::Ei).unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 4, column `y`: `x` is not a number"
        );
    }

    #[test]
    fn byte_order_mark_and_indented_comments_are_accepted() {
        let mut r = reader(
            "\u{feff}mu,sigma,y\n  # indented note\n\t# tab \"odd quote\n0,1,q\n",
            Function::Ei,
        )
        .unwrap();
        assert_eq!(r.headers(), ["mu", "sigma", "y"]);
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 4, column `y`: `q` is not a number"
        );
        // Only before the header: elsewhere the mark is part of a field.
        let mut r = reader("mu,sigma,y\n\u{feff}0,1,0\n", Function::Ei).unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 2, column `mu`: `\u{feff}0` is not a number"
        );
    }

    #[test]
    fn numbers_beyond_f64_are_named_not_rounded_away() {
        assert_eq!(
            parse_number("1e400").unwrap_err(),
            "`1e400` overflows f64 (the largest finite f64 is 1.7976931348623157e308)"
        );
        assert!(parse_number("-1E400")
            .unwrap_err()
            .contains("overflows f64"));
        assert_eq!(
            parse_number(" 1e-400").unwrap_err(),
            "`1e-400` underflows f64: it is nonzero but rounds to 0 (the smallest positive f64 \
             is 5e-324); write 0 if 0 is meant"
        );
        assert!(parse_number("-2e-324")
            .unwrap_err()
            .contains("underflows f64"));
        assert_eq!(parse_number("3e-324").unwrap(), 5e-324);
        assert_eq!(parse_number("0e-400").unwrap(), 0.0);
        assert_eq!(
            parse_number("-0.000").unwrap().to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(parse_number("-inf").unwrap(), f64::NEG_INFINITY);
        assert_eq!(parse_number("1.7976931348623157e308").unwrap(), f64::MAX);
    }

    #[test]
    fn a_record_spanning_lines_is_bounded_too() {
        let mut text = String::from("id,mu,sigma,y\n\"");
        for _ in 0..(MAX_RECORD_BYTES / 1000 + 1) {
            text.push_str(&"x".repeat(999));
            text.push('\n');
        }
        let mut r = reader(&text, Function::Ei).unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 2: the record (a quoted field from line 2 on) is longer than 1 MiB, the limit \
             of one record"
        );
    }

    #[test]
    fn invalid_utf8_names_its_line() {
        let input: &[u8] = b"mu,sigma,y\n0,1,0\n0,1,\xff\n";
        let mut r = ArgumentReader::new(input, Function::Ei, &[], &[]).unwrap();
        r.next_row().unwrap();
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 3: the line is not valid UTF-8"
        );
    }

    #[test]
    fn quoted_fields_follow_rfc_4180() {
        let mut fields = Vec::new();
        split_fields(r#"1,"a,b","say ""hi""",,x"#, &mut fields).unwrap();
        assert_eq!(fields, vec!["1", "a,b", "say \"hi\"", "", "x"]);
        assert!(split_fields(r#""a"b,1"#, &mut fields).is_err());
        let mut r = reader(
            "id,mu,sigma,y\n\"two\nlines\",0,1,0\n0,0,1,z\n",
            Function::Ei,
        )
        .unwrap();
        r.next_row().unwrap().unwrap();
        assert_eq!(&r.record()[0], "two\nlines");
        assert_eq!(
            r.next_row().unwrap_err().to_string(),
            "line 4, column `y`: `z` is not a number"
        );
    }

    #[test]
    fn empty_input_is_an_error() {
        let e = reader("", Function::Pbgi).err().unwrap();
        assert_eq!(
            e.to_string(),
            "line 1: the input is empty; `pbgi` needs a header row naming the columns mu,sigma,cost"
        );
    }

    #[test]
    fn shortest_decimal_round_trips() {
        for x in [
            0.3989422804014327,
            1e-300,
            -1.5e300,
            5e-324,
            123456.0,
            1e16,
            -0.0,
            0.1,
            f64::MAX,
        ] {
            let s = format_shortest(x);
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{s}");
        }
        assert_eq!(format_shortest(0.1), "0.1");
        assert_eq!(format_shortest(1e-300), "1e-300");
        assert_eq!(format_shortest(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_hex_bits(1.0), "0x3ff0000000000000");
        assert_eq!(quote_field("a, \"b\""), "\"a, \"\"b\"\"\"");
        assert_eq!(quote_field("plain"), "plain");
    }

    /// [`push_shortest`] writes [`format_shortest`]'s text, for both signs of: 3 million random
    /// bit patterns (every exponent, subnormals included), random decimals of 1 to 17
    /// significant digits over the whole range (short digit strings, where the choice among
    /// shortest candidates matters), integers below `10^16` ending in zeros, the neighbours of powers of two and of ten and of the
    /// notation boundaries `1e-5` and `1e16`, integers, zeros, infinities and NaN.
    #[test]
    fn shortest_decimal_in_place_is_format_shortest() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1853);
        let neighbours = |x: f64| {
            let bits = x.to_bits();
            [f64::from_bits(bits - 1), x, f64::from_bits(bits + 1)]
        };
        let mut values = vec![
            0.0,
            f64::INFINITY,
            f64::NAN,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-5,
            1e16,
            0.1,
        ];
        values.extend((0..3_000_000).map(|_| f64::from_bits(rng.gen::<u64>() >> 1)));
        for _ in 0..300_000 {
            let digits: u32 = rng.gen_range(1..=17);
            let mantissa: u64 = rng.gen_range(1..10u64.pow(digits));
            let exponent: i32 = rng.gen_range(-340..=310);
            let x: f64 = format!("{mantissa}e{exponent}").parse().unwrap();
            values.push(x);
        }
        for e in -1074..=1023 {
            let power = if e >= -1022 {
                f64::from_bits(((e + 1023) as u64) << 52)
            } else {
                f64::from_bits(1u64 << (e + 1074))
            };
            values.extend(neighbours(power));
        }
        for e in -323..=308 {
            values.extend(neighbours(format!("1e{e}").parse().unwrap()));
        }
        for x in [1e-5, 1e16, 1e15, 1e-4, 5e-324] {
            values.extend(neighbours(x));
        }
        values.extend((0..100_000).map(f64::from));
        values.extend((0..100_000).map(|i| f64::from(i) / 1024.0));
        // Integers up to 10^16 (Ryū writes them with `.0`) of every length, with trailing zeros.
        for _ in 0..100_000 {
            let digits = rng.gen_range(1..=16u32);
            let zeros = rng.gen_range(0..digits);
            let head = rng.gen_range(1..10u64.pow(digits - zeros));
            values.push((head * 10u64.pow(zeros)) as f64);
        }
        // Exact decimals of up to 18 digits ending in 5 (`m·2^-s`, `m` odd): the ties, where
        // Ryū and Rust's formatter choose differently, and their neighbours.
        let mut ties = 0;
        for _ in 0..300_000 {
            let s = rng.gen_range(1..=26u32);
            let bits = rng.gen_range(1..=53u32);
            let m = (rng.gen::<u64>() >> (64 - bits)) | 1;
            let x = m as f64 / 2f64.powi(s as i32);
            if u128::from(m) * 5u128.pow(s) < 10u128.pow(18) {
                assert!(may_tie(x), "{x}");
                values.extend(neighbours(x));
                ties += 1;
            }
        }
        assert!(ties > 50_000, "{ties}");
        // The tie met in `pbgi eval`'s stress set: 1724206451446705.25, written …705.3.
        assert_eq!(format_shortest(1724206451446705.25), "1724206451446705.3");
        values.push(1724206451446705.25);
        let mut out = Vec::new();
        for x in values {
            for x in [x, -x] {
                out.clear();
                out.extend_from_slice(b"1,");
                push_shortest(x, &mut out);
                assert_eq!(
                    std::str::from_utf8(&out[2..]).unwrap(),
                    format_shortest(x),
                    "{:#018x}",
                    x.to_bits()
                );
            }
        }
    }

    /// The white space of the plain path's blank and comment test is `str::trim_start`'s.
    #[test]
    fn ascii_white_space_is_trims() {
        for b in 0u8..128 {
            assert_eq!(is_white_space(b), char::from(b).is_whitespace(), "{b}");
        }
    }

    /// `parse_number` gives the results of its previous form, kept here as the oracle (every
    /// field trimmed with `str::trim`): its shortcut for fields without white space at either
    /// end changes nothing. Every field `a…b` with `a`, `b` an ASCII character, one of
    /// Unicode's white space or other non-ASCII characters, or nothing, around numbers,
    /// overflows, underflows, zeros and non-numbers.
    #[test]
    fn numbers_are_read_as_trim_and_parse_read_them() {
        fn by_trim(field: &str) -> Result<f64, String> {
            let trimmed = field.trim();
            if trimmed.is_empty() {
                return Err("the field is empty".to_string());
            }
            let value = trimmed
                .parse::<f64>()
                .map_err(|_| format!("`{trimmed}` is not a number"))?;
            let digits = trimmed.split(['e', 'E']).next().unwrap_or("");
            let is_decimal = digits.bytes().any(|b| b.is_ascii_digit());
            if value.is_infinite() && is_decimal {
                return Err(format!(
                    "`{trimmed}` overflows f64 (the largest finite f64 is {:e})",
                    f64::MAX
                ));
            }
            if value == 0.0 && digits.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
                return Err(format!(
                    "`{trimmed}` underflows f64: it is nonzero but rounds to 0 (the smallest \
                     positive f64 is 5e-324); write 0 if 0 is meant"
                ));
            }
            Ok(value)
        }
        let mut ends: Vec<String> = (0u8..128).map(|b| char::from(b).to_string()).collect();
        ends.extend(
            [
                "", "\u{85}", "\u{a0}", "\u{1680}", "\u{2003}", "\u{3000}", "é", "\u{feff}",
            ]
            .map(String::from),
        );
        let middles = [
            "1", "-2.5e-3", "x", "", "inf", "1e400", "1e-400", "0", "-0.0", "NaN",
        ];
        for a in &ends {
            for b in &ends {
                for middle in middles {
                    let field = format!("{a}{middle}{b}");
                    let (got, expected) = (parse_number(&field), by_trim(&field));
                    match (&got, &expected) {
                        (Ok(x), Ok(y)) => assert!(
                            x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan(),
                            "{field:?}"
                        ),
                        _ => assert_eq!(got, expected, "{field:?}"),
                    }
                }
            }
        }
    }

    /// Which records `next_row_into` leaves unsplit (one ASCII line without `"` or `\r`) and
    /// which it hands to the general path, and that both give `next_row`'s rows and fields:
    /// quoted fields, a quote inside a field, a lone `\r`, CRLF, non-ASCII text, a byte-order
    /// mark, blank lines of spaces, tabs, vertical tabs and form feeds, indented comments.
    #[test]
    fn plain_records_and_the_records_handed_back() {
        let input = "\u{feff}id,mu,sigma,y\r\n\
                     a,0,1,0\r\n\
                     \"q,1\",0,1,0\n\
                     b\"\"c,0,1,0\n\
                     d\re,0,1,0\n\
                     é,0,1,0\n\
                     \u{b}\u{c} \t\n\
                     \t # comment, \"odd\n\
                     ,0, 1 ,2e-3\n\
                     x,1e400,1,0\n";
        let expected_plain = [true, false, false, false, false, true];
        let mut general = reader(input, Function::Ei).unwrap();
        let mut plain = reader(input, Function::Ei).unwrap();
        let (mut args, mut extras) = (Vec::new(), Vec::new());
        for expected in expected_plain {
            let row = general.next_row().unwrap().unwrap();
            let line = plain
                .next_row_into(&mut args, &mut extras)
                .unwrap()
                .unwrap();
            assert_eq!((row.line, &row.args), (line, &args));
            match plain.fields() {
                Fields::Plain(text) => {
                    assert!(expected, "line {line} read as plain");
                    let pieces: Vec<&[u8]> = text.split(|&b| b == b',').collect();
                    let fields: Vec<&[u8]> =
                        general.record().iter().map(|f| f.as_bytes()).collect();
                    assert_eq!(pieces, fields);
                }
                Fields::Split(fields) => {
                    assert!(!expected, "line {line} split");
                    assert_eq!(fields, general.record());
                }
            }
        }
        let error = general.next_row().unwrap_err();
        assert_eq!(
            plain.next_row_into(&mut args, &mut extras).unwrap_err(),
            error
        );
        assert!(error
            .to_string()
            .starts_with("line 10, column `mu`: `1e400` overflows"));
    }

    /// A record as the previous reader read it: its line, its text (without a byte-order mark
    /// and line end) and its fields.
    type OracleRecord = (u64, Vec<u8>, Vec<String>);

    /// The reader's previous form, line by line with `read_line_capped` (each line copied into a
    /// buffer of its own, every record split), kept as the oracle of [`RecordLines`]: the
    /// records of `input` up to the end or the first error.
    fn records_by_lines(mut input: impl BufRead) -> (Vec<OracleRecord>, Option<InputError>) {
        use crate::limits::{read_line_capped, LineRead};
        let mut records = Vec::new();
        let mut line_count = 0u64;
        let mut bytes = Vec::new();
        'records: loop {
            bytes.clear();
            let start = line_count + 1;
            let mut quotes = 0usize;
            loop {
                let before = bytes.len();
                let read = match read_line_capped(&mut input, &mut bytes, MAX_RECORD_BYTES) {
                    Ok(read) => read,
                    Err(e) => {
                        let error = InputError {
                            line: line_count + 1,
                            column: None,
                            reason: format!("could not read the input: {e}"),
                        };
                        return (records, Some(error));
                    }
                };
                let error = |reason: String| InputError {
                    line: start,
                    column: None,
                    reason,
                };
                match read {
                    LineRead::End if bytes.is_empty() => return (records, None),
                    LineRead::End => {
                        let reason = "a quoted field is not closed before the end of the input";
                        return (records, Some(error(reason.to_string())));
                    }
                    LineRead::TooLong => {
                        let limit = describe_size(MAX_RECORD_BYTES);
                        let reason = if line_count + 1 == start {
                            format!("the line is longer than {limit}, the limit of one record")
                        } else {
                            format!(
                                "the record (a quoted field from line {start} on) is longer \
                                 than {limit}, the limit of one record"
                            )
                        };
                        return (records, Some(error(reason)));
                    }
                    LineRead::Line => {
                        line_count += 1;
                        quotes += bytes[before..].iter().filter(|&&b| b == b'"').count();
                        let comment = before == 0
                            && without_bom(&bytes, start)
                                .trim_ascii_start()
                                .starts_with(b"#");
                        if quotes % 2 == 0 || comment {
                            break;
                        }
                    }
                }
            }
            let begin = bytes.len() - without_bom(&bytes, start).len();
            let mut end = bytes.len();
            if bytes[begin..end].ends_with(b"\n") {
                end -= 1;
            }
            if bytes[begin..end].ends_with(b"\r") {
                end -= 1;
            }
            let raw = &bytes[begin..end];
            let record = match std::str::from_utf8(raw) {
                Ok(record) => record,
                Err(e) => {
                    let newlines = raw[..e.valid_up_to()].iter().filter(|&&b| b == b'\n');
                    let error = InputError {
                        line: start + newlines.count() as u64,
                        column: None,
                        reason: "the line is not valid UTF-8".to_string(),
                    };
                    return (records, Some(error));
                }
            };
            let unindented = record.trim_start();
            if unindented.trim_end().is_empty() || unindented.starts_with('#') {
                continue 'records;
            }
            let mut fields = Vec::new();
            if let Err(reason) = split_fields(record, &mut fields) {
                let error = InputError {
                    line: start,
                    column: None,
                    reason,
                };
                return (records, Some(error));
            }
            records.push((start, raw.to_vec(), fields));
        }
    }

    /// The records of `input` read by [`RecordLines`], every one split if `split`, else with
    /// plain records left unsplit (their fields then the pieces at `ends`, and their text
    /// checked to be plain); the texts of the records are those of the oracle's where plain,
    /// empty otherwise.
    fn records_by_blocks(
        input: impl BufRead,
        split: bool,
    ) -> (Vec<OracleRecord>, Option<InputError>) {
        let mut lines = RecordLines::new(input);
        let mut records = Vec::new();
        let mut fields = Vec::new();
        loop {
            match lines.next_record(&mut fields, split) {
                Ok(Some(line)) => match lines.plain.clone() {
                    Some(range) => {
                        assert!(!split);
                        let text = lines.text(range).to_vec();
                        assert!(
                            text.is_ascii() && !text.contains(&b'"') && !text.contains(&b'\r'),
                            "line {line}"
                        );
                        let mut start = 0;
                        let pieces = lines
                            .ends
                            .iter()
                            .map(|&end| {
                                let piece = String::from_utf8(text[start..end].to_vec()).unwrap();
                                start = end + 1;
                                piece
                            })
                            .collect();
                        records.push((line, text, pieces));
                    }
                    None => records.push((line, Vec::new(), fields.clone())),
                },
                Ok(None) => return (records, None),
                Err(error) => return (records, Some(error)),
            }
        }
    }

    /// An input handed out a few bytes at a time (between 1 and `longest`), now and then
    /// interrupted (`ErrorKind::Interrupted`, to be retried), and failing for good after
    /// `fail_at` bytes if given.
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        rng: rand_chacha::ChaCha8Rng,
        longest: usize,
        fail_at: Option<usize>,
        /// The size of the piece `fill_buf` hands out now (0: choose one).
        piece: usize,
    }

    impl std::io::Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let available = self.fill_buf()?;
            let n = available.len().min(out.len());
            out[..n].copy_from_slice(&available[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Trickle {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            use rand::Rng;
            if self.piece == 0 {
                if self.rng.gen_ratio(1, 8) {
                    return Err(std::io::ErrorKind::Interrupted.into());
                }
                if self.fail_at.is_some_and(|at| self.at >= at) {
                    return Err(std::io::Error::other("the disk is on fire"));
                }
                let end = self.fail_at.unwrap_or(usize::MAX).min(self.bytes.len());
                self.piece = self.rng.gen_range(1..=self.longest).min(end - self.at);
            }
            Ok(&self.bytes[self.at..self.at + self.piece])
        }

        fn consume(&mut self, n: usize) {
            self.at += n;
            self.piece -= n;
        }
    }

    /// [`RecordLines`] reads the records, lines and errors of its previous, line-by-line form
    /// ([`records_by_lines`]), split or left plain, whether the input comes whole or in pieces
    /// of 1 to 100 bytes (records then cross the reads and the 64 KiB blocks anywhere), or
    /// fails part way: random files of CSV's bytes (quotes, commas, CR, LF, `#`, white space,
    /// non-ASCII and invalid UTF-8) of up to 300 KB, and lines around the 1 MiB limit (LF,
    /// CRLF, at the end of the input, in a quoted record over several lines).
    #[test]
    fn records_are_the_line_by_line_readers() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2718);
        let alphabet = b",,,,\"\n\n\n\r# \t0123456789.e-+xy\xc3\xa9\xff";
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for case in 0..400 {
            let length = if case % 20 == 0 {
                rng.gen_range(0..300_000)
            } else {
                rng.gen_range(0..400)
            };
            // Mostly plain rows, with a byte of the alphabet now and then.
            let odd = rng.gen_range(0.0..0.2);
            let mut bytes = Vec::with_capacity(length);
            while bytes.len() < length {
                if rng.gen_bool(odd) {
                    bytes.push(alphabet[rng.gen_range(0..alphabet.len())]);
                } else {
                    let row = format!(
                        "{},{},{}\n",
                        rng.gen::<f64>(),
                        rng.gen_range(-1e5..1e5),
                        rng.gen::<u32>()
                    );
                    bytes.extend_from_slice(row.as_bytes());
                }
            }
            inputs.push(bytes);
        }
        for text in [
            "\u{feff}1,2\n3,4\n",
            "\u{feff}\n1,2",
            "\u{feff}#,\n1",
            "\u{feff}\"\n\"\n",
            "a,b\n1,2\r",
            "a,b\n1,2\r\r",
            "a,b\n1,2\n\r",
            "a,b\n1,2\n \r",
        ] {
            inputs.push(text.as_bytes().to_vec());
        }
        for ending in [&b"\n"[..], b"\r\n", b"", b"\r"] {
            for length in MAX_RECORD_BYTES - 2..=MAX_RECORD_BYTES + 1 {
                let mut bytes = b"a,b\n1,2\n".to_vec();
                bytes.extend(std::iter::repeat_n(b'7', length));
                bytes.extend_from_slice(ending);
                bytes.extend_from_slice(b"3,4\n");
                inputs.push(bytes);
            }
        }
        for ending in [&b""[..], b"\r"] {
            for length in MAX_RECORD_BYTES - 2..=MAX_RECORD_BYTES + 1 {
                for quoted in [false, true] {
                    let mut bytes = b"a,b\n1,2\n".to_vec();
                    if quoted {
                        bytes.extend_from_slice(b"\"\n");
                    }
                    bytes.extend(std::iter::repeat_n(b'7', length - 2 * usize::from(quoted)));
                    if quoted {
                        bytes.push(b'"');
                    }
                    bytes.extend_from_slice(ending);
                    inputs.push(bytes);
                }
            }
        }
        for length in MAX_RECORD_BYTES - 2..=MAX_RECORD_BYTES + 1 {
            let mut bytes = b"a,b\n\"".to_vec();
            bytes.extend(std::iter::repeat_n(b'7', length - 10));
            bytes.extend_from_slice(b"\n\n\n\",1234\n5,6\n");
            inputs.push(bytes);
        }
        for (case, bytes) in inputs.iter().enumerate() {
            let trickle = |rng: &mut rand_chacha::ChaCha8Rng, fail_at: Option<usize>| Trickle {
                bytes: bytes.clone(),
                at: 0,
                rng: rand_chacha::ChaCha8Rng::seed_from_u64(rng.gen()),
                longest: if bytes.len() > 100_000 { 5000 } else { 100 },
                fail_at,
                piece: 0,
            };
            let expected = records_by_lines(&bytes[..]);
            let texts = |records: &[OracleRecord]| {
                records
                    .iter()
                    .map(|r| (r.0, r.2.clone()))
                    .collect::<Vec<_>>()
            };
            for split in [true, false] {
                for got in [
                    records_by_blocks(&bytes[..], split),
                    records_by_blocks(trickle(&mut rng, None), split),
                ] {
                    assert_eq!(texts(&got.0), texts(&expected.0), "case {case}");
                    assert_eq!(got.1, expected.1, "case {case}");
                    // Left plain exactly when the record is one ASCII line without `"` or `\r`.
                    for (record, oracle) in got.0.iter().zip(&expected.0) {
                        let text = &oracle.1;
                        let plain = !split
                            && text.is_ascii()
                            && !text.contains(&b'"')
                            && !text.contains(&b'\r')
                            && !text.contains(&b'\n');
                        // (A byte-order mark makes the first line other than ASCII.)
                        let marked = record.0 == 1 && bytes.starts_with(b"\xef\xbb\xbf");
                        let plain = plain && !marked;
                        assert_eq!(!record.1.is_empty(), plain, "case {case}");
                        if plain {
                            assert_eq!(&record.1, text, "case {case}");
                        }
                    }
                }
            }
            // A read error part way: the same records before it, and the same error.
            if !bytes.is_empty() && bytes.len() < 100_000 {
                let fail_at = rng.gen_range(0..bytes.len());
                let expected = records_by_lines(trickle(&mut rng, Some(fail_at)));
                for split in [true, false] {
                    let got = records_by_blocks(trickle(&mut rng, Some(fail_at)), split);
                    assert_eq!(texts(&got.0), texts(&expected.0), "case {case}");
                    assert_eq!(got.1, expected.1, "case {case}");
                }
            }
        }
    }
}
