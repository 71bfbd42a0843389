//! Performance statistics: of a strategy's daily simple returns ([`DailyReturns`],
//! [`ReturnStats`]) and of its closed trades' P&Ls ([`TradeStats`]).
//!
//! Conventions: 252 periods a year; the risk-free rate is an annual rate, default 0,
//! turned into a per-period rate by dividing by 252. Cases where a statistic is undefined
//! (too few observations, a zero deviation, no losses, …) give `None` rather than NaN or
//! infinity, as each item documents.
//!
//! ```
//! use strikeline_quant::stats::DailyReturns;
//! let returns = DailyReturns::new(&[0.01, -0.02, 0.015, 0.003])?;
//! let stats = returns.stats(0.0);
//! assert!(stats.max_drawdown.unwrap() < 0.0);
//! assert!((stats.cumulative_return - (1.01f64 * 0.98 * 1.015 * 1.003 - 1.0)).abs() < 1e-15);
//! # Ok::<(), strikeline_quant::InputError>(())
//! ```

use crate::error::{Field, InputError, finite};

/// Periods (trading days) per year: daily deviations and ratios are annualised by
/// `√252`, and 252 returns make a year of growth.
///
/// ```
/// use strikeline_quant::stats::{DailyReturns, PERIODS_PER_YEAR};
/// // Alternating ±1% days: mean 0, sample standard deviation √(4·0.01²/3) a day.
/// let returns = DailyReturns::new(&[0.01, -0.01, 0.01, -0.01])?;
/// let daily = (4.0 * 0.01f64.powi(2) / 3.0).sqrt();
/// let annual = returns.annualized_volatility().unwrap();
/// assert!((annual - daily * PERIODS_PER_YEAR.sqrt()).abs() < 1e-14);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
pub const PERIODS_PER_YEAR: f64 = 252.0;

/// A validated series of daily simple returns (`0.01` = +1%), every one finite.
///
/// ```
/// use strikeline_quant::stats::DailyReturns;
/// assert!(DailyReturns::new(&[0.01, f64::NAN]).is_err());
/// assert_eq!(DailyReturns::new(&[0.01, 0.02])?.len(), 2);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DailyReturns<'a> {
    returns: &'a [f64],
}

/// All return statistics at once; see the methods of [`DailyReturns`] for definitions.
///
/// ```
/// use strikeline_quant::stats::DailyReturns;
/// let s = DailyReturns::new(&[])?.stats(0.0);
/// assert_eq!((s.sharpe, s.max_drawdown, s.cagr), (None, None, None));
/// assert_eq!(s.cumulative_return, 0.0);
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReturnStats {
    /// Annualised Sharpe ratio.
    pub sharpe: Option<f64>,
    /// Annualised Sortino ratio.
    pub sortino: Option<f64>,
    /// Maximum drawdown, a fraction ≤ 0.
    pub max_drawdown: Option<f64>,
    /// Compound annual growth rate.
    pub cagr: Option<f64>,
    /// CAGR / |maximum drawdown|.
    pub calmar: Option<f64>,
    /// Annualised volatility.
    pub annualized_volatility: Option<f64>,
    /// Total compounded return.
    pub cumulative_return: f64,
}

fn mean(values: impl ExactSizeIterator<Item = f64> + Clone) -> Option<f64> {
    let n = values.len();
    (n > 0).then(|| values.sum::<f64>() / n as f64)
}

/// Sample standard deviation (divisor `n − 1`), two-pass.
fn sample_std(values: impl ExactSizeIterator<Item = f64> + Clone) -> Option<f64> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let m = mean(values.clone())?;
    let squares: f64 = values.map(|v| (v - m) * (v - m)).sum();
    Some((squares / (n - 1) as f64).sqrt())
}

impl<'a> DailyReturns<'a> {
    /// Checks that every return is finite.
    ///
    /// ```
    /// assert!(strikeline_quant::stats::DailyReturns::new(&[0.0, f64::INFINITY]).is_err());
    /// ```
    pub fn new(returns: &'a [f64]) -> Result<Self, InputError> {
        for &r in returns {
            finite(Field::Price, r)?;
        }
        Ok(DailyReturns { returns })
    }

