//! The daily portfolio summary email: value, net P&L, open positions and what closed today,
//! queued after the close for every user who wants it.

use chrono::{DateTime, Utc};

use super::mailing::{MailingList, base_url, queue};
use crate::foundation::error::Result;
use crate::foundation::state::AppState;

/// Queues the daily portfolio summary for every user who wants it (run once a day, after the
/// close); how many were queued.
pub async fn daily_summaries(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let day = state.market.today(now);
    let mut queued = 0;
    for user in strikeline_store::users::all(&state.db).await? {
        if !MailingList::PortfolioSummary.wanted_by(&user) {
            continue;
        }
        let book = super::portfolio_valuation::book(state, &user, now).await?;
        // In the currency the user reads the app in.
        let money = crate::foundation::money::display_money(state, &user).await;
        let amount = |d: f64| money.format(d);
        let capital = crate::foundation::money::dollars(user.investment_capital_cents);
        let summary = strikeline_engine::portfolio::summary(&book.closed, &book.marks, book.open_commissions, capital);
        let closed_today: Vec<_> = book.closed.iter().filter(|t| t.closed_on == day).collect();
        let closed_pnl: f64 = closed_today.iter().map(|t| t.pnl).sum();
        let text = format!(
            "Your Strikeline portfolio at the close of {day}:\n\n\
             Value: {value} ({pnl} net, {percent:+.2}% on {capital} capital)\n\
             Open positions: {open}, unrealised P&L {unrealised}\n\
             Closed today: {closed} for {closed_pnl}\n\n\
             Figures are marked to the day's last prices. See the full analysis: {base}/portfolio",
            value = amount(summary.total_value),
            pnl = amount(summary.net_pnl),
            percent = summary.total_pnl_percent,
            capital = amount(capital),
            open = book.open.len(),
            unrealised = amount(summary.unrealized_pnl),
            closed = closed_today.len(),
            closed_pnl = amount(closed_pnl),
            base = base_url(state),
        );
        let subject = format!("Portfolio summary for {day}: {}", amount(summary.total_value));
        if queue(state, &user, MailingList::PortfolioSummary, "portfolio_summary", &subject, &text, now).await? {
            queued += 1;
        }
    }
    Ok(queued)
}
