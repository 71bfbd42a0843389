//! The whole tracked universe, refreshed in one call: new bars in, proposals and marks
//! out.

use std::collections::HashMap;

use chrono::NaiveDate;
use strikeline_quant::InputError;

use crate::lifecycle::{Mark, OpenSignal, mark, years_between};
use crate::proposal::{Proposal, ProposalContext};
use crate::state::SymbolState;
use crate::types::{Assumptions, BarError, DailyBar};

/// Every tracked symbol's [`SymbolState`], addressed by a dense id (`0..len`, in the
/// order the symbols were given). The server keeps the id ↔ symbol mapping stable for
/// the life of the universe; ids index plain vectors, so a refresh does no lookups.
///
/// ```
/// use strikeline_engine::Universe;
/// let universe = Universe::new(["AAPL", "MSFT"]);
/// assert_eq!(universe.len(), 2);
/// assert_eq!(universe.id("MSFT"), Some(1));
/// assert_eq!(universe.symbol(0), "AAPL");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Universe {
    symbols: Vec<String>,
    states: Vec<SymbolState>,
    ids: HashMap<String, usize>,
}

/// An open signal on one symbol of the universe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActiveSignal {
    /// The symbol's id in the [`Universe`].
    pub symbol: usize,
    /// The signal.
    pub signal: OpenSignal,
}

/// What a refresh needs besides the bars.
#[derive(Clone, Copy)]
pub struct RefreshContext<'a> {
    /// The trading date being refreshed (normally the new bars' date).
    pub as_of: NaiveDate,
    /// Rate and dividend yield for pricing.
    pub assumptions: Assumptions,
    /// The listed-expiration picker (see [`ProposalContext::expiration`]).
    pub expiration: &'a dyn Fn(NaiveDate, u32) -> NaiveDate,
}

impl std::fmt::Debug for RefreshContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefreshContext").field("as_of", &self.as_of).field("assumptions", &self.assumptions).finish_non_exhaustive()
    }
}

/// A proposal for one symbol of the universe.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolProposal {
    /// The symbol's id.
    pub symbol: usize,
    /// The proposal.
    pub proposal: Proposal,
}

/// Why an active signal could not be marked.
///
/// ```
/// assert_eq!(strikeline_engine::MarkError::NoPrice.to_string(), "no price for the symbol yet");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MarkError {
    /// The symbol has no bar yet, so there is no price to mark at.
    NoPrice,
    /// The model refused the signal's numbers (strike or σ out of range).
    Input(InputError),
}

impl std::fmt::Display for MarkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MarkError::NoPrice => f.write_str("no price for the symbol yet"),
            MarkError::Input(e) => write!(f, "cannot price the signal: {e}"),
        }
    }
}

impl std::error::Error for MarkError {}

/// The result of [`Universe::refresh`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RefreshOutcome {
    /// Proposals of the symbols that took a new bar, by symbol id, then strategy.
    pub proposals: Vec<SymbolProposal>,
    /// One mark per active signal, in the order given (`marks[i]` is `active[i]`'s).
    pub marks: Vec<Result<Mark, MarkError>>,
    /// Bars refused, with the symbol id; those symbols keep their previous state.
    pub rejected: Vec<(usize, BarError)>,
}

impl Universe {
    /// A universe of `symbols` with no history; ids follow the given order. A repeated
    /// symbol keeps its first id (the repeat gets an id of its own that
    /// [`id`](Universe::id) never returns).
    #[must_use]
    pub fn new<I, S>(symbols: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let symbols: Vec<String> = symbols.into_iter().map(Into::into).collect();
        let mut ids = HashMap::with_capacity(symbols.len());
        for (id, symbol) in symbols.iter().enumerate() {
            ids.entry(symbol.clone()).or_insert(id);
        }
        Universe { states: vec![SymbolState::new(); symbols.len()], symbols, ids }
    }

    /// Number of symbols.
    ///
    /// ```
    /// assert_eq!(strikeline_engine::Universe::new(["A", "B", "C"]).len(), 3);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// No symbols at all.
    ///
    /// ```
    /// assert!(strikeline_engine::Universe::new(Vec::<String>::new()).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The id of `symbol`.
    ///
    /// ```
    /// let universe = strikeline_engine::Universe::new(["AAPL", "MSFT"]);
    /// assert_eq!((universe.id("MSFT"), universe.id("TSLA")), (Some(1), None));
    /// ```
    #[must_use]
    pub fn id(&self, symbol: &str) -> Option<usize> {
        self.ids.get(symbol).copied()
    }

    /// The symbol of `id`.
    ///
    /// # Panics
    /// If `id` is not below [`len`](Universe::len).
    ///
    /// ```
    /// assert_eq!(strikeline_engine::Universe::new(["AAPL"]).symbol(0), "AAPL");
    /// ```
    #[must_use]
    pub fn symbol(&self, id: usize) -> &str {
        &self.symbols[id]
    }

