//! `strikeline price` and `strikeline iv` (European, or `--style american`): one JSON object per
//! input line, one per output line, so the numbers can be scripted and compared with other
//! libraries.
//!
//! A bad line writes `{"error": "…"}` in its place and the rest go on; the caller exits 1 if
//! any line failed. Blank lines are skipped.

use std::io::{self, BufRead, Write};

use serde::Deserialize;
use serde_json::json;
use strikeline_quant::american::American;
use strikeline_quant::{BlackScholes, IvInputs, OptionInputs, OptionType, Valuation, implied_volatility};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceLine {
    #[serde(rename = "type")]
    kind: String,
    spot: f64,
    strike: f64,
    years: f64,
    #[serde(default)]
    rate: f64,
    #[serde(default)]
    dividend: f64,
    vol: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IvLine {
    #[serde(rename = "type")]
    kind: String,
    spot: f64,
    strike: f64,
    years: f64,
    #[serde(default)]
    rate: f64,
    #[serde(default)]
    dividend: f64,
    price: f64,
}

/// A tool that turns one input (a line, or a whole file) into one JSON answer or an error.
pub type Tool = fn(&str) -> Result<serde_json::Value, String>;

fn parse<T: for<'de> Deserialize<'de>>(line: &str) -> Result<T, String> {
    serde_json::from_str(line).map_err(|e| format!("invalid input: {e}"))
}

fn kind(text: &str) -> Result<OptionType, String> {
    text.parse::<OptionType>().map_err(|e| e.to_string())
}

/// The inputs of a price line.
fn price_inputs(line: &str) -> Result<(OptionType, OptionInputs), String> {
    let input: PriceLine = parse(line)?;
    let kind = kind(&input.kind)?;
    let inputs = OptionInputs {
        spot: input.spot,
        strike: input.strike,
        rate: input.rate,
        dividend_yield: input.dividend,
        volatility: input.vol,
        time_to_expiry: input.years,
    };
    Ok((kind, inputs))
}

fn valuation_json(v: Valuation) -> serde_json::Value {
    json!({
        "price": v.price,
        "delta": v.greeks.delta,
        "gamma": v.greeks.gamma,
        "vega": v.greeks.vega,
        "theta": v.greeks.theta,
        "rho": v.greeks.rho,
    })
}

/// Prices one line (European): price and the five Greeks in the crate's conventions (vega per
/// 1.00 of volatility, theta per year, rho per 1.00 of rate).
pub fn price_line(line: &str) -> Result<serde_json::Value, String> {
    let (kind, inputs) = price_inputs(line)?;
    let model = BlackScholes::new(inputs).map_err(|e| e.to_string())?;
    Ok(valuation_json(model.valuation(kind)))
}

/// Prices one line as an American option (`--style american`), with the early-exercise premium
/// and the critical price (`null` when early exercise never pays).
pub fn american_price_line(line: &str) -> Result<serde_json::Value, String> {
    let (kind, inputs) = price_inputs(line)?;
    let engine = American::new(inputs).map_err(|e| e.to_string())?;
    let mut answer = valuation_json(engine.valuation(kind));
    answer["earlyExercisePremium"] = json!(engine.early_exercise_premium(kind));
    answer["criticalPrice"] = json!(engine.critical_price(kind));
    Ok(answer)
}

fn iv_inputs(line: &str) -> Result<(OptionType, IvInputs), String> {
    let input: IvLine = parse(line)?;
    let kind = kind(&input.kind)?;
    let inputs = IvInputs {
        price: input.price,
        spot: input.spot,
        strike: input.strike,
        rate: input.rate,
        dividend_yield: input.dividend,
        time_to_expiry: input.years,
    };
    Ok((kind, inputs))
}

/// Solves one line for implied volatility (European).
pub fn iv_line(line: &str) -> Result<serde_json::Value, String> {
    let (kind, inputs) = iv_inputs(line)?;
    let iv = implied_volatility(kind, inputs).map_err(|e| e.to_string())?;
    Ok(json!({ "iv": iv }))
}

/// Solves one line for the American implied volatility (`--style american`).
pub fn american_iv_line(line: &str) -> Result<serde_json::Value, String> {
    let (kind, inputs) = iv_inputs(line)?;
    let iv = strikeline_quant::american::implied_volatility(kind, inputs).map_err(|e| e.to_string())?;
    Ok(json!({ "iv": iv }))
}

/// Runs `each` over every non-blank line; returns whether every line succeeded.
pub fn run_lines(input: impl BufRead, mut out: impl Write, each: Tool) -> io::Result<bool> {
    let mut all_ok = true;
    for (number, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = each(&line).unwrap_or_else(|error| {
            all_ok = false;
            json!({ "error": format!("line {}: {error}", number + 1) })
        });
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    Ok(all_ok)
}

/// Reads one numeric column named `column` from CSV text (header row first). Errors name the
/// line and column of the bad cell.
pub fn read_column(text: &str, column: &str) -> Result<Vec<f64>, String> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().ok_or("the file is empty; expected a header row")?;
    let index = header
        .split(',')
        .position(|h| h.trim().trim_matches('"').eq_ignore_ascii_case(column))
        .ok_or_else(|| format!("line 1: no column named `{column}` in the header"))?;
    lines
        .map(|(n, line)| {
            let cell = line.split(',').nth(index).ok_or_else(|| format!("line {}, column {}: missing value", n + 1, index + 1))?;
            let cell = cell.trim().trim_matches('"');
            match cell.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!("line {}, column {}: `{cell}` is not a number", n + 1, index + 1)),
            }
        })
        .collect()
}

