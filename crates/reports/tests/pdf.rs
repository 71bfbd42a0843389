//! Renders whole reports and reads them back with poppler's command-line tools
//! (`pdftotext`, `pdfinfo`, `pdfimages`, Debian package poppler-utils), as a reader would.
//! The tools are required: without them these tests fail, saying what to install.
#![expect(clippy::unwrap_used, reason = "test helpers: a failed step should fail the test where it happens")]

use std::path::PathBuf;
use std::process::Command;

use strikeline_reports::{Align, Bar, Brand, Column, Figure, Logo, Report, Rgb, Section, Series, render};

const LOGO_WIDTH: u32 = 120;
const LOGO_HEIGHT: u32 = 40;

/// An RGBA logo: a diagonal gradient, fully transparent at the left, opaque at the right.
fn logo_png(colour: png::ColorType) -> Vec<u8> {
    let channels = match colour {
        png::ColorType::Rgba => 4,
        png::ColorType::Grayscale => 1,
        other => panic!("no sample logo for {other:?}"),
    };
    let mut data = Vec::new();
    for y in 0..LOGO_HEIGHT {
        for x in 0..LOGO_WIDTH {
            let v = ((x + y) * 255 / (LOGO_WIDTH + LOGO_HEIGHT)) as u8;
            match channels {
                4 => data.extend_from_slice(&[124, v, 237, (x * 255 / (LOGO_WIDTH - 1)) as u8]),
                _ => data.push(v),
            }
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, LOGO_WIDTH, LOGO_HEIGHT);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    out
}

fn white_label(logo: Option<Logo>) -> Brand {
    Brand {
        name: "Northwind Capital".into(),
        primary: Rgb::parse_hex("#7c3aed").unwrap(),
        accent: Rgb::parse_hex("#0891b2").unwrap(),
        footer: "Northwind Capital · Research for professional investors. Past performance is not a reliable guide to future \
                 returns; options involve risk and are not suitable for all investors."
            .into(),
        logo,
    }
}

const SYMBOLS: [&str; 6] = ["AAPL", "MSFT", "NVDA", "SPY", "QQQ", "TSLA"];
const LONG_STRATEGY: &str = "Iron condor with unusually long and descriptive notes that cannot possibly fit the column";

fn sample_report() -> Report {
    let rows: Vec<Vec<String>> = (1..=120)
        .map(|i| {
            let strategy =
                if i == 7 { LONG_STRATEGY.to_owned() } else { ["Covered call", "Bull put spread", "Long straddle"][i % 3].to_owned() };
            vec![
                format!("POS-{i:03}"),
                SYMBOLS[i % SYMBOLS.len()].to_owned(),
                strategy,
                format!("{}", (i as i64 % 7) - 3),
                format!("{:.2}", (i as f64 * 0.37).sin()),
                format!("€{},{:03}.50", i, i * 7 % 1000),
            ]
        })
        .collect();
    let equity: Vec<f64> = (0..90).map(|i| 100.0 + (i as f64 / 9.0).sin() * 4.0 + i as f64 * 0.12).collect();
    let mut benchmark: Vec<f64> = (0..90).map(|i| 100.0 + i as f64 * 0.08).collect();
    benchmark[40] = f64::NAN;
    Report {
        title: "Northwind quarterly risk review".into(),
        subtitle: "Account NW-2231 · Q4 2026".into(),
        generated: "Generated 2026-11-28 10:00 New York".into(),
        sections: vec![
            Section::Figures {
                heading: "Key figures".into(),
                items: vec![
                    Figure { label: "Net liquidation".into(), value: "$1,204,330".into() },
                    Figure { label: "Net delta".into(), value: "+42.5".into() },
                    Figure { label: "Win rate".into(), value: "61.2%".into() },
                    Figure { label: "Sharpe ratio".into(), value: "0.84".into() },
                    Figure { label: "Max drawdown".into(), value: "-7.9%".into() },
                ],
            },
            Section::LineChart {
                heading: "Equity vs benchmark".into(),
                series: vec![Series { label: "Equity".into(), points: equity }, Series { label: "Benchmark".into(), points: benchmark }],
                x_labels: vec!["2026-09-01".into(), "2026-10-15".into(), "2026-11-28".into()],
                y_suffix: "k".into(),
            },
            Section::Bars {
                heading: "Risk by symbol".into(),
                bars: vec![
                    Bar { label: "AAPL".into(), value: 1250.0, text: "$1,250".into() },
                    Bar { label: "TSLA".into(), value: -830.0, text: "-$830".into() },
                    Bar { label: "SPY".into(), value: 410.0, text: "$410".into() },
                    Bar { label: "NVDA".into(), value: -95.0, text: "-$95".into() },
                ],
            },
            Section::Table {
                heading: "Open positions".into(),
                columns: vec![
                    Column { label: "Position".into(), align: Align::Left, width: 1.2 },
                    Column { label: "Symbol".into(), align: Align::Left, width: 1.0 },
                    Column { label: "Strategy".into(), align: Align::Left, width: 2.2 },
                    Column { label: "Qty".into(), align: Align::Right, width: 0.7 },
                    Column { label: "Delta".into(), align: Align::Right, width: 0.9 },
                    Column { label: "P&L".into(), align: Align::Right, width: 1.3 },
                ],
                rows,
                empty: "No open positions.".into(),
            },
            Section::Table {
                heading: "Closed this week".into(),
                columns: vec![Column { label: "Position".into(), align: Align::Left, width: 1.0 }],
                rows: vec![],
                empty: "No positions were closed this week.".into(),
            },
            Section::Paragraph {
                heading: Some("Notes".into()),
                text: "Fees are charged in € — see the schedule. Quotes in 日本 markets are not covered.\n\nThis review covers \
                       listed equity options only; figures are marked at the close."
                    .into(),
            },
        ],
    }
}

/// A rendered file in the temporary directory, removed when dropped.
struct TempPdf(PathBuf);

impl TempPdf {
    fn new(name: &str, bytes: &[u8]) -> TempPdf {
        let path = std::env::temp_dir().join(format!("reports-test-{}-{name}.pdf", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempPdf(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempPdf {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs a poppler tool and returns its standard output; fails the test when the tool is
/// missing or fails.
fn poppler(tool: &str, args: &[&str]) -> String {
    let output = Command::new(tool).args(args).output().unwrap_or_else(|e| {
        panic!("could not run `{tool}` ({e}): these tests need poppler's tools; install them with `apt-get install -y poppler-utils`")
    });
    assert!(output.status.success(), "`{tool} {}` failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn info_field(info: &str, field: &str) -> String {
    info.lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .unwrap_or_else(|| panic!("pdfinfo has no {field}:\n{info}"))
        .trim()
        .to_owned()
}

/// `pdfimages -list` rows as (page, type, width, height, colour).
fn images(pdf: &TempPdf) -> Vec<(usize, String, u32, u32, String)> {
    poppler("pdfimages", &["-list", pdf.path()])
        .lines()
        .skip(2)
        .map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            (cols[0].parse().unwrap(), cols[2].to_owned(), cols[3].parse().unwrap(), cols[4].parse().unwrap(), cols[5].to_owned())
        })
        .collect()
}

fn page_of(pages: &[&str], needle: &str) -> usize {
    pages.iter().position(|p| p.contains(needle)).unwrap_or_else(|| panic!("{needle:?} is on no page")) + 1
}

#[test]
fn white_label_report_reads_back_without_the_house_name() {
    let logo = Logo::from_png(&logo_png(png::ColorType::Rgba)).unwrap();
    assert!(logo.has_alpha());
    let report = sample_report();
    let bytes = render(&report, &white_label(Some(logo)));
    assert!(bytes.starts_with(b"%PDF-1.7"));
    let pdf = TempPdf::new("white-label", &bytes);

    let info = poppler("pdfinfo", &[pdf.path()]);
    let pages: usize = info_field(&info, "Pages").parse().unwrap();
    assert!(pages > 1, "{info}");
    assert_eq!(info_field(&info, "Title"), "Northwind quarterly risk review");
    assert_eq!(info_field(&info, "Author"), "Northwind Capital");
    assert_eq!(info_field(&info, "Producer"), "Northwind Capital");
    assert_eq!(info_field(&info, "Page size"), "612 x 792 pts (letter)");

    let text = poppler("pdftotext", &["-layout", pdf.path(), "-"]);
    let by_page: Vec<&str> = text.split('\u{c}').filter(|p| !p.trim().is_empty()).collect();
    assert_eq!(by_page.len(), pages);
    for (i, page) in by_page.iter().enumerate() {
        assert!(page.contains("Northwind Capital"), "page {}: no brand name", i + 1);
        assert!(page.contains("Northwind quarterly risk review"), "page {}: no title in the header", i + 1);
        assert!(page.contains(&format!("Page {} of {pages}", i + 1)), "page {}: no page label\n{page}", i + 1);
        assert!(page.contains("Past performance"), "page {}: no footer", i + 1);
    }
    assert!(text.contains("Account NW-2231 · Q4 2026") && text.contains("Generated 2026-11-28 10:00 New York"));
    for value in ["$1,204,330", "+42.5", "61.2%", "0.84", "-7.9%", "Net liquidation", "Sharpe ratio"] {
        assert!(by_page[0].contains(value), "{value:?} not on page 1");
    }
    // The chart's legend, x labels and a round y label; the bars' labels and values.
    for chart_text in ["Equity", "Benchmark", "2026-09-01", "2026-10-15", "2026-11-28", "100k", "$1,250", "-$830", "TSLA"] {
        assert!(text.contains(chart_text), "{chart_text:?} missing");
    }

    // The table runs over pages, its header repeated, its rows in order.
    let first = page_of(&by_page, "POS-001");
    let last = page_of(&by_page, "POS-120");
    assert!(last > first, "120 rows on one page?");
    assert_eq!(page_of(&by_page, "POS-002"), first);
    assert_eq!(page_of(&by_page, "POS-119"), last);
    for p in first..=last {
        assert!(by_page[p - 1].contains("Strategy") && by_page[p - 1].contains("P&L"), "page {p}: no table header");
    }
    assert!(by_page[first].contains("Open positions (continued)"));
    // Cells: right-aligned numbers read back whole, the over-long one is cut with dots.
    assert!(text.contains("€1,007.50") && text.contains("€120,840.50"), "money cells");
    assert!(!text.contains(LONG_STRATEGY) && text.contains("Iron condor with"), "long cell kept whole");
    let cut = text.lines().find(|l| l.contains("POS-007")).unwrap();
    assert!(cut.contains("..."), "{cut}");
    assert!(text.contains("No positions were closed this week."));

    // WinAnsi text reads back; what it lacks is a '?'.
    assert!(text.contains("Fees are charged in € — see the schedule."), "{text}");
    assert!(text.contains("Quotes in ?? markets"));
    assert!(text.contains("figures are marked at the close."));

    // Nothing names the house: not the text, not the bytes (metadata, fonts, comments).
    assert!(!text.to_lowercase().contains("strikeline"));
    assert!(!bytes.to_ascii_lowercase().windows(10).any(|w| w == b"strikeline"));

    // The logo, and its soft mask, on every page, at its pixel size.
    let listed = images(&pdf);
    assert_eq!(listed.len(), 2 * pages, "{listed:?}");
    for page in 1..=pages {
        assert!(listed.contains(&(page, "image".into(), LOGO_WIDTH, LOGO_HEIGHT, "rgb".into())), "{listed:?}");
        assert!(listed.contains(&(page, "smask".into(), LOGO_WIDTH, LOGO_HEIGHT, "gray".into())), "{listed:?}");
    }
}

#[test]
fn words_stay_inside_the_margins_and_apart() {
    let logo = Logo::from_png(&logo_png(png::ColorType::Rgba)).unwrap();
    let pdf = TempPdf::new("margins", &render(&sample_report(), &white_label(Some(logo))));
    let html = poppler("pdftotext", &["-bbox", pdf.path(), "-"]);
    let attr = |tag: &str, name: &str| -> f32 {
        let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[start..].split('"').next().unwrap().parse().unwrap()
    };
    let mut words = 0;
    for (p, page) in html.split("<page ").skip(1).enumerate() {
        let mut boxes: Vec<(&str, [f32; 4])> = Vec::new();
        for tag in page.split("<word ").skip(1) {
            let word = tag.split('>').nth(1).unwrap_or_default().split('<').next().unwrap_or_default();
            let b = [attr(tag, "xMin"), attr(tag, "yMin"), attr(tag, "xMax"), attr(tag, "yMax")];
            assert!(b[0] >= 47.5 && b[2] <= 612.0 - 47.5, "page {}: {word:?} crosses a side margin: {b:?}", p + 1);
            assert!(b[1] >= 47.5 && b[3] <= 792.0 - 47.5, "page {}: {word:?} crosses the top or bottom margin: {b:?}", p + 1);
            for (other, o) in &boxes {
                let overlap_x = b[2].min(o[2]) - b[0].max(o[0]);
                let overlap_y = b[3].min(o[3]) - b[1].max(o[1]);
                assert!(overlap_x <= 0.5 || overlap_y <= 0.5, "page {}: {word:?} {b:?} overlaps {other:?} {o:?}", p + 1);
            }
            boxes.push((word, b));
            words += 1;
        }
    }
    assert!(words > 500, "only {words} words");
}

#[test]
fn house_brand_report_names_strikeline() {
    let report = Report {
        title: "Weekly digest".into(),
        subtitle: String::new(),
        generated: "Generated 2026-11-28 10:00 New York".into(),
        sections: vec![Section::Paragraph { heading: None, text: "Quiet week.".into() }],
    };
    let bytes = render(&report, &Brand::strikeline());
    let pdf = TempPdf::new("house", &bytes);
    let info = poppler("pdfinfo", &[pdf.path()]);
    assert_eq!(info_field(&info, "Pages"), "1");
    assert_eq!(info_field(&info, "Author"), "Strikeline");
    let text = poppler("pdftotext", &["-layout", pdf.path(), "-"]);
    assert!(text.contains("Strikeline"));
    assert!(text.contains("Strikeline · Signals and risk analytics for options traders. Not investment advice."), "{text}");
    assert!(text.contains("Page 1 of 1") && text.contains("Quiet week."));
    assert!(images(&pdf).is_empty(), "no logo, no image");
}

#[test]
fn grey_logo_is_embedded_without_a_mask() {
    let logo = Logo::from_png(&logo_png(png::ColorType::Grayscale)).unwrap();
    let report = Report { title: "T".into(), subtitle: String::new(), generated: String::new(), sections: vec![] };
    let pdf = TempPdf::new("grey", &render(&report, &white_label(Some(logo))));
    assert_eq!(images(&pdf), vec![(1, "image".into(), LOGO_WIDTH, LOGO_HEIGHT, "gray".into())]);
}

#[test]
fn degenerate_sections_still_render() {
    let flat = |label: &str, points: Vec<f64>| Series { label: label.into(), points };
    let report = Report {
        title: String::new(),
        subtitle: String::new(),
        generated: String::new(),
        sections: vec![
            Section::Figures { heading: String::new(), items: vec![] },
            Section::Table { heading: "No columns".into(), columns: vec![], rows: vec![vec!["x".into()]], empty: "Nothing.".into() },
            Section::LineChart { heading: "Nothing to plot".into(), series: vec![], x_labels: vec![], y_suffix: String::new() },
            Section::LineChart {
                heading: "Flat, single and broken".into(),
                series: vec![
                    flat("flat", vec![3.0; 10]),
                    flat("one", vec![2.0]),
                    flat("gaps", vec![f64::NAN, 1.0, f64::INFINITY, 4.0, 5.0]),
                    flat("none", vec![f64::NAN]),
                    flat("zero", vec![0.0, 0.0]),
                ],
                x_labels: vec!["only".into()],
                y_suffix: "%".into(),
            },
            Section::LineChart {
                heading: "All NaN".into(),
                series: vec![flat("nan", vec![f64::NAN; 3])],
                x_labels: vec![],
                y_suffix: String::new(),
            },
            Section::Bars { heading: "Empty".into(), bars: vec![] },
            Section::Bars {
                heading: "Zero and negative".into(),
                bars: vec![
                    Bar { label: String::new(), value: 0.0, text: String::new() },
                    Bar { label: "x".into(), value: -1.0, text: "-1".into() },
                ],
            },
            Section::Bars { heading: "NaN".into(), bars: vec![Bar { label: "n".into(), value: f64::NAN, text: "n/a".into() }] },
            Section::Paragraph { heading: Some(String::new()), text: String::new() },
        ],
    };
    let brand = Brand { name: String::new(), footer: String::new(), ..white_label(None) };
    let bytes = render(&report, &brand);
    let pdf = TempPdf::new("degenerate", &bytes);
    let info = poppler("pdfinfo", &[pdf.path()]);
    let pages: usize = info_field(&info, "Pages").parse().unwrap();
    assert!((1..=4).contains(&pages), "{pages} pages");
    let text = poppler("pdftotext", &["-layout", pdf.path(), "-"]);
    assert!(text.contains("No data") && text.contains("Nothing.") && text.contains("n/a"), "{text}");
    assert!(text.contains(&format!("Page 1 of {pages}")) && text.contains(&format!("Page {pages} of {pages}")));
}

#[test]
fn rendering_is_deterministic_and_compressed() {
    let logo = Logo::from_png(&logo_png(png::ColorType::Rgba)).unwrap();
    let brand = white_label(Some(logo));
    let a = render(&sample_report(), &brand);
    let b = render(&sample_report(), &brand);
    assert_eq!(a, b);
    // Streams are deflated: no drawing operator or table cell in clear.
    assert!(a.windows(7).any(|w| w == b"/Filter"));
    assert!(!a.windows(7).any(|w| w == b"POS-001"));
    assert!(a.len() < 120_000, "{} bytes", a.len());
}