    /// The state of `id` (to clone for an intraday evaluation).
    ///
    /// # Panics
    /// If `id` is not below [`len`](Universe::len).
    ///
    /// ```
    /// let universe = strikeline_engine::Universe::new(["AAPL"]);
    /// let intraday = universe.state(0).clone();
    /// assert_eq!(intraday.bars_seen(), 0);
    /// ```
    #[must_use]
    pub fn state(&self, id: usize) -> &SymbolState {
        &self.states[id]
    }

    /// Feeds a symbol's history (oldest first) without evaluating anything: the warm-up
    /// at start-up. Stops at the first refused bar.
    ///
    /// # Panics
    /// If `id` is not below [`len`](Universe::len).
    ///
    /// ```
    /// use chrono::{Days, NaiveDate};
    /// use strikeline_engine::{DailyBar, Universe};
    /// let mut universe = Universe::new(["XYZ"]);
    /// let start = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    /// let history: Vec<DailyBar> = (0..10).map(|i| DailyBar {
    ///     date: start + Days::new(i), open: 10.0, high: 10.2, low: 9.9, close: 10.1, volume: 1e5,
    /// }).collect();
    /// universe.load_history(0, &history)?;
    /// assert_eq!(universe.state(0).bars_seen(), 10);
    /// # Ok::<(), strikeline_engine::BarError>(())
    /// ```
    pub fn load_history(&mut self, id: usize, bars: &[DailyBar]) -> Result<(), BarError> {
        let state = &mut self.states[id];
        bars.iter().try_for_each(|bar| state.update(bar))
    }

    /// One refresh of the universe, normally once per completed trading day:
    ///
    /// 1. each `(id, bar)` of `new_bars` goes through that symbol's indicators (a refused
    ///    bar is reported in `rejected` and leaves the symbol as it was);
    /// 2. every symbol that took a bar is evaluated by all four strategies at its new
    ///    close (`spot` = the close, `as_of` from the context): firing rules become
    ///    `proposals`;
    /// 3. every signal of `active` is marked at its symbol's latest close, with
    ///    `T = years_between(as_of, expiration)`, expired once `as_of` reaches the
    ///    expiration date (the bars are end-of-day, so the expiration day's close is
    ///    final).
    ///
    /// The refresh does not deduplicate: a rule that keeps firing proposes again each
    /// day, and the caller skips setups that already have an active signal (the store
    /// holds one active automated signal per symbol and strategy). Intraday evaluation
    /// uses a clone of [`state`](Universe::state) instead, so the universe only ever
    /// holds completed bars.
    ///
    /// # Panics
    /// If an id in `new_bars` or `active` is not below [`len`](Universe::len).
    ///
    /// ```
    /// use chrono::{Days, NaiveDate};
    /// use strikeline_engine::{ActiveSignal, Assumptions, DailyBar, OpenSignal, Outcome, RefreshContext, SignalType, Universe};
    /// let mut universe = Universe::new(["XYZ"]);
    /// let day = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
    /// let bar = DailyBar { date: day, open: 100.0, high: 111.0, low: 99.0, close: 110.0, volume: 1e6 };
    /// let signal = OpenSignal {
    ///     signal_type: SignalType::Call, strike: 100.0, expiration: day, entry_price: 2.0,
    ///     target_price: 4.0, stop_loss: 1.0, volatility: 0.3,
    /// };
    /// let picker = |from: NaiveDate, min: u32| from + Days::new(u64::from(min));
    /// let ctx = RefreshContext { as_of: day, assumptions: Assumptions::default(), expiration: &picker };
    /// let out = universe.refresh(&[(0, bar)], &[ActiveSignal { symbol: 0, signal }], &ctx);
    /// assert!(out.proposals.is_empty()); // one bar is far from warm
    /// let m = out.marks[0].as_ref().unwrap();
    /// assert_eq!((m.option_price, m.outcome), (10.0, Outcome::Expired));
    /// ```
    pub fn refresh(&mut self, new_bars: &[(usize, DailyBar)], active: &[ActiveSignal], ctx: &RefreshContext<'_>) -> RefreshOutcome {
        let mut outcome = RefreshOutcome::default();
        let mut updated = Vec::with_capacity(new_bars.len());
        for (id, bar) in new_bars {
            match self.states[*id].update(bar) {
                Ok(()) => updated.push(*id),
                Err(e) => outcome.rejected.push((*id, e)),
            }
        }
        updated.sort_unstable();
        updated.dedup();
        for id in updated {
            let state = &self.states[id];
            let Some(spot) = state.latest().map(|s| s.close) else {
                continue;
            };
            let proposal_ctx = ProposalContext {
                symbol: &self.symbols[id],
                as_of: ctx.as_of,
                spot,
                assumptions: ctx.assumptions,
                expiration: ctx.expiration,
            };
            outcome.proposals.extend(state.propose(&proposal_ctx).into_iter().map(|proposal| SymbolProposal { symbol: id, proposal }));
        }
        outcome.marks = active
            .iter()
            .map(|a| {
                let spot = self.states[a.symbol].latest().map(|s| s.close).ok_or(MarkError::NoPrice)?;
                let expiration = a.signal.expiration;
                mark(&a.signal, spot, years_between(ctx.as_of, expiration), ctx.as_of >= expiration, ctx.assumptions)
                    .map_err(MarkError::Input)
            })
            .collect();
        outcome
    }
}
