//! Bounds on every input the project reads, so that no input can grow memory without limit: one
//! line or CSV record is at most [`MAX_RECORD_BYTES`] (1 MiB) ([`read_line_capped`]); a whole
//! configuration or instance file at most [`MAX_FILE_BYTES`] (16 MiB) ([`read_text_file`]).
//! Beyond them a reader stops with a message naming the file and line, instead of reading
//! `/dev/zero` into memory. The CSV reader ([`crate::csv_io`]), the Pandora instance reader
//! ([`crate::pandora::format`]) and the `pbgi` tool's readers all use them.
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The longest line, or CSV record (which may span lines inside quotes), read from any input:
/// 1 MiB. Real rows are well under 1 KiB; the bound keeps memory flat on any input.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// The largest configuration or instance file (TOML, JSON) read as a whole: 16 MiB.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a whole text file of at most [`MAX_FILE_BYTES`] bytes. Errors name the file, and the
/// line of the first invalid UTF-8 byte. A leading UTF-8 byte-order mark is dropped.
pub fn read_text_file(path: &Path) -> Result<String, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "{}: the file is larger than {} MiB, the limit for configuration and instance files",
            path.display(),
            MAX_FILE_BYTES >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        format!("{}: line {line} is not valid UTF-8", path.display())
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The outcome of [`read_line_capped`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line was read (with its `\n`, unless it is the last line and has none).
    Line,
    /// The input is at its end; nothing was read.
    End,
    /// The line is longer than the limit; the bytes read so far are in the buffer and the rest of
    /// the line is unread. Stop reading this input.
    TooLong,
}

/// Appends the next line of `input`, through its `\n`, to `line`, unless `line` would exceed
/// `limit` bytes (counting what it already holds, so a caller can bound a record that spans
/// lines). Reads no further than `limit + 1` bytes into memory.
pub fn read_line_capped<R: BufRead + ?Sized>(
    input: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<LineRead> {
    let start = line.len();
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if line.len() == start {
                LineRead::End
            } else {
                LineRead::Line
            });
        }
        let newline = memchr::memchr(b'\n', available);
        let take = newline.map_or(available.len(), |at| at + 1);
        // The line end itself does not count towards the limit.
        let content = take - usize::from(newline.is_some());
        if line.len() + content > limit {
            let room = limit.saturating_sub(line.len());
            line.extend_from_slice(&available[..room]);
            input.consume(room);
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(&available[..take]);
        input.consume(take);
        if newline.is_some() {
            return Ok(LineRead::Line);
        }
    }
}

/// `bytes` as a size for messages: `1 MiB`, `16 MiB`, or bytes.
pub fn describe_size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_up_to_the_limit() {
        let mut input: &[u8] = b"abc\nde\r\nlast";
        let mut line = Vec::new();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 3).unwrap(),
            LineRead::Line
        );
        assert_eq!(line, b"abc\n");
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 3).unwrap(),
            LineRead::Line
        );
        assert_eq!(line, b"de\r\n");
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            LineRead::Line
        );
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            LineRead::End
        );
    }

    #[test]
    fn a_long_line_stops_at_the_limit() {
        // Through a small buffer, so the line arrives in pieces.
        let text = vec![b'x'; 100];
        let mut input = io::BufReader::with_capacity(7, &text[..]);
        let mut line = b"12345".to_vec();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 50).unwrap(),
            LineRead::TooLong
        );
        assert_eq!(line.len(), 50);
    }

    #[test]
    fn endless_input_is_bounded() {
        let mut zeros = io::BufReader::new(io::repeat(0));
        let mut line = Vec::new();
        assert_eq!(
            read_line_capped(&mut zeros, &mut line, MAX_RECORD_BYTES).unwrap(),
            LineRead::TooLong
        );
        assert_eq!(line.len(), MAX_RECORD_BYTES);
    }

    #[test]
    fn text_files_are_bounded_and_name_the_bad_line() {
        let dir = std::env::temp_dir().join(format!("pbgi-io-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.toml");
        std::fs::write(&path, b"\xef\xbb\xbfa = 1\nb = \"\xff\"\n").unwrap();
        assert_eq!(
            read_text_file(&path).unwrap_err(),
            format!("{}: line 2 is not valid UTF-8", path.display())
        );
        std::fs::write(&path, "\u{feff}a = 1\n").unwrap();
        assert_eq!(read_text_file(&path).unwrap(), "a = 1\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
