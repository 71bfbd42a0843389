//! CSV price history: a good file, each kind of bad row with its line number, all or nothing.

use chrono::NaiveDate;
use strikeline_market::csv_import::{CsvError, CsvProblem, MAX_ERRORS, parse_prices_csv};

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

const HEADER: &str = "symbol,date,open,high,low,close,volume";

fn errors_of(text: &str) -> Vec<CsvError> {
    parse_prices_csv(text).expect_err("the file has errors")
}

/// The only error of a file whose one data row (line 2) is `row`.
fn problem_of_row(row: &str) -> CsvProblem {
    let errors = errors_of(&format!("{HEADER}\n{row}\n"));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].line, 2);
    errors[0].problem.clone()
}

#[test]
fn a_good_file_reads_back_sorted_by_symbol_and_date() {
    let text = "\u{feff}Symbol,Date,Open,High,Low,Close,Volume\r\n\
                msft,2024-01-03,369.01,373.26,368.51,370.60,23083465\r\n\
                AAPL,2024-01-03,184.22,185.88,183.43,184.25,58414460\r\n\
                AAPL,2024-01-02, 187.15 ,188.44,183.885,185.64,82488674\r\n\
                \r\n\
                BRK.B,2024-01-02,357.00,359.50,355.10,358.97,3360000\r\n\
                \r\n\
                \r\n";
    let rows = parse_prices_csv(text).unwrap();
    let keys: Vec<(&str, NaiveDate)> = rows.iter().map(|r| (r.symbol.as_str(), r.bar.date)).collect();
    assert_eq!(keys, [("AAPL", ymd(2024, 1, 2)), ("AAPL", ymd(2024, 1, 3)), ("BRK.B", ymd(2024, 1, 2)), ("MSFT", ymd(2024, 1, 3)),]);
    let first = &rows[0].bar;
    assert_eq!((first.open, first.high, first.low, first.close), (187.15, 188.44, 183.885, 185.64));
    assert_eq!(first.volume, 82_488_674);
}

#[test]
fn columns_may_come_in_any_order_and_case() {
    let text = "DATE,Symbol,close,VOLUME,low,high,open\n2024-01-02,KO,59.1,100,58.5,59.4,58.9\n";
    let rows = parse_prices_csv(text).unwrap();
    assert_eq!(rows[0].symbol, "KO");
    assert_eq!((rows[0].bar.open, rows[0].bar.close), (58.9, 59.1));
    assert_eq!(rows[0].bar.volume, 100);
}

#[test]
fn each_kind_of_bad_row_is_named() {
    assert!(matches!(
        problem_of_row("AAPL,2024-02-30,1,2,1,2,10"),
        CsvProblem::BadDate(d) if d == "2024-02-30"
    ));
    assert!(matches!(problem_of_row("AAPL,02/01/2024,1,2,1,2,10"), CsvProblem::BadDate(_)));
    assert!(matches!(problem_of_row("AAPL,2024-1-2,1,2,1,2,10"), CsvProblem::BadDate(_)));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,0,2,1,2,10"), CsvProblem::NonPositivePrice { column: "open", .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,-1,2,10"), CsvProblem::NonPositivePrice { column: "low", .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,abc,1,2,10"), CsvProblem::BadPrice { column: "high", .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,NaN,1,2,10"), CsvProblem::BadPrice { column: "high", .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,1,2,1.5,10"), CsvProblem::HighBelowLow { .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,1,2.5,10"), CsvProblem::OutsideRange { column: "close", .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,0.5,2,1,1.5,10"), CsvProblem::OutsideRange { column: "open", .. }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,1,1.5,-10"), CsvProblem::BadVolume(_)));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,1,1.5,10.5"), CsvProblem::BadVolume(_)));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,1,1.5,"), CsvProblem::BadVolume(_)));
    assert!(matches!(problem_of_row("1AAPL,2024-01-02,1.5,2,1,1.5,10"), CsvProblem::InvalidSymbol(_)));
    assert!(matches!(problem_of_row("TOOLONGSYMBOL,2024-01-02,1.5,2,1,1.5,10"), CsvProblem::InvalidSymbol(_)));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,1,1.5"), CsvProblem::WrongColumnCount { expected: 7, found: 6 }));
    assert!(matches!(problem_of_row("AAPL,2024-01-02,1.5,2,1,1.5,10,extra"), CsvProblem::WrongColumnCount { expected: 7, found: 8 }));
    assert!(matches!(problem_of_row("\"AAPL\",2024-01-02,1.5,2,1,1.5,10"), CsvProblem::QuotedField));
}

