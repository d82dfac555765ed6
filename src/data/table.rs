//! Loading a delimited text table (CSV, `;` or tab separated) with a header row.

use crate::error::{at_cell, in_file, Result};
use std::path::{Path, PathBuf};

/// A table as read from disk: header names and string cells, with the file line of each row
/// kept so that errors can point at the offending cell.
#[derive(Clone, Debug)]
pub struct Table {
    /// The file the table was read from.
    pub path: PathBuf,
    /// Field delimiter used (detected or given).
    pub delimiter: u8,
    /// Column names, unique.
    pub headers: Vec<String>,
    /// Data rows, each with one cell per header.
    pub rows: Vec<Vec<String>>,
    /// 1-based file line of each data row.
    pub lines: Vec<u64>,
}

/// Where a table comes from: a file, or CSV text held in memory (a caller's data frame, say)
/// with the name messages give it in place of a file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSource {
    File(PathBuf),
    Text { name: String, csv: Vec<u8> },
}

impl TableSource {
    /// Reads the table; `delimiter = None` detects it from the header line.
    pub(crate) fn read(&self, delimiter: Option<u8>) -> Result<Table> {
        match self {
            TableSource::File(path) => Table::read(path, delimiter),
            TableSource::Text { name, csv } => {
                Table::parse(Path::new(name), csv.clone(), delimiter)
            }
        }
    }
}

impl From<&Path> for TableSource {
    fn from(path: &Path) -> TableSource {
        TableSource::File(path.to_path_buf())
    }
}

impl From<PathBuf> for TableSource {
    fn from(path: PathBuf) -> TableSource {
        TableSource::File(path)
    }
}

/// Values that mean "missing" in a quasi-identifier.
pub(crate) fn is_missing(v: &str) -> bool {
    let v = v.trim();
    v.is_empty() || v == "NA" || v == "?"
}

/// Parses a delimiter setting: a single character, or `tab` / `\t`.
pub fn parse_delimiter(s: &str) -> std::result::Result<u8, String> {
    match s {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() => Ok(s.as_bytes()[0]),
        _ => Err(format!(
            "delimiter must be one ASCII character or 'tab', got '{s}'"
        )),
    }
}

/// Guesses the delimiter from the header line: the most frequent of `,` `;` tab outside quotes.
pub(crate) fn detect_delimiter(header_line: &str) -> u8 {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for c in header_line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => counts[0] += 1,
            ';' if !quoted => counts[1] += 1,
            '\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let best = (0..3).max_by_key(|&i| (counts[i], 3 - i)).unwrap_or(0);
    if counts[best] == 0 {
        b','
    } else {
        [b',', b';', b'\t'][best]
    }
}

/// The file line a record starts on. The csv crate counts lines at '\n' but starts a record
/// that follows a CRLF line at that line's '\n', one line early: skip line terminators (and
/// blank lines) at the record's start, then count the newlines before it.
fn line_of(text: &[u8], newlines: &[usize], pos: &csv::Position) -> u64 {
    let mut b = pos.byte() as usize;
    while b < text.len() && (text[b] == b'\n' || text[b] == b'\r') {
        b += 1;
    }
    1 + newlines.partition_point(|&p| p < b) as u64
}

impl Table {
    /// Reads a table; `delimiter = None` detects it from the header line.
    pub fn read(path: &Path, delimiter: Option<u8>) -> Result<Table> {
        let bytes = std::fs::read(path).map_err(|e| in_file(path, format!("cannot read: {e}")))?;
        Table::parse(path, bytes, delimiter)
    }

    /// Parses the bytes of a table file; `path` names it in errors.
    pub fn parse(path: &Path, bytes: Vec<u8>, delimiter: Option<u8>) -> Result<Table> {
        let text = String::from_utf8(bytes).map_err(|e| {
            let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
            in_file(path, format!("line {line}: not valid UTF-8"))
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if text.trim().is_empty() {
            return Err(in_file(path, "file is empty"));
        }
        let delimiter =
            delimiter.unwrap_or_else(|| detect_delimiter(text.lines().next().unwrap_or("")));
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(true)
            .flexible(false)
            .from_reader(text.as_bytes());
        let headers: Vec<String> = reader
            .headers()
            .map_err(|e| in_file(path, format!("cannot read header: {e}")))?
            .iter()
            .map(|h| h.trim().to_string())
            .collect();
        let mut seen = std::collections::HashMap::new();
        for (i, h) in headers.iter().enumerate() {
            if h.is_empty() {
                return Err(at_cell(
                    path,
                    1,
                    &format!("#{}", i + 1),
                    "empty column name in header",
                ));
            }
            if let Some(first) = seen.insert(h.as_str(), i) {
                return Err(at_cell(
                    path,
                    1,
                    h,
                    format!(
                        "duplicate column name (columns {} and {})",
                        first + 1,
                        i + 1
                    ),
                ));
            }
        }
        let newlines: Vec<usize> = text
            .bytes()
            .enumerate()
            .filter(|&(_, c)| c == b'\n')
            .map(|(i, _)| i)
            .collect();
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| match e.kind() {
                csv::ErrorKind::UnequalLengths {
                    pos,
                    expected_len,
                    len,
                } => in_file(
                    path,
                    format!(
                        "line {}: row has {len} fields, the header has {expected_len}",
                        pos.as_ref()
                            .map_or(0, |p| line_of(text.as_bytes(), &newlines, p))
                    ),
                ),
                _ => in_file(path, format!("malformed CSV: {e}")),
            })?;
            // A blank line inside a file is skipped by csv; a line with only delimiters is data.
            lines.push(
                record
                    .position()
                    .map_or(0, |p| line_of(text.as_bytes(), &newlines, p)),
            );
            rows.push(record.iter().map(|c| c.trim().to_string()).collect());
        }
        if rows.is_empty() {
            return Err(in_file(path, "has a header but no data rows"));
        }
        Ok(Table {
            path: path.to_path_buf(),
            delimiter,
            headers,
            rows,
            lines,
        })
    }

    /// Index of a named column, or an error naming the file and the known columns.
    pub fn column(&self, name: &str) -> Result<usize> {
        self.headers.iter().position(|h| h == name).ok_or_else(|| {
            in_file(
                &self.path,
                format!(
                    "unknown column '{name}' (columns: {})",
                    self.headers.join(", ")
                ),
            )
        })
    }

    /// Number of data rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when there is no data row (never after a successful `read`).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_delimiters() {
        assert_eq!(detect_delimiter("a,b,c"), b',');
        assert_eq!(detect_delimiter("a;b;c"), b';');
        assert_eq!(detect_delimiter("a\tb\tc"), b'\t');
        assert_eq!(detect_delimiter("\"a;x\",b"), b',');
        assert_eq!(detect_delimiter("single"), b',');
    }

    #[test]
    fn missing_markers() {
        for v in ["", " ", "NA", "?"] {
            assert!(is_missing(v));
        }
        assert!(!is_missing("0"));
        assert!(!is_missing("na"));
    }

    #[test]
    fn reads_quoted_fields() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.csv");
        std::fs::write(&p, "name,city\n\"Doe, J\",\"Paris\"\nX,Y\n").unwrap();
        let t = Table::read(&p, None).unwrap();
        assert_eq!(t.headers, vec!["name", "city"]);
        assert_eq!(t.rows[0], vec!["Doe, J", "Paris"]);
        assert_eq!(t.lines, vec![2, 3]);
    }
}
