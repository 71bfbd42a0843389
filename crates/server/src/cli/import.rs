//! `strikeline import prices FILE.csv`: real daily history into the store, all or nothing.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use strikeline_market::csv_import::{CsvError, parse_prices_csv};
use strikeline_market::simulated::SimulatedMarket;
use strikeline_store::market::{self, BarRow, QuoteUpdate, StockRow};
use strikeline_store::{Db, StoreError};

use crate::services::market_refresh::history::bar_row;

/// What an import stored.
#[derive(Debug, PartialEq, Eq)]
pub struct ImportSummary {
    pub bars: usize,
    pub symbols: usize,
    /// Symbols that were not tracked before and now are.
    pub new_symbols: usize,
    pub first: NaiveDate,
    pub last: NaiveDate,
}

/// Why nothing was imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file has {} problem(s); nothing was imported", .0.len())]
    Csv(Vec<CsvError>),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Parses `text` (`symbol,date,open,high,low,close,volume`) and stores every bar in one
/// transaction, replacing bars already stored for the same symbol and day. Symbols not yet
/// tracked join the watchlist, named after the simulated market's listing when it has one.
/// Any bad row rejects the whole file, with every problem and its line number.
pub async fn import_prices(db: &Db, text: &str, seed: u64, now: DateTime<Utc>) -> Result<ImportSummary, ImportError> {
    let rows = parse_prices_csv(text).map_err(ImportError::Csv)?;
    let mut by_symbol: BTreeMap<String, Vec<BarRow>> = BTreeMap::new();
    for row in &rows {
        by_symbol.entry(row.symbol.clone()).or_default().push(bar_row(&row.bar));
    }
    let bars: Vec<(String, BarRow)> = by_symbol.iter().flat_map(|(s, bars)| bars.iter().map(move |b| (s.clone(), *b))).collect();
    market::upsert_bars(db, &bars).await?;
    let names = SimulatedMarket::new(seed);
    let mut new_symbols = 0;
    for (symbol, bars) in &by_symbol {
        let (Some(last), previous) = (bars.last(), bars.len().checked_sub(2).and_then(|i| bars.get(i))) else { continue };
        let year = &bars[bars.len().saturating_sub(252)..];
        let quote = QuoteUpdate {
            symbol: symbol.clone(),
            current_price_cents: last.close_cents,
            previous_close_cents: previous.map_or(last.open_cents, |p| p.close_cents),
            volume: last.volume,
            high_52_week_cents: year.iter().map(|b| b.high_cents).max().unwrap_or(last.high_cents),
            low_52_week_cents: year.iter().map(|b| b.low_cents).min().unwrap_or(last.low_cents),
            at: now,
        };
        if market::find_stock(db, symbol).await?.is_none() {
            let company = names.company_info(symbol).ok();
            let stock = StockRow {
                id: uuid::Uuid::new_v4().to_string(),
                symbol: symbol.clone(),
                company_name: company.as_ref().map_or_else(|| format!("{symbol} Company"), |c| c.name.clone()),
                sector: crate::foundation::vocab::SectorName::from(company.map_or_else(strikeline_market::Sector::default, |c| c.sector))
                    .as_str()
                    .to_owned(),
                current_price_cents: quote.current_price_cents,
                previous_close_cents: quote.previous_close_cents,
                volume: quote.volume,
                high_52_week_cents: quote.high_52_week_cents,
                low_52_week_cents: quote.low_52_week_cents,
                market_cap: None,
                added_by: None,
                last_updated: now,
                created_at: now,
            };
            match market::insert_stock(db, &stock).await {
                Ok(()) => new_symbols += 1,
                Err(StoreError::Conflict(_)) => {}
                Err(err) => return Err(err.into()),
            }
        }
        market::update_quotes(db, &[quote]).await?;
    }
    let first = rows.iter().map(|r| r.bar.date).min().unwrap_or_default();
    let last = rows.iter().map(|r| r.bar.date).max().unwrap_or_default();
    Ok(ImportSummary { bars: bars.len(), symbols: by_symbol.len(), new_symbols, first, last })
}
