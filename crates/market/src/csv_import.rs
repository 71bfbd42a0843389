//! Daily price history from CSV: `symbol,date,open,high,low,close,volume`.
//!
//! The format (docs/market-data.md has an example):
//! - a header naming exactly the seven columns, case-insensitively, in any order;
//! - one row per symbol and session: a ticker ([`is_valid_symbol`] after trimming and
//!   upper-casing), a `YYYY-MM-DD` date, four positive prices with
//!   `low <= open, close <= high`, and a whole, non-negative volume;
//! - fields separated by commas, surrounding blanks ignored; quoted fields are refused (no
//!   field of this format needs them); LF or CRLF line ends; blank lines ignored; a UTF-8
//!   byte-order mark ignored.
//!
//! The import is all or nothing: [`parse_prices_csv`] returns every row, or every problem
//! with its 1-based line number (the first [`MAX_ERRORS`], then a count of the rest).

use std::collections::HashMap;
use std::fmt;

use chrono::NaiveDate;

use crate::data::{DailyBar, is_valid_symbol};

/// The columns, in the canonical order.
pub const COLUMNS: [&str; 7] = ["symbol", "date", "open", "high", "low", "close", "volume"];

/// At most this many problems are listed; one more entry says how many were left out.
pub const MAX_ERRORS: usize = 100;

/// One imported row: a daily bar and its symbol.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceRow {
    /// The ticker, upper-cased.
    pub symbol: String,
    /// The session's prices and volume.
    pub bar: DailyBar,
}

/// A problem with one line of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvError {
    /// 1-based line number in the file.
    pub line: usize,
    /// What is wrong with it.
    pub problem: CsvProblem,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for CsvError {}

/// What is wrong with a line. Values are kept as the text found, for the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CsvProblem {
    /// The file has no header (it is empty or blank).
    MissingHeader,
    /// The header does not name the seven columns exactly once each.
    BadHeader {
        /// What was found, as written.
        found: String,
    },
    /// The file has a header but no rows.
    NoRows,
    /// A row with a different number of fields than the header.
    WrongColumnCount {
        /// Fields in the header (7).
        expected: usize,
        /// Fields in this row.
        found: usize,
    },
    /// A field in double quotes (not supported).
    QuotedField,
    /// The symbol is not a valid ticker.
    InvalidSymbol(String),
    /// The date is not a `YYYY-MM-DD` calendar date.
    BadDate(String),
    /// A price column that is not a number.
    BadPrice {
        /// `open`, `high`, `low` or `close`.
        column: &'static str,
        /// The text found.
        value: String,
    },
    /// A price that is zero or negative.
    NonPositivePrice {
        /// `open`, `high`, `low` or `close`.
        column: &'static str,
        /// The text found.
        value: String,
    },
    /// `high` below `low`.
    HighBelowLow {
        /// The high, as written.
        high: String,
        /// The low, as written.
        low: String,
    },
    /// `open` or `close` outside `[low, high]`.
    OutsideRange {
        /// `open` or `close`.
        column: &'static str,
        /// The price, as written.
        value: String,
        /// The low, as written.
        low: String,
        /// The high, as written.
        high: String,
    },
    /// A volume that is not a whole number of shares, or is negative.
    BadVolume(String),
    /// The same symbol and date on an earlier line.
    Duplicate {
        /// The symbol.
        symbol: String,
        /// The date.
        date: NaiveDate,
        /// The earlier line.
        first_line: usize,
    },
    /// More problems than are listed; this entry's line is the first one left out.
    TooManyErrors {
        /// How many problems were left out.
        more: usize,
    },
}