    /// Number of periods.
    ///
    /// ```
    /// assert_eq!(strikeline_quant::stats::DailyReturns::new(&[0.1])?.len(), 1);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.returns.len()
    }

    /// Whether there are no periods.
    ///
    /// ```
    /// assert!(strikeline_quant::stats::DailyReturns::new(&[])?.is_empty());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.returns.is_empty()
    }

    fn excess(&self, risk_free_rate: f64) -> impl ExactSizeIterator<Item = f64> + Clone + '_ {
        let per_period = risk_free_rate / PERIODS_PER_YEAR;
        self.returns.iter().map(move |r| r - per_period)
    }

    /// Annualised Sharpe ratio: `√252 · mean(e) / sd(e)` of the excess returns
    /// `e_i = r_i − r_f/252`, `sd` the **sample** standard deviation (divisor `n−1`).
    /// `None` with fewer than 2 returns, a zero deviation, or a non-finite `r_f`.
    ///
    /// ```
    /// use strikeline_quant::stats::DailyReturns;
    /// let r = DailyReturns::new(&[0.01, 0.03])?; // mean 0.02, sd √0.0002
    /// assert!((r.sharpe(0.0).unwrap() - 0.02 / 0.0002f64.sqrt() * 252f64.sqrt()).abs() < 1e-12);
    /// assert_eq!(DailyReturns::new(&[0.01, 0.01])?.sharpe(0.0), None);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn sharpe(&self, risk_free_rate: f64) -> Option<f64> {
        if !risk_free_rate.is_finite() {
            return None;
        }
        let sd = sample_std(self.excess(risk_free_rate))?;
        let m = mean(self.excess(risk_free_rate))?;
        (sd > 0.0).then(|| m / sd * PERIODS_PER_YEAR.sqrt())
    }

    /// Annualised Sortino ratio: `√252 · mean(e) / DD`, with the downside deviation
    /// `DD = √(Σ min(e_i, 0)² / n)` averaged over **all** `n` periods (not only the
    /// losing ones) and `e_i = r_i − r_f/252`. `None` with no returns, no period below
    /// the risk-free rate (`DD = 0`), or a non-finite `r_f`.
    ///
    /// ```
    /// use strikeline_quant::stats::DailyReturns;
    /// let r = DailyReturns::new(&[0.02, -0.01, 0.02, 0.01])?;
    /// // mean 0.01, DD = √(0.0001/4) = 0.005
    /// assert!((r.sortino(0.0).unwrap() - 2.0 * 252f64.sqrt()).abs() < 1e-12);
    /// assert_eq!(DailyReturns::new(&[0.01])?.sortino(0.0), None);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn sortino(&self, risk_free_rate: f64) -> Option<f64> {
        if !risk_free_rate.is_finite() {
            return None;
        }
        let m = mean(self.excess(risk_free_rate))?;
        let downside = mean(self.excess(risk_free_rate).map(|e| e.min(0.0) * e.min(0.0)))?.sqrt();
        (downside > 0.0).then(|| m / downside * PERIODS_PER_YEAR.sqrt())
    }

    /// Equity after each period, starting from 1: `E_i = E_{i−1}·(1 + r_i)`.
    fn equity(&self) -> impl Iterator<Item = f64> + '_ {
        self.returns.iter().scan(1.0, |equity, r| {
            *equity *= 1.0 + r;
            Some(*equity)
        })
    }

    /// Maximum drawdown as a fraction ≤ 0: `min_i (E_i / max_{j≤i} E_j − 1)`, where the
    /// running peak includes the starting equity `E_0 = 1` (so a first-day loss is a
    /// drawdown). `0` when equity never falls below a previous peak; `None` with no returns.
    ///
    /// ```
    /// use strikeline_quant::stats::DailyReturns;
    /// let r = DailyReturns::new(&[-0.1, 0.5, -0.5])?; // 1 → 0.9 → 1.35 → 0.675
    /// assert!((r.max_drawdown().unwrap() - (-0.5)).abs() < 1e-15);
    /// assert_eq!(DailyReturns::new(&[0.1, 0.2])?.max_drawdown(), Some(0.0));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn max_drawdown(&self) -> Option<f64> {
        if self.is_empty() {
            return None;
        }
        let mut peak: f64 = 1.0;
        let mut worst: f64 = 0.0;
        for equity in self.equity() {
            peak = peak.max(equity);
            worst = worst.min(equity / peak - 1.0);
        }
        Some(worst)
    }

    /// Total compounded return `Π(1 + r_i) − 1` (0 for no returns).
    ///
    /// ```
    /// let r = strikeline_quant::stats::DailyReturns::new(&[0.1, -0.1])?;
    /// assert!((r.cumulative_return() - (-0.01)).abs() < 1e-15);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn cumulative_return(&self) -> f64 {
        self.equity().last().unwrap_or(1.0) - 1.0
    }

    /// Compound annual growth rate `E_n^{1/years} − 1` with `years = n/252`. `None` with no
    /// returns, or when equity ends at or below zero (more than a total loss).
    ///
    /// ```
    /// use strikeline_quant::stats::DailyReturns;
    /// let year = vec![0.001; 252];
    /// let r = DailyReturns::new(&year)?;
    /// assert!((r.cagr().unwrap() - (1.001f64.powi(252) - 1.0)).abs() < 1e-12);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn cagr(&self) -> Option<f64> {
        if self.is_empty() {
            return None;
        }
        let final_equity = self.cumulative_return() + 1.0;
        let years = self.len() as f64 / PERIODS_PER_YEAR;
        (final_equity > 0.0).then(|| final_equity.powf(1.0 / years) - 1.0)
    }

    /// Calmar ratio `CAGR / |max drawdown|`. `None` when either is undefined or there was
    /// no drawdown.
    ///
    /// ```
    /// use strikeline_quant::stats::DailyReturns;
    /// let r = DailyReturns::new(&[0.1, -0.05, 0.02])?;
    /// let expected = r.cagr().unwrap() / r.max_drawdown().unwrap().abs();
    /// assert_eq!(r.calmar(), Some(expected));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn calmar(&self) -> Option<f64> {
        let drawdown = self.max_drawdown()?;
        let cagr = self.cagr()?;
        (drawdown < 0.0).then(|| cagr / drawdown.abs())
    }

    /// Annualised volatility `√252 · sd(r)`, sample standard deviation. `None` with fewer
    /// than 2 returns.
    ///
    /// ```
    /// let r = strikeline_quant::stats::DailyReturns::new(&[0.01, 0.03])?;
    /// assert!((r.annualized_volatility().unwrap() - 0.0002f64.sqrt() * 252f64.sqrt()).abs() < 1e-15);
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn annualized_volatility(&self) -> Option<f64> {
        Some(sample_std(self.returns.iter().copied())? * PERIODS_PER_YEAR.sqrt())
    }

    /// Every statistic, with the annual risk-free rate `risk_free_rate` for Sharpe and
    /// Sortino.
    ///
    /// ```
    /// let r = strikeline_quant::stats::DailyReturns::new(&[0.01, -0.01, 0.02])?;
    /// let s = r.stats(0.02);
    /// assert_eq!(s.sharpe, r.sharpe(0.02));
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    #[must_use]
    pub fn stats(&self, risk_free_rate: f64) -> ReturnStats {
        ReturnStats {
            sharpe: self.sharpe(risk_free_rate),
            sortino: self.sortino(risk_free_rate),
            max_drawdown: self.max_drawdown(),
            cagr: self.cagr(),
            calmar: self.calmar(),
            annualized_volatility: self.annualized_volatility(),
            cumulative_return: self.cumulative_return(),
        }
    }
}