#[test]
fn messages_say_what_is_wrong() {
    let text = |row: &str| problem_of_row(row).to_string();
    assert_eq!(text("AAPL,2024-02-30,1,2,1,2,10"), "invalid date \"2024-02-30\": expected YYYY-MM-DD");
    assert_eq!(text("AAPL,2024-01-02,1.5,1,2,1.5,10"), "high 1 is below low 2");
    assert_eq!(text("AAPL,2024-01-02,1.5,2,1,2.5,10"), "close 2.5 is outside the day's range [1, 2]");
    assert!(text("AAPL,2024-01-02,1.5,2,1,1.5,-10").contains("is negative"));
    assert!(text("AAPL,2024-01-02,1.5,2,1,1.5,10.5").contains("is not a whole number"));
    let errors = errors_of(&format!("{HEADER}\nAAPL,2024-01-02,0,2,1,2,10\n"));
    assert_eq!(errors[0].to_string(), "line 2: open 0 must be greater than zero");
}

#[test]
fn a_row_with_several_problems_reports_each() {
    let errors = errors_of(&format!("{HEADER}\naapl!,2024-13-01,-1,2,1,1.5,x\n"));
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [2, 2, 2, 2]);
    assert!(matches!(errors[0].problem, CsvProblem::InvalidSymbol(_)));
    assert!(matches!(errors[1].problem, CsvProblem::BadDate(_)));
    assert!(matches!(errors[2].problem, CsvProblem::NonPositivePrice { column: "open", .. }));
    assert!(matches!(errors[3].problem, CsvProblem::BadVolume(_)));
}

#[test]
fn duplicates_name_the_first_line() {
    let text = format!("{HEADER}\nAAPL,2024-01-02,1.5,2,1,1.5,10\nMSFT,2024-01-02,1.5,2,1,1.5,10\n\naapl,2024-01-02,1.6,2,1,1.5,10\n");
    let errors = errors_of(&text);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 5, "blank lines still count");
    assert_eq!(errors[0].problem, CsvProblem::Duplicate { symbol: "AAPL".to_owned(), date: ymd(2024, 1, 2), first_line: 2 });
}

#[test]
fn one_bad_row_rejects_the_whole_file_with_every_error() {
    let text = format!(
        "{HEADER}\n\
         AAPL,2024-01-02,1.5,2,1,1.5,10\n\
         AAPL,2024-01-03,1.5,2,1,3,10\n\
         AAPL,2024-01-04,1.5,2,1,1.5,10\n\
         AAPL,2024-01-05,1.5,2,1,1.5,ten\n"
    );
    let errors = errors_of(&text);
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [3, 5]);
}

#[test]
fn the_header_is_required() {
    let errors = errors_of("AAPL,2024-01-02,1.5,2,1,1.5,10\n");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 1);
    assert!(matches!(errors[0].problem, CsvProblem::BadHeader { .. }));

    for bad in [
        "symbol,date,open,high,low,close",
        "symbol,date,open,high,low,close,volume,adj_close",
        "symbol,date,open,high,low,close,close",
        "ticker,date,open,high,low,close,volume",
    ] {
        let errors = errors_of(&format!("{bad}\nAAPL,2024-01-02,1.5,2,1,1.5,10\n"));
        assert!(matches!(errors[0].problem, CsvProblem::BadHeader { .. }), "{bad}");
    }
    assert_eq!(errors_of("")[0].problem, CsvProblem::MissingHeader);
    assert_eq!(errors_of("\r\n\n")[0].problem, CsvProblem::MissingHeader);
    assert_eq!(errors_of(&format!("{HEADER}\r\n\r\n"))[0].problem, CsvProblem::NoRows);
}

#[test]
fn the_error_list_is_capped_and_counts_the_rest() {
    let mut text = format!("{HEADER}\n");
    for day in 0..150 {
        text.push_str(&format!("AAPL,2024-01-02,1.5,2,1,1.5,bad{day}\n"));
    }
    let errors = errors_of(&text);
    assert_eq!(errors.len(), MAX_ERRORS + 1);
    assert_eq!(errors[MAX_ERRORS - 1].line, MAX_ERRORS + 1);
    let last = errors.last().unwrap();
    assert_eq!(last.problem, CsvProblem::TooManyErrors { more: 50 });
    assert_eq!(last.line, MAX_ERRORS + 2, "the first line left out");
    assert!(last.to_string().contains("50 more"));
}
