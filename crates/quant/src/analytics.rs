//! Trade analytics for long calls, long puts and long straddles: breakevens, maximum
//! loss and gain, probability of profit, expected move, and P&L curves for payoff charts.
//!
//! All amounts are per unit of the underlying (per share), like the prices in
//! [`crate::pricing`]; multiply by the contract multiplier (usually 100) and the number of
//! contracts for a position. The premium is what was paid per unit (for a straddle, for
//! the call and the put together).
//!
//! ## The model
//! The price at expiry is lognormal:
//! `S_T = S·exp((μ − σ²/2)·T + σ·√T·Z)` with `Z` standard normal, so
//! `P(S_T ≤ b) = N((ln(b/S) − (μ − σ²/2)·T)/(σ√T))`. The drift `μ` is the risk-neutral
//! `r − q` by default ([`Drift::RISK_NEUTRAL`]), which makes the probabilities consistent
//! with the option prices; [`Drift::annual`] uses a real-world expected return instead.
//!
//! ```
//! use strikeline_quant::{BlackScholes, Drift, OptionInputs, OptionType, TradeAnalysis};
//! let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 30.0 / 365.0 })?;
//! let straddle = TradeAnalysis::new(model, OptionType::Straddle, 4.50)?;
//! assert_eq!(straddle.breakevens(), vec![95.5, 104.5]);
//! assert_eq!(straddle.max_loss(), 4.50);
//! assert_eq!(straddle.max_gain(), None); // unlimited
//! let pop = straddle.probability_of_profit(Drift::RISK_NEUTRAL);
//! assert!(pop > 0.0 && pop < 1.0);
//! # Ok::<(), strikeline_quant::InputError>(())
//! ```

use crate::error::{Field, InputError, at_least, finite, non_negative, positive, price_level};
use crate::normal::cdf;
use crate::pricing::{BlackScholes, OptionType, intrinsic};

/// The expected annual return `μ` of the underlying used for probabilities.
///
/// ```
/// use strikeline_quant::Drift;
/// assert_eq!(Drift::default(), Drift::RISK_NEUTRAL);
/// assert_eq!(Drift::annual(0.08)?.annual_rate(), Some(0.08));
/// assert!(Drift::annual(f64::INFINITY).is_err());
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Drift(Option<f64>);

impl Drift {
    /// `μ = r − q`, the risk-neutral drift (the default).
    ///
    /// ```
    /// assert_eq!(strikeline_quant::Drift::RISK_NEUTRAL.annual_rate(), None);
    /// ```
    pub const RISK_NEUTRAL: Drift = Drift(None);

    /// A real-world expected annual return `μ` (continuously compounded; finite).
    ///
    /// ```
    /// assert!(strikeline_quant::Drift::annual(-0.1).is_ok());
    /// ```
    pub fn annual(mu: f64) -> Result<Drift, InputError> {
        Ok(Drift(Some(finite(Field::Drift, mu)?)))
    }

    /// The annual rate given to [`Drift::annual`], or `None` for the risk-neutral drift.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::Drift::RISK_NEUTRAL.annual_rate(), None);
    /// ```
    #[must_use]
    pub fn annual_rate(&self) -> Option<f64> {
        self.0
    }

    fn mu(&self, model: &BlackScholes) -> f64 {
        self.0.unwrap_or(model.rate() - model.dividend_yield())
    }
}

/// An evenly spaced grid of underlying prices for payoff charts.
///
/// ```
/// use strikeline_quant::PriceGrid;
/// let grid = PriceGrid::new(80.0, 120.0, 5)?;
/// assert_eq!(grid.prices().collect::<Vec<_>>(), vec![80.0, 90.0, 100.0, 110.0, 120.0]);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PriceGrid {
    low: f64,
    high: f64,
    points: usize,
}

impl PriceGrid {
    /// `points ≥ 2` prices from `low > 0` to `high > low`, both included (and, like
    /// every price here, between 1e-12 and 1e12).
    ///
    /// ```
    /// use strikeline_quant::PriceGrid;
    /// assert!(PriceGrid::new(0.0, 10.0, 3).is_err());
    /// assert!(PriceGrid::new(10.0, 5.0, 3).is_err());
    /// assert!(PriceGrid::new(1.0, 5.0, 1).is_err());
    /// ```
    pub fn new(low: f64, high: f64, points: usize) -> Result<Self, InputError> {
        let low = price_level(Field::GridBound, low)?;
        let high = price_level(Field::GridBound, high)?;
        if high <= low {
            return Err(InputError::OutOfRange { field: Field::GridBound, value: high, min: low, max: f64::MAX });
        }
        Ok(PriceGrid { low, high, points: at_least(Field::GridPoints, points, 2)? })
    }