/// `strikeline stats --returns`: statistics of daily simple returns (risk-free rate 0).
pub fn return_stats(text: &str) -> Result<serde_json::Value, String> {
    let returns = read_column(text, "return")?;
    let stats = strikeline_quant::stats::DailyReturns::new(&returns).map_err(|e| e.to_string())?.stats(0.0);
    Ok(json!({
        "periods": returns.len(),
        "sharpe": stats.sharpe,
        "sortino": stats.sortino,
        "max_drawdown": stats.max_drawdown,
        "cagr": stats.cagr,
        "calmar": stats.calmar,
        "volatility": stats.annualized_volatility,
        "cumulative_return": stats.cumulative_return,
    }))
}

/// `strikeline stats --trades`: statistics of trade P&Ls. Losses keep their minus sign.
pub fn trade_stats(text: &str) -> Result<serde_json::Value, String> {
    let pnls = read_column(text, "pnl")?;
    let t = strikeline_quant::stats::TradeStats::new(&pnls).map_err(|e| e.to_string())?;
    Ok(json!({
        "trades": t.trades,
        "wins": t.wins,
        "losses": t.losses,
        "win_rate": t.win_rate,
        "gross_profit": t.gross_profit,
        "gross_loss": t.gross_loss,
        "net_profit": t.net_profit,
        "profit_factor": t.profit_factor,
        "max_drawdown": t.max_drawdown,
        "recovery_factor": t.recovery_factor,
        "largest_win": t.largest_win,
        "largest_loss": t.largest_loss,
        "average_win": t.average_win,
        "average_loss": t.average_loss,
        "expectancy": t.expectancy,
        "longest_winning_streak": t.longest_winning_streak,
        "longest_losing_streak": t.longest_losing_streak,
    }))
}

/// The header `strikeline indicators` writes.
pub const INDICATOR_HEADER: &str = "date,rsi14,sma20,ema20,bb_upper,bb_middle,bb_lower,macd,macd_signal,macd_hist,atr14,hv20";

