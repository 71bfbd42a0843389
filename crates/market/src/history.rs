//! A provider over imported daily history (from [`crate::csv_import`] or a database): real
//! bars, offline, for backtests and demos on recorded data.
//!
//! It has only daily bars, so a quote is the last close at `at`: during a session the
//! previous session's close (the day's own bar is in the future until the close), after the
//! close that session's bar. It has no exchange rates and answers the fixed reference levels
//! ([`ExchangeRates::reference`]).

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDate, Utc};

use crate::calendar::Calendar;
use crate::csv_import::PriceRow;
use crate::data::{CompanyInfo, DailyBar, MarketError, Quote, Sector, checked_symbol};
use crate::fx::ExchangeRates;
use crate::options::{ChainQuery, OptionChain};
use crate::provider::{MarketData, MarketFuture};

/// Daily bars per symbol, served as a [`MarketData`] provider.
#[derive(Debug, Clone, Default)]
pub struct ImportedHistory {
    calendar: Calendar,
    series: BTreeMap<String, Vec<DailyBar>>,
    companies: HashMap<String, CompanyInfo>,
}

impl ImportedHistory {
    /// History from imported rows (any order; a later row for the same symbol and date
    /// replaces an earlier one), on the NYSE calendar.
    pub fn new(rows: impl IntoIterator<Item = PriceRow>) -> Self {
        let mut history = Self::default();
        history.extend(rows);
        history
    }

    /// Adds rows (a later row for the same symbol and date replaces the earlier one).
    pub fn extend(&mut self, rows: impl IntoIterator<Item = PriceRow>) {
        for row in rows {
            let bars = self.series.entry(row.symbol).or_default();
            match bars.binary_search_by_key(&row.bar.date, |b| b.date) {
                Ok(i) => bars[i] = row.bar,
                Err(i) => bars.insert(i, row.bar),
            }
        }
    }

    /// Sets the company facts of a symbol (otherwise "SYMBOL Company", Technology, no size).
    pub fn set_company(&mut self, info: CompanyInfo) {
        self.companies.insert(info.symbol.clone(), info);
    }

    /// The symbols with history, in order.
    pub fn symbols(&self) -> impl Iterator<Item = &str> {
        self.series.keys().map(String::as_str)
    }

    fn series(&self, symbol: &str) -> Result<&[DailyBar], MarketError> {
        let symbol = checked_symbol(symbol)?;
        self.series.get(symbol).map(Vec::as_slice).ok_or_else(|| MarketError::UnknownSymbol(symbol.to_owned()))
    }

    /// The bars of `symbol` in `[from, to]`, oldest first.
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`], or [`MarketError::UnknownSymbol`] for a symbol with no
    /// history.
    pub fn bars(&self, symbol: &str, from: NaiveDate, to: NaiveDate) -> Result<Vec<DailyBar>, MarketError> {
        let bars = self.series(symbol)?;
        let start = bars.partition_point(|b| b.date < from);
        let end = bars.partition_point(|b| b.date <= to);
        Ok(bars.get(start..end).map(<[DailyBar]>::to_vec).unwrap_or_default())
    }

    /// The last close of `symbol` at `at`; `None` when its history starts later.
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`], or [`MarketError::UnknownSymbol`] for a symbol with no
    /// history.
    pub fn quote(&self, symbol: &str, at: DateTime<Utc>) -> Result<Option<Quote>, MarketError> {
        let bars = self.series(symbol)?;
        // Bars whose session has closed by `at`.
        let closed = bars.partition_point(|b| self.close_of(b.date) <= at);
        let Some(index) = closed.checked_sub(1) else {
            return Ok(None);
        };
        let bar = bars[index];
        let previous_close = index.checked_sub(1).map_or(bar.open, |i| bars[i].close);
        Ok(Some(Quote {
            symbol: symbol.to_owned(),
            price: bar.close,
            previous_close,
            day_open: bar.open,
            day_high: bar.high,
            day_low: bar.low,
            volume: bar.volume,
            at: self.close_of(bar.date),
        }))
    }

    /// The company facts of `symbol`.
    ///
    /// # Errors
    ///
    /// [`MarketError::InvalidSymbol`], or [`MarketError::UnknownSymbol`] for a symbol with
    /// neither history nor facts.
    pub fn company_info(&self, symbol: &str) -> Result<CompanyInfo, MarketError> {
        let symbol = checked_symbol(symbol)?;
        if let Some(info) = self.companies.get(symbol) {
            return Ok(info.clone());
        }
        self.series(symbol)?;
        Ok(CompanyInfo {
            symbol: symbol.to_owned(),
            name: format!("{symbol} Company"),
            sector: Sector::default(),
            market_cap: None,
            shares_outstanding: None,
        })
    }

    /// When the session of `date` closed: the calendar's close, or the end of the New York
    /// day for a bar on a date the calendar has no session for.
    fn close_of(&self, date: NaiveDate) -> DateTime<Utc> {
        match self.calendar.session(date) {
            Some(session) => session.close,
            None => {
                let next = date.succ_opt().unwrap_or(date);
                next.and_hms_opt(5, 0, 0).unwrap_or_default().and_utc()
            }
        }
    }
}