    /// A grid from `spot·(1 − width)` to `spot·(1 + width)`, `0 < width < 1`.
    ///
    /// ```
    /// let grid = strikeline_quant::PriceGrid::around(100.0, 0.25, 3)?;
    /// assert_eq!(grid.prices().collect::<Vec<_>>(), vec![75.0, 100.0, 125.0]);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn around(spot: f64, width: f64, points: usize) -> Result<Self, InputError> {
        let spot = positive(Field::Spot, spot)?;
        let width = positive(Field::GridBound, width)?;
        if width >= 1.0 {
            return Err(InputError::OutOfRange { field: Field::GridBound, value: width, min: 0.0, max: 1.0 });
        }
        PriceGrid::new(spot * (1.0 - width), spot * (1.0 + width), points)
    }

    /// The prices, from low to high.
    ///
    /// ```
    /// let grid = strikeline_quant::PriceGrid::new(1.0, 2.0, 3)?;
    /// assert_eq!(grid.prices().count(), 3);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn prices(&self) -> impl Iterator<Item = f64> + '_ {
        let step = (self.high - self.low) / (self.points - 1) as f64;
        (0..self.points).map(move |i| if i + 1 == self.points { self.high } else { self.low + step * i as f64 })
    }
}

/// One point of a P&L curve: the underlying's price and the position's P&L there.
///
/// ```
/// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, PnlPoint, PriceGrid, TradeAnalysis};
/// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })?;
/// let put = TradeAnalysis::new(model, OptionType::Put, 3.0)?;
/// // At expiry: worth 10 at 90 (a profit of 7 on the 3 paid), nothing at 100.
/// let curve = put.pnl_curve(&PriceGrid::new(90.0, 100.0, 2)?, 0.0)?;
/// assert_eq!(curve, [PnlPoint { spot: 90.0, pnl: 7.0 }, PnlPoint { spot: 100.0, pnl: -3.0 }]);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PnlPoint {
    /// Price of the underlying.
    pub spot: f64,
    /// Profit (positive) or loss (negative) per unit.
    pub pnl: f64,
}

/// Every figure of [`TradeAnalysis`] at once (for an API response or a CLI table).
///
/// ```
/// use strikeline_quant::{BlackScholes, Drift, OptionInputs, OptionType, TradeAnalysis};
/// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 105.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.3, time_to_expiry: 0.25 })?;
/// let summary = TradeAnalysis::new(model, OptionType::Call, 3.0)?.summary(Drift::RISK_NEUTRAL);
/// assert_eq!(summary.breakevens, vec![108.0]);
/// assert_eq!(summary.max_gain, None);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TradeSummary {
    /// Underlying prices at expiry where the P&L is zero, ascending.
    pub breakevens: Vec<f64>,
    /// The most the position can lose, as a positive amount.
    pub max_loss: f64,
    /// The most it can gain; `None` when unlimited.
    pub max_gain: Option<f64>,
    /// Probability that the P&L at expiry is positive.
    pub probability_of_profit: f64,
    /// One-standard-deviation move by expiry, `S·σ·√T`.
    pub expected_move: f64,
}

/// A long call, long put or long straddle bought at `premium`, analysed under the
/// market described by a [`BlackScholes`] model (spot, strike, rates, volatility, time to
/// expiry).
///
/// ```
/// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
/// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 95.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.25, time_to_expiry: 0.5 })?;
/// let put = TradeAnalysis::new(model, OptionType::Put, 3.0)?;
/// assert_eq!(put.breakevens(), vec![92.0]);
/// assert_eq!(put.max_gain(), Some(92.0)); // the underlying goes to zero
/// assert_eq!(put.pnl_at_expiry(90.0), 2.0);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TradeAnalysis {
    model: BlackScholes,
    kind: OptionType,
    premium: f64,
}