impl fmt::Display for CsvProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingHeader => write!(f, "the file is empty; expected the header {}", COLUMNS.join(",")),
            Self::BadHeader { found } => {
                write!(f, "the header must name the columns {} (any order, any case); found {found:?}", COLUMNS.join(","))
            }
            Self::NoRows => f.write_str("the file has a header but no rows"),
            Self::WrongColumnCount { expected, found } => {
                write!(f, "expected {expected} fields, found {found}")
            }
            Self::QuotedField => f.write_str("quoted fields are not supported; no field of this format needs quotes"),
            Self::InvalidSymbol(s) => write!(f, "invalid symbol {s:?}: 1-10 characters A-Z, 0-9, '.' or '-', starting with a letter"),
            Self::BadDate(s) => write!(f, "invalid date {s:?}: expected YYYY-MM-DD"),
            Self::BadPrice { column, value } => write!(f, "{column} {value:?} is not a number"),
            Self::NonPositivePrice { column, value } => {
                write!(f, "{column} {value} must be greater than zero")
            }
            Self::HighBelowLow { high, low } => write!(f, "high {high} is below low {low}"),
            Self::OutsideRange { column, value, low, high } => write!(f, "{column} {value} is outside the day's range [{low}, {high}]"),
            Self::BadVolume(s) => {
                let why = if s.starts_with('-') {
                    "is negative"
                } else if s.parse::<f64>().is_ok_and(f64::is_finite) {
                    "is not a whole number"
                } else {
                    "is not a number"
                };
                write!(f, "volume {s:?} {why}: expected a whole, non-negative number of shares")
            }
            Self::Duplicate { symbol, date, first_line } => write!(f, "{symbol} on {date} already appears on line {first_line}"),
            Self::TooManyErrors { more } => write!(f, "… and {more} more problems not listed"),
        }
    }
}

/// Parses a whole price file. All or nothing: `Ok` with every row, sorted by symbol then
/// date, or `Err` with every problem in line order (the first [`MAX_ERRORS`], then one
/// [`CsvProblem::TooManyErrors`] entry counting the rest).
///
/// ```
/// use strikeline_market::csv_import::parse_prices_csv;
///
/// let rows = parse_prices_csv("Symbol,Date,Open,High,Low,Close,Volume\r\n\
///                              AAPL,2024-01-02,187.15,188.44,183.89,185.64,82488700\r\n").unwrap();
/// assert_eq!(rows[0].symbol, "AAPL");
/// assert_eq!(rows[0].bar.close, 185.64);
///
/// let errors = parse_prices_csv("symbol,date,open,high,low,close,volume\n\
///                                AAPL,2024-13-02,187.15,188.44,183.89,185.64,82488700\n").unwrap_err();
/// assert_eq!(errors[0].line, 2);
/// ```
///
/// # Errors
///
/// Every problem found, each with its line number; see [`CsvProblem`].
pub fn parse_prices_csv(text: &str) -> Result<Vec<PriceRow>, Vec<CsvError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut errors = Errors::default();
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix('\r').unwrap_or(line)))
        .filter(|(_, line)| !line.trim().is_empty());

    let Some((header_line, header)) = lines.next() else {
        return Err(vec![CsvError { line: 1, problem: CsvProblem::MissingHeader }]);
    };
    let Some(order) = column_order(header) else {
        return Err(vec![CsvError { line: header_line, problem: CsvProblem::BadHeader { found: header.trim().to_owned() } }]);
    };

    let mut rows = Vec::new();
    let mut seen: HashMap<(String, NaiveDate), usize> = HashMap::new();
    for (line, text) in lines {
        if let Some(row) = parse_row(line, text, &order, &mut errors) {
            match seen.get(&(row.symbol.clone(), row.bar.date)) {
                Some(&first_line) => errors.push(line, CsvProblem::Duplicate { symbol: row.symbol, date: row.bar.date, first_line }),
                None => {
                    seen.insert((row.symbol.clone(), row.bar.date), line);
                    rows.push(row);
                }
            }
        }
    }
    if rows.is_empty() && errors.is_empty() {
        errors.push(header_line, CsvProblem::NoRows);
    }
    if !errors.is_empty() {
        return Err(errors.finish());
    }
    rows.sort_by(|a, b| (&a.symbol, a.bar.date).cmp(&(&b.symbol, b.bar.date)));
    Ok(rows)
}