/// Statistics of closed trades' P&Ls (in currency). Amounts keep their sign: losses,
/// the largest loss and drawdowns are negative numbers.
///
/// - a **win** has P&L > 0, a **loss** P&L < 0; a trade at exactly 0 is neither (it
///   counts in the number of trades and breaks streaks);
/// - `win_rate = wins / trades`;
/// - `gross_profit = Σ wins` (≥ 0), `gross_loss = Σ losses` (≤ 0),
///   `net_profit = gross_profit + gross_loss`;
/// - `profit_factor = gross_profit / |gross_loss|`;
/// - `max_drawdown = min_i (C_i − max_{j≤i} C_j)` (≤ 0) of the cumulative P&L
///   `C_i = pnl_1 + … + pnl_i`, starting from `C_0 = 0`, which counts as a peak;
/// - `recovery_factor = net_profit / |max_drawdown|`;
/// - `expectancy = net_profit / trades`, the average P&L per trade (equal to
///   `win_rate·average_win + loss_rate·average_loss`);
/// - streaks are the longest runs of consecutive wins and of consecutive losses.
///
/// `None` marks an undefined figure: no trades (win rate, expectancy), no losses (profit
/// factor), no drawdown (recovery factor), no wins or no losses (largest and average
/// win or loss).
///
/// ```
/// use strikeline_quant::TradeStats;
/// let s = TradeStats::new(&[100.0, -50.0, 200.0, -25.0, -25.0, 0.0])?;
/// assert_eq!((s.trades, s.wins, s.losses), (6, 2, 3));
/// assert_eq!(s.win_rate, Some(2.0 / 6.0));
/// assert_eq!((s.gross_profit, s.gross_loss, s.net_profit), (300.0, -100.0, 200.0));
/// assert_eq!(s.profit_factor, Some(3.0));
/// assert_eq!(s.max_drawdown, -50.0);           // 250 → 200
/// assert_eq!(s.recovery_factor, Some(4.0));
/// assert_eq!((s.largest_win, s.largest_loss), (Some(200.0), Some(-50.0)));
/// assert_eq!(s.expectancy, Some(200.0 / 6.0));
/// assert_eq!((s.longest_winning_streak, s.longest_losing_streak), (1, 2));
/// # Ok::<(), strikeline_quant::InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TradeStats {
    /// Number of trades.
    pub trades: usize,
    /// Trades with P&L > 0.
    pub wins: usize,
    /// Trades with P&L < 0.
    pub losses: usize,
    /// `wins / trades`.
    pub win_rate: Option<f64>,
    /// Sum of winning P&Ls (≥ 0).
    pub gross_profit: f64,
    /// Sum of losing P&Ls (≤ 0).
    pub gross_loss: f64,
    /// Sum of all P&Ls.
    pub net_profit: f64,
    /// `gross_profit / |gross_loss|`.
    pub profit_factor: Option<f64>,
    /// Largest fall of cumulative P&L below its running peak (≤ 0).
    pub max_drawdown: f64,
    /// `net_profit / |max_drawdown|`.
    pub recovery_factor: Option<f64>,
    /// Best trade.
    pub largest_win: Option<f64>,
    /// Worst trade (negative).
    pub largest_loss: Option<f64>,
    /// Mean P&L of the winning trades.
    pub average_win: Option<f64>,
    /// Mean P&L of the losing trades (negative).
    pub average_loss: Option<f64>,
    /// Average P&L per trade.
    pub expectancy: Option<f64>,
    /// Longest run of consecutive wins.
    pub longest_winning_streak: usize,
    /// Longest run of consecutive losses.
    pub longest_losing_streak: usize,
}