impl TradeAnalysis {
    /// A long `kind` on `model`'s strike and expiry, bought at `premium ≥ 0` per unit.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.1 })?;
    /// assert!(TradeAnalysis::new(model, OptionType::Call, -1.0).is_err());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn new(model: BlackScholes, kind: OptionType, premium: f64) -> Result<Self, InputError> {
        Ok(TradeAnalysis { model, kind, premium: non_negative(Field::Premium, premium)? })
    }

    /// The same position bought at the model's own price.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.1 })?;
    /// let trade = TradeAnalysis::at_model_price(model, OptionType::Call);
    /// assert_eq!(trade.premium(), model.price(OptionType::Call));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn at_model_price(model: BlackScholes, kind: OptionType) -> Self {
        TradeAnalysis { model, kind, premium: model.price(kind) }
    }

    /// The premium paid per unit.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// # let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.1 })?;
    /// assert_eq!(TradeAnalysis::new(model, OptionType::Put, 2.5)?.premium(), 2.5);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn premium(&self) -> f64 {
        self.premium
    }

    /// Underlying prices at expiry where the P&L is exactly zero, ascending: `K + p` for a
    /// call, `K − p` for a put (none if `p ≥ K`), both for a straddle.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.1 })?;
    /// assert_eq!(TradeAnalysis::new(model, OptionType::Call, 2.0)?.breakevens(), vec![102.0]);
    /// assert_eq!(TradeAnalysis::new(model, OptionType::Put, 120.0)?.breakevens(), Vec::<f64>::new());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn breakevens(&self) -> Vec<f64> {
        let (k, p) = (self.model.strike(), self.premium);
        let below = (k - p > 0.0).then_some(k - p);
        let above = k + p;
        match self.kind {
            OptionType::Call => vec![above],
            OptionType::Put => below.into_iter().collect(),
            OptionType::Straddle => below.into_iter().chain(std::iter::once(above)).collect(),
        }
    }

    /// The most the position can lose, as a positive amount: for a long option or
    /// straddle, the premium paid (when it expires worthless; for a straddle, at the strike).
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// # let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.1 })?;
    /// assert_eq!(TradeAnalysis::new(model, OptionType::Straddle, 5.0)?.max_loss(), 5.0);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn max_loss(&self) -> f64 {
        self.premium
    }

    /// The most the position can gain: `None` (unlimited) for a call or straddle;
    /// `K − p` for a put (the underlying going to zero).
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// # let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.1 })?;
    /// assert_eq!(TradeAnalysis::new(model, OptionType::Call, 5.0)?.max_gain(), None);
    /// assert_eq!(TradeAnalysis::new(model, OptionType::Put, 5.0)?.max_gain(), Some(95.0));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn max_gain(&self) -> Option<f64> {
        match self.kind {
            OptionType::Put => Some(self.model.strike() - self.premium),
            OptionType::Call | OptionType::Straddle => None,
        }
    }

    /// Probability that the P&L at expiry is strictly positive under the lognormal model
    /// with drift `drift` (see the [module documentation](self)): the sum of
    /// `P(S_T ∈ range)` over every price range between consecutive breakevens on which the
    /// expiry P&L is positive. For a call `P(S_T > K+p)`, a put `P(S_T < K−p)`, a
    /// straddle the sum of both. At `T = 0` it is 1 or 0.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, Drift, OptionInputs, OptionType, TradeAnalysis, normal::cdf};
    /// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 1.0 })?;
    /// let call = TradeAnalysis::new(model, OptionType::Call, 0.0)?;
    /// // Bought for nothing, it profits when S_T > K: N(d2) = N(−0.1) with zero drift.
    /// assert!((call.probability_of_profit(Drift::RISK_NEUTRAL) - cdf(-0.1)).abs() < 1e-15);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn probability_of_profit(&self, drift: Drift) -> f64 {
        let breakevens = self.breakevens();
        let mu = drift.mu(&self.model);
        // Cut points 0 = c_0 < b_1 < … < b_m < c_{m+1} = ∞, and the P&L sign in each range.
        let mut probability = 0.0;
        let mut lower = 0.0;
        for i in 0..=breakevens.len() {
            let upper = breakevens.get(i).copied().unwrap_or(f64::INFINITY);
            let probe =
                if upper.is_infinite() { if lower > 0.0 { 2.0 * lower } else { 2.0 * self.model.strike() } } else { 0.5 * (lower + upper) };
            if self.pnl_at_expiry(probe) > 0.0 {
                probability += self.probability_below(upper, mu) - self.probability_below(lower, mu);
            }
            lower = upper;
        }
        probability.clamp(0.0, 1.0)
    }

    /// `P(S_T ≤ level)` for the lognormal model with drift `mu`.
    fn probability_below(&self, level: f64, mu: f64) -> f64 {
        if level <= 0.0 {
            return 0.0;
        }
        if level.is_infinite() {
            return 1.0;
        }
        let (s, sigma, t) = (self.model.spot(), self.model.volatility(), self.model.time_to_expiry());
        if t == 0.0 {
            return if s <= level { 1.0 } else { 0.0 };
        }
        cdf(((level / s).ln() - (mu - 0.5 * sigma * sigma) * t) / (sigma * t.sqrt()))
    }

    /// The one-standard-deviation move of the underlying by expiry, `S·σ·√T`: the usual
    /// "expected move" (the market's ±1σ range is roughly `S ± S·σ·√T`; it ignores drift
    /// and the lognormal skew, which matter little for short expiries).
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })?;
    /// assert!((TradeAnalysis::at_model_price(model, OptionType::Straddle).expected_move() - 10.0).abs() < 1e-12);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn expected_move(&self) -> f64 {
        self.model.spot() * self.model.volatility() * self.model.time_to_expiry().sqrt()
    }

    /// P&L per unit at expiry if the underlying ends at `spot`: payoff − premium.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// # let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })?;
    /// let straddle = TradeAnalysis::new(model, OptionType::Straddle, 6.0)?;
    /// assert_eq!(straddle.pnl_at_expiry(90.0), 4.0);
    /// assert_eq!(straddle.pnl_at_expiry(100.0), -6.0);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn pnl_at_expiry(&self, spot: f64) -> f64 {
        intrinsic(self.kind, spot, self.model.strike()) - self.premium
    }

    /// P&L per unit if the underlying is at `spot` when `time_remaining` years are left
    /// to expiry (`0 ≤ time_remaining ≤ T`), valued with the model's rates and volatility:
    /// `V(spot, time_remaining) − premium`.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, OptionInputs, OptionType, TradeAnalysis};
    /// # let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })?;
    /// let call = TradeAnalysis::at_model_price(model, OptionType::Call);
    /// assert!(call.pnl_at(100.0, 0.25)?.abs() < 1e-12);  // today, unchanged: no P&L
    /// assert!(call.pnl_at(100.0, 0.10)? < 0.0);          // time decay
    /// assert_eq!(call.pnl_at(110.0, 0.0)?, call.pnl_at_expiry(110.0));
    /// assert!(call.pnl_at(100.0, 0.5).is_err());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn pnl_at(&self, spot: f64, time_remaining: f64) -> Result<f64, InputError> {
        let spot = price_level(Field::Spot, spot)?;
        let time_remaining = self.check_time_remaining(time_remaining)?;
        Ok(self.model.with_spot_unchecked(spot).with_time_unchecked(time_remaining).price(self.kind) - self.premium)
    }

    fn check_time_remaining(&self, time_remaining: f64) -> Result<f64, InputError> {
        let t = non_negative(Field::TimeRemaining, time_remaining)?;
        let max = self.model.time_to_expiry();
        if t > max {
            return Err(InputError::OutOfRange { field: Field::TimeRemaining, value: t, min: 0.0, max });
        }
        Ok(t)
    }

    /// The P&L curve over `grid` with `time_remaining` years left to expiry (0 for the
    /// expiry payoff chart), for payoff charts.
    ///
    /// ```
    /// use strikeline_quant::{BlackScholes, OptionInputs, OptionType, PriceGrid, TradeAnalysis};
    /// let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.05, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })?;
    /// let call = TradeAnalysis::new(model, OptionType::Call, 4.0)?;
    /// let at_expiry = call.pnl_curve(&PriceGrid::new(90.0, 110.0, 3)?, 0.0)?;
    /// assert_eq!(at_expiry.iter().map(|p| p.pnl).collect::<Vec<_>>(), vec![-4.0, -4.0, 6.0]);
    /// let before = call.pnl_curve(&PriceGrid::new(90.0, 110.0, 3)?, 0.1)?;
    /// assert!(before[0].pnl > -4.0); // time value left
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn pnl_curve(&self, grid: &PriceGrid, time_remaining: f64) -> Result<Vec<PnlPoint>, InputError> {
        let t = self.check_time_remaining(time_remaining)?;
        let model = self.model.with_time_unchecked(t);
        Ok(grid.prices().map(|spot| PnlPoint { spot, pnl: model.with_spot_unchecked(spot).price(self.kind) - self.premium }).collect())
    }

    /// All the figures at once.
    ///
    /// ```
    /// # use strikeline_quant::{BlackScholes, Drift, OptionInputs, OptionType, TradeAnalysis};
    /// # let model = BlackScholes::new(OptionInputs { spot: 100.0, strike: 100.0, rate: 0.0, dividend_yield: 0.0, volatility: 0.2, time_to_expiry: 0.25 })?;
    /// let trade = TradeAnalysis::new(model, OptionType::Put, 3.0)?;
    /// let s = trade.summary(Drift::RISK_NEUTRAL);
    /// assert_eq!((s.max_loss, s.max_gain), (3.0, Some(97.0)));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn summary(&self, drift: Drift) -> TradeSummary {
        TradeSummary {
            breakevens: self.breakevens(),
            max_loss: self.max_loss(),
            max_gain: self.max_gain(),
            probability_of_profit: self.probability_of_profit(drift),
            expected_move: self.expected_move(),
        }
    }
}
