//! Writes a sample portfolio report, to look at the layout:
//!
//! ```sh
//! cargo run -p strikeline-reports --example sample -- /tmp/reports-sample.pdf          # white label, with logo
//! cargo run -p strikeline-reports --example sample -- /tmp/house.pdf --house           # the house brand
//! pdftoppm -png -r 60 -f 1 -l 1 /tmp/reports-sample.pdf /tmp/reports-sample
//! ```

use strikeline_reports::{Align, Bar, Brand, Column, Figure, Logo, Report, Rgb, Section, Series, render};

/// A 160 x 48 RGBA logo: a violet disc with a lighter ring on a transparent ground.
fn logo() -> Result<Logo, Box<dyn std::error::Error>> {
    let (w, h) = (48u32, 48u32);
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (x as f32 - 23.5, y as f32 - 23.5);
            let r = (dx * dx + dy * dy).sqrt();
            let alpha = (23.5 - r).clamp(0.0, 1.0);
            let (cr, cg, cb) = if r < 12.0 {
                (124, 58, 237)
            } else if r < 16.0 {
                (221, 214, 254)
            } else {
                (91, 33, 182)
            };
            data.extend_from_slice(&[cr, cg, cb, (alpha * 255.0) as u8]);
        }
    }
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&data)?;
    writer.finish()?;
    Ok(Logo::from_png(&png)?)
}

/// Whole dollars with a sign and thousands separators: `-$1,313`, `+$889`.
fn money(v: f64, plus: bool) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if v < 0.0 && digits != "0" {
        "-"
    } else if plus {
        "+"
    } else {
        ""
    };
    format!("{sign}${grouped}")
}

fn report() -> Report {
    let symbols = ["AAPL", "MSFT", "NVDA", "SPY", "QQQ", "TSLA", "AMZN", "META", "GOOGL", "IWM"];
    let strategies = ["Covered call", "Bull put spread", "Iron condor", "Long straddle", "Cash-secured put", "Calendar spread"];
    let rows = (0..42)
        .map(|i| {
            let symbol = symbols[i % symbols.len()];
            let pnl = ((i as f64 * 1.7).sin() * 1800.0).round();
            vec![
                symbol.to_owned(),
                strategies[i % strategies.len()].to_owned(),
                format!("2026-12-{:02}", 1 + i % 28),
                format!("{}", 1 + i % 5),
                format!("{:+.2}", (i as f64 * 0.9).cos() * 0.6),
                money(pnl, true),
            ]
        })
        .collect();
    let equity: Vec<f64> = (0..120).map(|i| (i as f64 / 11.0).sin() * 2.5 + i as f64 * 0.09).collect();
    let benchmark: Vec<f64> = (0..120).map(|i| (i as f64 / 17.0).cos() * 1.5 - 1.5 + i as f64 * 0.05).collect();
    Report {
        title: "Portfolio risk review".into(),
        subtitle: "Account NW-2231 · Options income strategy · Q4 2026".into(),
        generated: "Generated 2026-11-28 10:00 New York".into(),
        sections: vec![
            Section::Figures {
                heading: "Key figures".into(),
                items: vec![
                    Figure { label: "Net liquidation".into(), value: "$1,204,330".into() },
                    Figure { label: "Return, quarter to date".into(), value: "+8.4%".into() },
                    Figure { label: "Net delta".into(), value: "+42.5".into() },
                    Figure { label: "Net theta / day".into(), value: "$312".into() },
                    Figure { label: "Win rate".into(), value: "61.2%".into() },
                    Figure { label: "Sharpe ratio".into(), value: "1.34".into() },
                    Figure { label: "Max drawdown".into(), value: "-7.9%".into() },
                    Figure { label: "Open positions".into(), value: "42".into() },
                ],
            },
            Section::LineChart {
                heading: "Cumulative return vs benchmark".into(),
                series: vec![Series { label: "Portfolio".into(), points: equity }, Series { label: "S&P 500".into(), points: benchmark }],
                x_labels: vec!["Aug 1".into(), "Sep 30".into(), "Nov 28".into()],
                y_suffix: "%".into(),
            },
            Section::Bars {
                heading: "Risk by symbol (1-day 95% VaR contribution)".into(),
                bars: symbols
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let v = ((i as f64 + 1.0) * 2.3).sin() * 1500.0;
                        Bar { label: (*s).into(), value: v, text: money(v, false) }
                    })
                    .collect(),
            },
            Section::Table {
                heading: "Open positions".into(),
                columns: vec![
                    Column { label: "Symbol".into(), align: Align::Left, width: 0.9 },
                    Column { label: "Strategy".into(), align: Align::Left, width: 1.8 },
                    Column { label: "Expiry".into(), align: Align::Left, width: 1.1 },
                    Column { label: "Qty".into(), align: Align::Right, width: 0.6 },
                    Column { label: "Delta".into(), align: Align::Right, width: 0.8 },
                    Column { label: "Unrealised P&L".into(), align: Align::Right, width: 1.2 },
                ],
                rows,
                empty: "No open positions.".into(),
            },
            Section::Paragraph {
                heading: Some("Methodology".into()),
                text: "Returns are time-weighted and net of fees charged in € or $ — whichever the account is held in. \
                       Value at risk is a one-day, 95% historical simulation over the last 500 sessions; the bars show each \
                       symbol's contribution, so hedges appear as negative risk. Greeks are marked at the close with the \
                       quoted implied volatility of each contract."
                    .into(),
            },
        ],
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.iter().find(|a| !a.starts_with("--")).cloned().unwrap_or_else(|| "reports-sample.pdf".into());
    let brand = if args.iter().any(|a| a == "--house") {
        Brand::strikeline()
    } else {
        Brand {
            name: "Northwind Capital".into(),
            primary: Rgb::parse_hex("#5b21b6").ok_or("colour")?,
            accent: Rgb::parse_hex("#0d9488").ok_or("colour")?,
            footer: "Northwind Capital · Research for professional investors. Past performance is not a reliable guide to future \
                     returns."
                .into(),
            logo: Some(logo()?),
        }
    };
    let pdf = render(&report(), &brand);
    std::fs::write(&path, &pdf)?;
    println!("{path}: {} bytes", pdf.len());
    Ok(())
}