impl MarketData for ImportedHistory {
    fn provider_name(&self) -> &'static str {
        "imported"
    }

    fn quotes<'a>(&'a self, symbols: &'a [String], at: DateTime<Utc>) -> MarketFuture<'a, Vec<Quote>> {
        let result = symbols
            .iter()
            .map(|s| match self.quote(s, at) {
                Err(MarketError::UnknownSymbol(_)) => Ok(None),
                other => other,
            })
            .filter_map(Result::transpose)
            .collect();
        Box::pin(std::future::ready(result))
    }

    fn daily_bars<'a>(&'a self, symbol: &'a str, from: NaiveDate, to: NaiveDate) -> MarketFuture<'a, Vec<DailyBar>> {
        Box::pin(std::future::ready(self.bars(symbol, from, to)))
    }

    fn company<'a>(&'a self, symbol: &'a str) -> MarketFuture<'a, CompanyInfo> {
        Box::pin(std::future::ready(self.company_info(symbol)))
    }

    /// Imported history carries no rates and wraps no other provider: always the fixed
    /// reference levels ([`ExchangeRates::reference`]: EUR 0.92, GBP 0.79 per USD), as of
    /// `at`, labelled `imported`.
    fn exchange_rates<'a>(&'a self, at: DateTime<Utc>) -> MarketFuture<'a, ExchangeRates> {
        let rates = ExchangeRates::reference(at, self.provider_name());
        Box::pin(std::future::ready(Ok(rates)))
    }

    /// Imported history has daily bars only: no option quotes.
    fn option_chain<'a>(&'a self, _symbol: &'a str, _query: ChainQuery, _at: DateTime<Utc>) -> MarketFuture<'a, OptionChain> {
        let why = "imported price history carries no option quotes".to_owned();
        Box::pin(std::future::ready(Err(MarketError::Unavailable(why))))
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::csv_import::parse_prices_csv;

    fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn history() -> ImportedHistory {
        ImportedHistory::new(
            parse_prices_csv(
                "symbol,date,open,high,low,close,volume\n\
                 AAPL,2024-01-03,184.22,185.88,183.43,184.25,58414460\n\
                 AAPL,2024-01-02,187.15,188.44,183.885,185.64,82488674\n\
                 AAPL,2024-01-04,182.15,183.0872,180.88,181.91,71983570\n",
            )
            .unwrap(),
        )
    }

    #[test]
    fn bars_and_last_closes() {
        let h = history();
        assert_eq!(h.symbols().collect::<Vec<_>>(), ["AAPL"]);
        assert_eq!(h.bars("AAPL", ymd(2024, 1, 3), ymd(2024, 1, 9)).unwrap().len(), 2);
        assert!(h.bars("AAPL", ymd(2024, 1, 9), ymd(2024, 1, 3)).unwrap().is_empty());
        assert_eq!(h.bars("MSFT", ymd(2024, 1, 3), ymd(2024, 1, 9)), Err(MarketError::UnknownSymbol("MSFT".into())));

        // During the session of Jan 3 (15:00 UTC = 10:00 EST) the last close is Jan 2's.
        let during = h.quote("AAPL", Utc.with_ymd_and_hms(2024, 1, 3, 15, 0, 0).unwrap()).unwrap().unwrap();
        assert_eq!(during.price, 185.64);
        assert_eq!(during.at, Utc.with_ymd_and_hms(2024, 1, 2, 21, 0, 0).unwrap());
        // After the close: Jan 3's bar.
        let after = h.quote("AAPL", Utc.with_ymd_and_hms(2024, 1, 3, 21, 0, 0).unwrap()).unwrap().unwrap();
        assert_eq!((after.price, after.previous_close), (184.25, 185.64));
        // Before the history: nothing.
        assert_eq!(h.quote("AAPL", Utc.with_ymd_and_hms(2023, 12, 1, 0, 0, 0).unwrap()).unwrap(), None);
        assert_eq!(h.company_info("AAPL").unwrap().name, "AAPL Company");
    }

    #[tokio::test]
    async fn exchange_rates_are_the_reference_levels() {
        let at = Utc.with_ymd_and_hms(2024, 1, 3, 15, 0, 0).unwrap();
        let rates = history().exchange_rates(at).await.unwrap();
        assert_eq!(rates, ExchangeRates::reference(at, "imported"));
        assert_eq!(rates.rate(crate::Currency::Eur), 0.92);
    }
}