/// The collected problems: the first [`MAX_ERRORS`] kept, the rest counted.
#[derive(Default)]
struct Errors {
    listed: Vec<CsvError>,
    first_left_out: Option<usize>,
    left_out: usize,
}

impl Errors {
    fn push(&mut self, line: usize, problem: CsvProblem) {
        if self.listed.len() < MAX_ERRORS {
            self.listed.push(CsvError { line, problem });
        } else {
            self.first_left_out.get_or_insert(line);
            self.left_out += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    fn finish(mut self) -> Vec<CsvError> {
        if let Some(line) = self.first_left_out {
            self.listed.push(CsvError { line, problem: CsvProblem::TooManyErrors { more: self.left_out } });
        }
        self.listed
    }
}

/// For each canonical column, its position in the file; `None` unless the header names each
/// of the seven exactly once and nothing else.
fn column_order(header: &str) -> Option<[usize; 7]> {
    let names: Vec<String> = header.split(',').map(|n| n.trim().trim_matches('"').to_ascii_lowercase()).collect();
    if names.len() != COLUMNS.len() {
        return None;
    }
    let mut order = [0; 7];
    for (slot, column) in order.iter_mut().zip(COLUMNS) {
        let mut positions = names.iter().enumerate().filter(|(_, n)| *n == column);
        let (position, _) = positions.next()?;
        if positions.next().is_some() {
            return None;
        }
        *slot = position;
    }
    Some(order)
}

/// One data row; its problems go to `errors`. `None` when the row has any.
fn parse_row(line: usize, text: &str, order: &[usize; 7], errors: &mut Errors) -> Option<PriceRow> {
    if text.contains('"') {
        errors.push(line, CsvProblem::QuotedField);
        return None;
    }
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != COLUMNS.len() {
        errors.push(line, CsvProblem::WrongColumnCount { expected: COLUMNS.len(), found: fields.len() });
        return None;
    }
    let field = |i: usize| fields[order[i]];
    let mut ok = true;
    let mut problem = |p: CsvProblem| {
        ok = false;
        errors.push(line, p);
    };

    let symbol = field(0).to_ascii_uppercase();
    if !is_valid_symbol(&symbol) {
        problem(CsvProblem::InvalidSymbol(field(0).to_owned()));
    }
    let date = NaiveDate::parse_from_str(field(1), "%Y-%m-%d")
        .ok()
        // chrono accepts unpadded fields ("2024-1-2"); the format is strict.
        .filter(|_| field(1).len() == 10);
    if date.is_none() {
        problem(CsvProblem::BadDate(field(1).to_owned()));
    }
    let mut prices = [0.0; 4];
    for (k, column) in ["open", "high", "low", "close"].into_iter().enumerate() {
        let text = field(2 + k);
        match text.parse::<f64>() {
            Ok(p) if p.is_finite() && p > 0.0 => prices[k] = p,
            Ok(p) if p.is_finite() => problem(CsvProblem::NonPositivePrice { column, value: text.to_owned() }),
            _ => problem(CsvProblem::BadPrice { column, value: text.to_owned() }),
        }
    }
    let volume = field(6).strip_prefix('+').unwrap_or(field(6)).parse::<u64>().ok();
    if volume.is_none() {
        problem(CsvProblem::BadVolume(field(6).to_owned()));
    }
    let [open, high, low, close] = prices;
    if prices.iter().all(|p| *p > 0.0) {
        if high < low {
            problem(CsvProblem::HighBelowLow { high: field(3).to_owned(), low: field(4).to_owned() });
        } else {
            for (column, value, text) in [("open", open, field(2)), ("close", close, field(5))] {
                if !(low..=high).contains(&value) {
                    problem(CsvProblem::OutsideRange {
                        column,
                        value: text.to_owned(),
                        low: field(4).to_owned(),
                        high: field(3).to_owned(),
                    });
                }
            }
        }
    }
    let (Some(date), Some(volume), true) = (date, volume, ok) else {
        return None;
    };
    Some(PriceRow { symbol, bar: DailyBar { date, open, high, low, close, volume } })
}