/// `strikeline indicators`: bars CSV (`date,open,high,low,close,volume`, header first) in,
/// indicator CSV out, one row per bar, empty cells while an indicator is not yet defined.
pub fn indicators_csv(text: &str) -> Result<String, String> {
    use strikeline_quant::indicators::{Atr, Bar, Bollinger, Ema, HistoricalVolatility, Macd, Next, Rsi, Sma};
    let built = || -> Result<_, strikeline_quant::InputError> {
        Ok((
            Rsi::new(14)?,
            Sma::new(20)?,
            Ema::new(20)?,
            Bollinger::new(20, 2.0)?,
            Macd::new(12, 26, 9)?,
            Atr::new(14)?,
            HistoricalVolatility::new(20)?,
        ))
    };
    let (mut rsi, mut sma, mut ema, mut bb, mut macd, mut atr, mut hv) = built().map_err(|e| e.to_string())?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().ok_or("the file is empty; expected a header row")?;
    let names: Vec<String> = header.split(',').map(|h| h.trim().trim_matches('"').to_ascii_lowercase()).collect();
    let find = |name: &str| names.iter().position(|h| h == name).ok_or_else(|| format!("line 1: no column named `{name}` in the header"));
    let columns = [find("date")?, find("open")?, find("high")?, find("low")?, find("close")?, find("volume")?];
    let cell = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    let mut out = String::from(INDICATOR_HEADER);
    out.push('\n');
    for (n, line) in lines {
        let cells: Vec<&str> = line.split(',').map(|c| c.trim().trim_matches('"')).collect();
        let mut values = [0.0_f64; 5];
        for (k, &col) in columns[1..].iter().enumerate() {
            let raw = cells.get(col).ok_or_else(|| format!("line {}, column {}: missing value", n + 1, col + 1))?;
            values[k] = raw
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("line {}, column {}: `{raw}` is not a non-negative number", n + 1, col + 1))?;
        }
        let [open, high, low, close, volume] = values;
        if high < low || close > high || close < low || open > high || open < low {
            return Err(format!("line {}: high must be the highest and low the lowest of the bar", n + 1));
        }
        let date = cells.get(columns[0]).copied().unwrap_or_default();
        let bar = Bar { open, high, low, close, volume };
        let bands = bb.next(close);
        let m = macd.next(close);
        let row = [
            cell(rsi.next(close)),
            cell(sma.next(close)),
            cell(ema.next(close)),
            cell(bands.map(|b| b.upper)),
            cell(bands.map(|b| b.middle)),
            cell(bands.map(|b| b.lower)),
            cell(m.map(|m| m.macd)),
            cell(m.map(|m| m.signal)),
            cell(m.map(|m| m.histogram)),
            cell(atr.next(&bar)),
            cell(hv.next(close)),
        ];
        out.push_str(date);
        for value in row {
            out.push(',');
            out.push_str(&value);
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str, each: Tool) -> (bool, Vec<serde_json::Value>) {
        let mut out = Vec::new();
        let ok = run_lines(input.as_bytes(), &mut out, each).expect("io");
        let lines = String::from_utf8(out).expect("utf8").lines().map(|l| serde_json::from_str(l).expect("json")).collect();
        (ok, lines)
    }

    #[test]
    fn hulls_example_prices_to_the_published_cents() {
        let (ok, lines) = run(
            r#"{"type":"call","spot":42,"strike":40,"years":0.5,"rate":0.1,"dividend":0,"vol":0.2}
{"type":"put","spot":42,"strike":40,"years":0.5,"rate":0.1,"dividend":0,"vol":0.2}"#,
            price_line,
        );
        assert!(ok);
        assert!((lines[0]["price"].as_f64().unwrap() - 4.76).abs() < 0.005);
        assert!((lines[1]["price"].as_f64().unwrap() - 0.81).abs() < 0.005);
        assert!(lines[0]["delta"].as_f64().unwrap() > 0.0 && lines[1]["delta"].as_f64().unwrap() < 0.0);
    }

    #[test]
    fn a_straddle_is_the_sum_of_its_legs() {
        let leg = |t: &str| format!(r#"{{"type":"{t}","spot":100,"strike":100,"years":0.25,"rate":0.03,"dividend":0.01,"vol":0.3}}"#);
        let (_, lines) = run(&format!("{}\n{}\n{}", leg("call"), leg("put"), leg("straddle")), price_line);
        for field in ["price", "delta", "gamma", "vega", "theta", "rho"] {
            let sum = lines[0][field].as_f64().unwrap() + lines[1][field].as_f64().unwrap();
            assert!((sum - lines[2][field].as_f64().unwrap()).abs() < 1e-12, "{field}");
        }
    }

    #[test]
    fn implied_volatility_recovers_the_pricing_volatility() {
        let (_, priced) = run(r#"{"type":"put","spot":100,"strike":90,"years":0.1,"rate":0.02,"dividend":0,"vol":0.35}"#, price_line);
        let price = priced[0]["price"].as_f64().unwrap();
        let line = format!(r#"{{"type":"put","spot":100,"strike":90,"years":0.1,"rate":0.02,"dividend":0,"price":{price}}}"#);
        let (ok, lines) = run(&line, iv_line);
        assert!(ok);
        assert!((lines[0]["iv"].as_f64().unwrap() - 0.35).abs() < 1e-10);
    }

    #[test]
    fn bad_lines_report_an_error_in_place_and_the_rest_go_on() {
        let input = "{\"type\":\"call\",\"spot\":-1,\"strike\":40,\"years\":0.5,\"vol\":0.2}\n\nnot json\n\
                     {\"type\":\"swap\",\"spot\":1,\"strike\":1,\"years\":1,\"vol\":0.2}\n\
                     {\"type\":\"call\",\"spot\":42,\"strike\":40,\"years\":0.5,\"vol\":0.2}\n";
        let (ok, lines) = run(input, price_line);
        assert!(!ok);
        assert_eq!(lines.len(), 4, "blank lines are skipped");
        assert!(lines[0]["error"].as_str().unwrap().starts_with("line 1:"));
        assert!(lines[1]["error"].as_str().unwrap().starts_with("line 3:"));
        assert!(lines[2]["error"].is_string());
        assert!(lines[3]["price"].is_number());
        let (ok, lines) = run(r#"{"type":"call","spot":100,"strike":100,"years":0.5,"price":150}"#, iv_line);
        assert!(!ok);
        assert!(lines[0]["error"].as_str().unwrap().contains("bound"), "{}", lines[0]);
    }
    #[test]
    fn trade_statistics_come_from_the_pnl_column() {
        let stats = trade_stats("date,pnl\n2025-01-02,100\n2025-01-03,-50\n\n2025-01-06,150\n").expect("stats");
        assert_eq!(stats["trades"], 3);
        assert_eq!(stats["net_profit"], 200.0);
        assert_eq!(stats["profit_factor"], 5.0);
        assert_eq!(stats["longest_winning_streak"], 1);
    }

    #[test]
    fn return_statistics_compound_the_returns() {
        let stats = return_stats("return\n0.10\n-0.05\n").expect("stats");
        let cumulative = stats["cumulative_return"].as_f64().unwrap();
        assert!((cumulative - (1.10 * 0.95 - 1.0)).abs() < 1e-12);
        assert!((stats["max_drawdown"].as_f64().unwrap() + 0.05).abs() < 1e-12);
    }

    #[test]
    fn malformed_files_name_the_line_and_column() {
        assert_eq!(read_column("a,pnl\n1,2\n3,x\n", "pnl").unwrap_err(), "line 3, column 2: `x` is not a number");
        assert_eq!(read_column("a,pnl\n1\n", "pnl").unwrap_err(), "line 2, column 2: missing value");
        assert!(read_column("a,b\n1,2\n", "pnl").unwrap_err().starts_with("line 1: no column named `pnl`"));
        assert!(read_column("", "pnl").is_err());
        assert!(read_column("pnl\nNaN\n", "pnl").is_err());
    }

    #[test]
    fn indicators_fill_in_after_their_lookback_and_match_a_direct_sma() {
        let mut csv = String::from("date,open,high,low,close,volume\n");
        let closes: Vec<f64> = (0..40).map(|i| 100.0 + (i as f64 * 0.7).sin() * 5.0 + i as f64 * 0.1).collect();
        for (i, c) in closes.iter().enumerate() {
            csv.push_str(&format!("2025-01-{:02},{c},{},{},{c},1000\n", i + 1, c + 1.0, c - 1.0));
        }
        let out = indicators_csv(&csv).expect("indicators");
        let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(rows[0].join(","), INDICATOR_HEADER);
        assert_eq!(rows.len(), 41);
        assert_eq!(rows[19][2], "", "sma20 is undefined before the 20th bar");
        let sma: f64 = rows[20][2].parse().expect("sma20 on the 20th bar");
        assert!((sma - closes[..20].iter().sum::<f64>() / 20.0).abs() < 1e-9);
        assert_eq!(rows[14][1], "", "rsi14 needs 14 changes");
        assert!(rows[15][1].parse::<f64>().is_ok());
        assert!(rows[40][7].parse::<f64>().is_ok(), "macd defined after 26 bars");
    }

    #[test]
    fn malformed_bars_name_the_line_and_column() {
        let err = indicators_csv("date,open,high,low,close,volume\n2025-01-02,1,2,0.5,1.5,10\n2025-01-03,1,2,x,1,10\n").unwrap_err();
        assert_eq!(err, "line 3, column 4: `x` is not a non-negative number");
        assert!(indicators_csv("date,close\n").unwrap_err().contains("no column named `open`"));
        assert!(indicators_csv("date,open,high,low,close,volume\nd,1,1,2,1,1\n").unwrap_err().contains("highest"));
    }

    #[test]
    fn american_lines_carry_the_premium_and_the_critical_price() {
        let line = r#"{"type":"put","spot":90,"strike":100,"years":1,"rate":0.06,"dividend":0,"vol":0.3}"#;
        let (ok, lines) = run(line, american_price_line);
        assert!(ok);
        let european = price_line(line).expect("european");
        assert!(lines[0]["price"].as_f64().unwrap() > european["price"].as_f64().unwrap());
        assert!(lines[0]["earlyExercisePremium"].as_f64().unwrap() > 0.0);
        assert!(lines[0]["criticalPrice"].as_f64().is_some_and(|b| b < 90.0));
        let price = lines[0]["price"].as_f64().unwrap();
        let iv_line = format!(r#"{{"type":"put","spot":90,"strike":100,"years":1,"rate":0.06,"dividend":0,"price":{price}}}"#);
        let (_, iv) = run(&iv_line, american_iv_line);
        assert!((iv[0]["iv"].as_f64().unwrap() - 0.3).abs() < 1e-7, "{iv:?}");
        // A negative rate is an error line naming the rate.
        let (ok, bad) = run(r#"{"type":"put","spot":90,"strike":100,"years":1,"rate":-0.01,"dividend":0,"vol":0.3}"#, american_price_line);
        assert!(!ok);
        assert!(bad[0]["error"].as_str().is_some_and(|e| e.contains("rate")), "{bad:?}");
    }
}
