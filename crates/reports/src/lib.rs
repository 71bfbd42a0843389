//! Branded PDF reports, rendered in-process: pure, no I/O, no clock.
//!
//! A [`Report`] is a title block and a list of [`Section`]s — key figures, tables, line
//! charts, horizontal bars and paragraphs. [`render`] lays it out on US Letter pages under a
//! [`Brand`] (name, colours, footer and an optional PNG [`Logo`]) and returns the bytes of a
//! PDF file. Every page carries the brand's header and footer and "Page N of M".
//!
//! Text is set in the PDF standard fonts Helvetica and Helvetica-Bold with WinAnsi
//! encoding, so no font is embedded and readers everywhere show it; characters outside
//! Windows-1252 (CJK, emoji, …) print as `?`. Their widths are built in, which is what lets
//! tables right-align numbers, cut over-long cells with `...`, and paragraphs wrap.
//!
//! The output is deterministic: the same report and brand give the same bytes (no dates,
//! no random document id). A white-label brand's report names only that brand: nothing in
//! the file (metadata included) mentions this project.
//!
//! ```
//! use strikeline_reports::{render, Brand, Figure, Report, Section};
//! let report = Report {
//!     title: "Portfolio summary".into(),
//!     subtitle: "Account 1234".into(),
//!     generated: "Generated 2026-11-28 10:00 New York".into(),
//!     sections: vec![Section::Figures {
//!         heading: "Key figures".into(),
//!         items: vec![Figure { label: "Net delta".into(), value: "+42.5".into() }],
//!     }],
//! };
//! let pdf = render(&report, &Brand::strikeline());
//! assert!(pdf.starts_with(b"%PDF-"));
//! ```

#![deny(missing_docs)]

mod brand;
mod color;
mod layout;
mod logo;
mod metrics;
mod pdf;
mod scale;
mod text;

pub use brand::Brand;
pub use color::Rgb;
pub use logo::{Logo, LogoError, MAX_LOGO_BYTES, MAX_LOGO_SIDE};

/// A report: a title block on the first page, then sections flowing down the pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The report's title: large on the first page, in every page header, and the PDF's
    /// document title.
    pub title: String,
    /// A line under the title (an account, a period); may be empty.
    pub subtitle: String,
    /// When it was made, already formatted by the caller, e.g.
    /// `"Generated 2026-11-28 10:00 New York"`; may be empty.
    pub generated: String,
    /// The body, in order.
    pub sections: Vec<Section>,
}

/// One block of a report. Each one but a paragraph without heading starts with a heading.
#[derive(Debug, Clone, PartialEq)]
pub enum Section {
    /// Key figures in a grid of cards (two to four per row): label above, value below.
    Figures {
        /// The section heading.
        heading: String,
        /// The figures, in reading order.
        items: Vec<Figure>,
    },
    /// A table with a bold header row, zebra rows, and the header repeated on every page
    /// the table continues on. Cells too wide for their column end in `...`.
    Table {
        /// The section heading.
        heading: String,
        /// The columns, left to right.
        columns: Vec<Column>,
        /// The rows; each holds one cell per column (missing cells are blank, extra ones
        /// ignored).
        rows: Vec<Vec<String>>,
        /// Shown in place of the rows when there are none, e.g. "No open positions."
        empty: String,
    },
    /// A line chart of one or more series on a shared, evenly spaced x axis, with round
    /// y gridlines, a legend and x labels.
    LineChart {
        /// The section heading.
        heading: String,
        /// The series, drawn in the brand's primary colour, its accent, then greys.
        series: Vec<Series>,
        /// Labels under the x axis, spread evenly from the first point to the last
        /// (e.g. the first, middle and last dates).
        x_labels: Vec<String>,
        /// Appended to each y-axis label, e.g. `"%"`; may be empty.
        y_suffix: String,
    },
    /// Horizontal bars from a zero line: positive values to the right in the accent
    /// colour, negative ones to the left in red. For e.g. risk by symbol.
    Bars {
        /// The section heading.
        heading: String,
        /// The bars, top to bottom.
        bars: Vec<Bar>,
    },
    /// Running text, word-wrapped; line breaks in `text` start new lines.
    Paragraph {
        /// An optional heading.
        heading: Option<String>,
        /// The text.
        text: String,
    },
}

/// One key figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// What it is, e.g. "Net delta".
    pub label: String,
    /// Its value, already formatted, e.g. "+42.5".
    pub value: String,
}

impl Figure {
    /// The figure `label` with its formatted `value`.
    pub fn new(label: &str, value: String) -> Figure {
        Figure { label: label.to_owned(), value }
    }
}

/// One table column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The header text.
    pub label: String,
    /// How the column's header and cells are aligned.
    pub align: Align,
    /// The column's share of the table width, relative to the other columns' weights
    /// (non-positive weights count as 1 when all are non-positive, else as 0).
    pub width: f32,
}

impl Column {
    /// A column headed `label`, aligned `align`, taking `width` of the table relative to the
    /// others.
    pub fn new(label: &str, align: Align, width: f32) -> Column {
        Column { label: label.to_owned(), align, width }
    }
}

/// Horizontal alignment in a table column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text: flush left.
    Left,
    /// Numbers: flush right.
    Right,
}

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend text.
    pub label: String,
    /// The y values at evenly spaced x positions (the longest series sets the spacing).
    /// Non-finite values leave a gap in the line.
    pub points: Vec<f64>,
}

/// One horizontal bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The label at the left, e.g. a symbol.
    pub label: String,
    /// The bar's length and direction; a non-finite value draws no bar.
    pub value: f64,
    /// The value as shown at the right, already formatted, e.g. "-$1,250".
    pub text: String,
}

/// Lays the report out under the brand and returns the bytes of a PDF file.
#[must_use]
pub fn render(report: &Report, brand: &Brand) -> Vec<u8> {
    let pages = layout::lay_out(report, brand);
    pdf::write(&pages, report, brand)
}