impl TradeStats {
    /// Statistics of `pnls`, in trade order (every P&L must be finite).
    ///
    /// ```
    /// use strikeline_quant::TradeStats;
    /// let none = TradeStats::new(&[])?;
    /// assert_eq!((none.win_rate, none.expectancy, none.profit_factor), (None, None, None));
    /// assert!(TradeStats::new(&[f64::NAN]).is_err());
    /// # Ok::<(), strikeline_quant::InputError>(())
    /// ```
    pub fn new(pnls: &[f64]) -> Result<Self, InputError> {
        let (mut wins, mut losses) = (0usize, 0usize);
        let (mut gross_profit, mut gross_loss) = (0.0, 0.0);
        let (mut largest_win, mut largest_loss): (Option<f64>, Option<f64>) = (None, None);
        let (mut cumulative, mut peak, mut max_drawdown): (f64, f64, f64) = (0.0, 0.0, 0.0);
        let (mut win_run, mut loss_run, mut longest_win, mut longest_loss) = (0, 0, 0, 0);
        for &pnl in pnls {
            finite(Field::Price, pnl)?;
            if pnl > 0.0 {
                wins += 1;
                gross_profit += pnl;
                largest_win = Some(largest_win.map_or(pnl, |w| w.max(pnl)));
                win_run += 1;
                loss_run = 0;
            } else if pnl < 0.0 {
                losses += 1;
                gross_loss += pnl;
                largest_loss = Some(largest_loss.map_or(pnl, |l| l.min(pnl)));
                loss_run += 1;
                win_run = 0;
            } else {
                win_run = 0;
                loss_run = 0;
            }
            longest_win = longest_win.max(win_run);
            longest_loss = longest_loss.max(loss_run);
            cumulative += pnl;
            peak = peak.max(cumulative);
            max_drawdown = max_drawdown.min(cumulative - peak);
        }
        let trades = pnls.len();
        let net_profit = gross_profit + gross_loss;
        Ok(TradeStats {
            trades,
            wins,
            losses,
            win_rate: (trades > 0).then(|| wins as f64 / trades as f64),
            gross_profit,
            gross_loss,
            net_profit,
            profit_factor: (gross_loss < 0.0).then(|| gross_profit / -gross_loss),
            max_drawdown,
            recovery_factor: (max_drawdown < 0.0).then(|| net_profit / -max_drawdown),
            largest_win,
            largest_loss,
            average_win: (wins > 0).then(|| gross_profit / wins as f64),
            average_loss: (losses > 0).then(|| gross_loss / losses as f64),
            expectancy: (trades > 0).then(|| net_profit / trades as f64),
            longest_winning_streak: longest_win,
            longest_losing_streak: longest_loss,
        })
    }
}
