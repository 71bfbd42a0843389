//! Polygon's option chain snapshot: `GET /v3/snapshot/options/{underlying}` with the query's
//! bounds as `expiration_date.gte/lte` and `strike_price.gte/lte`, 250 contracts a page,
//! following `next_url` (on the configured host only) for at most [`MAX_CHAIN_PAGES`] pages.
//! The underlying's price comes with each contract (`underlying_asset.price`); a chain with no
//! contract in range takes it from the stocks snapshot. `as_of` is the newest quote's time.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;

use super::{Answer, PolygonClient, check_status, epoch_instant};
use crate::data::{MarketError, checked_symbol};
use crate::options::{ChainQuery, ContractGreeks, OptionChain, OptionContract, OptionRight};

/// Pages of 250 contracts followed at most (5,000 contracts: any single name's whole chain).
pub const MAX_CHAIN_PAGES: usize = 20;

impl PolygonClient {
    /// The option chain of `symbol` inside `query`; `at` stands in for `as_of` when no quote
    /// carries a time.
    ///
    /// # Errors
    ///
    /// As the module documentation of [`super`]; [`MarketError::UnknownSymbol`] when Polygon
    /// knows neither options nor a stock of that name; [`MarketError::InvalidResponse`] for a
    /// contract without its type, strike or expiration.
    pub async fn fetch_option_chain(&self, symbol: &str, query: ChainQuery, at: DateTime<Utc>) -> Result<OptionChain, MarketError> {
        let symbol = checked_symbol(symbol)?;
        let mut url = self.endpoint(&["v3", "snapshot", "options", symbol]);
        {
            let mut pairs = url.query_pairs_mut();
            if let Some(from) = query.expiration_from {
                pairs.append_pair("expiration_date.gte", &from.to_string());
            }
            if let Some(to) = query.expiration_to {
                pairs.append_pair("expiration_date.lte", &to.to_string());
            }
            if let Some(from) = query.strike_from {
                pairs.append_pair("strike_price.gte", &from.to_string());
            }
            if let Some(to) = query.strike_to {
                pairs.append_pair("strike_price.lte", &to.to_string());
            }
            pairs.append_pair("limit", "250");
        }
        let mut contracts = Vec::new();
        let mut underlying: Option<f64> = None;
        let mut as_of: Option<DateTime<Utc>> = None;
        for _ in 0..MAX_CHAIN_PAGES {
            let page: ChainPage = match self.get_json(url).await? {
                Answer::Found(page) => page,
                Answer::NotFound => return Err(MarketError::UnknownSymbol(symbol.to_owned())),
            };
            check_status(page.status.as_deref())?;
            for result in page.results.unwrap_or_default() {
                if let Some(price) = result.underlying_asset.as_ref().and_then(|u| u.price).filter(|p| p.is_finite() && *p > 0.0) {
                    underlying = Some(price);
                }
                let quoted = result.last_quote.as_ref().and_then(|q| q.last_updated).and_then(epoch_instant);
                as_of = as_of.max(quoted);
                let contract = result.into_contract(symbol)?;
                if query.admits(contract.expiration, contract.strike) {
                    contracts.push(contract);
                }
            }
            match page.next_url.filter(|u| !u.is_empty()) {
                Some(next) => url = self.same_origin(&next)?,
                None => break,
            }
        }
        let underlying_price = match underlying {
            Some(price) => price,
            None => {
                let quotes = self.fetch_quotes(&[symbol.to_owned()], at).await?;
                quotes.first().map(|q| q.price).ok_or_else(|| MarketError::UnknownSymbol(symbol.to_owned()))?
            }
        };
        let mut chain =
            OptionChain { symbol: symbol.to_owned(), underlying_price, as_of: as_of.unwrap_or(at), provider: "polygon", contracts };
        chain.sort();
        Ok(chain)
    }
}

#[derive(Deserialize)]
struct ChainPage {
    status: Option<String>,
    results: Option<Vec<ChainResult>>,
    next_url: Option<String>,
}

#[derive(Deserialize)]
struct ChainResult {
    details: Option<Details>,
    greeks: Option<Greeks>,
    implied_volatility: Option<f64>,
    last_quote: Option<LastQuote>,
    last_trade: Option<LastTrade>,
    open_interest: Option<f64>,
    underlying_asset: Option<Underlying>,
}

#[derive(Deserialize)]
struct Details {
    contract_type: Option<String>,
    expiration_date: Option<String>,
    strike_price: Option<f64>,
}

#[derive(Deserialize)]
struct Greeks {
    delta: Option<f64>,
    gamma: Option<f64>,
    theta: Option<f64>,
    vega: Option<f64>,
}

#[derive(Deserialize)]
struct LastQuote {
    bid: Option<f64>,
    ask: Option<f64>,
    last_updated: Option<i64>,
}

#[derive(Deserialize)]
struct LastTrade {
    price: Option<f64>,
}

#[derive(Deserialize)]
struct Underlying {
    price: Option<f64>,
}

/// A price a quote may carry: finite and not negative.
fn price(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite() && *v >= 0.0)
}

impl ChainResult {
    fn into_contract(self, symbol: &str) -> Result<OptionContract, MarketError> {
        let invalid = |why: &str| MarketError::InvalidResponse(format!("Polygon option chain of {symbol}: {why}"));
        let details = self.details.ok_or_else(|| invalid("a contract without details"))?;
        let right = match details.contract_type.as_deref() {
            Some("call") => OptionRight::Call,
            Some("put") => OptionRight::Put,
            _ => return Err(invalid("a contract that is neither a call nor a put")),
        };
        let strike = details.strike_price.filter(|k| k.is_finite() && *k > 0.0).ok_or_else(|| invalid("a contract without a strike"))?;
        let expiration = details
            .expiration_date
            .as_deref()
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .ok_or_else(|| invalid("a contract without an expiration date"))?;
        let greeks = self.greeks.and_then(|g| {
            let all = [g.delta, g.gamma, g.theta, g.vega];
            all.iter().all(|v| v.is_some_and(f64::is_finite)).then(|| ContractGreeks {
                delta: g.delta.unwrap_or_default(),
                gamma: g.gamma.unwrap_or_default(),
                theta: g.theta.unwrap_or_default(),
                vega: g.vega.unwrap_or_default(),
            })
        });
        let (bid, ask) = self.last_quote.map_or((None, None), |q| (price(q.bid), price(q.ask)));
        Ok(OptionContract {
            right,
            strike,
            expiration,
            bid,
            ask,
            last: price(self.last_trade.and_then(|t| t.price)),
            implied_volatility: self.implied_volatility.filter(|v| v.is_finite() && *v > 0.0),
            greeks,
            // Counts are far below 2^53; the cast saturates in any case.
            open_interest: self.open_interest.filter(|n| n.is_finite() && *n >= 0.0).map(|n| n.round() as u64),
        })
    }
}
