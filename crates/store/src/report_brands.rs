//! The `report_brands` table: an account's own brand on its PDF reports (white-label), and
//! whether a report of each month is emailed.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A saved brand.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ReportBrand {
    pub user_id: String,
    pub name: String,
    /// `#rrggbb`.
    pub primary_color: String,
    pub accent_color: String,
    pub footer: String,
    /// The logo, a PNG in base64.
    pub logo_png: Option<String>,
    pub monthly_email: bool,
    /// The month (`YYYY-MM`) whose report was last queued.
    pub last_monthly: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The fields a user sets (the logo apart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrandFields<'a> {
    pub name: &'a str,
    pub primary_color: &'a str,
    pub accent_color: &'a str,
    pub footer: &'a str,
    pub monthly_email: bool,
}

const COLUMNS: &str = "user_id, name, primary_color, accent_color, footer, logo_png, monthly_email, last_monthly, created_at, updated_at";

pub async fn get(db: &Db, user_id: &str) -> StoreResult<Option<ReportBrand>> {
    let sql = format!("SELECT {COLUMNS} FROM report_brands WHERE user_id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ReportBrand>(&sql).bind(user_id).fetch_optional(pool).await?))
}

/// Saves the user's brand fields; the logo stays as it was. `month` (`YYYY-MM`) is the
/// current month: a brand saved for the first time, or whose monthly report is just turned
/// on, counts it as sent, so the first report is the next month's, not one at once.
pub async fn save(db: &Db, user_id: &str, fields: &BrandFields<'_>, month: &str, now: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO report_brands (user_id, name, primary_color, accent_color, footer, monthly_email, last_monthly, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $8, $7, $7) \
             ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, primary_color = excluded.primary_color, \
             accent_color = excluded.accent_color, footer = excluded.footer, monthly_email = excluded.monthly_email, \
             last_monthly = CASE WHEN excluded.monthly_email AND NOT report_brands.monthly_email THEN excluded.last_monthly \
             ELSE report_brands.last_monthly END, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(fields.name)
        .bind(fields.primary_color)
        .bind(fields.accent_color)
        .bind(fields.footer)
        .bind(fields.monthly_email)
        .bind(now)
        .bind(month)
        .execute(pool)
        .await?;
    });
    Ok(())
}

/// Sets (or, with `None`, removes) the logo of a saved brand; whether there was a brand.
pub async fn set_logo(db: &Db, user_id: &str, logo_png: Option<&str>, now: DateTime<Utc>) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("UPDATE report_brands SET logo_png = $1, updated_at = $2 WHERE user_id = $3")
            .bind(logo_png)
            .bind(now)
            .bind(user_id)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(done > 0)
}

/// Turns the monthly report on or off (the email's one-click unsubscribe turns it off).
pub async fn set_monthly_email(db: &Db, user_id: &str, on: bool, now: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE report_brands SET monthly_email = $1, updated_at = $2 WHERE user_id = $3")
            .bind(on)
            .bind(now)
            .bind(user_id)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Forgets the user's brand (reports go back to the house brand); whether there was one.
pub async fn delete(db: &Db, user_id: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM report_brands WHERE user_id = $1").bind(user_id).execute(pool).await?.rows_affected()
    });
    Ok(done > 0)
}

/// The brands whose monthly report for `month` (`YYYY-MM`) is still to be queued.
pub async fn due_monthly(db: &Db, month: &str) -> StoreResult<Vec<ReportBrand>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM report_brands WHERE monthly_email = TRUE \
         AND (last_monthly IS NULL OR last_monthly < $1) ORDER BY user_id"
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, ReportBrand>(&sql).bind(month).fetch_all(pool).await?))
}

/// Claims `month`'s report for the user: true for the one caller that moved `last_monthly`
/// to `month` (two instances running the job at once send it once).
pub async fn claim_monthly(db: &Db, user_id: &str, month: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query(
            "UPDATE report_brands SET last_monthly = $1 \
             WHERE user_id = $2 AND monthly_email = TRUE AND (last_monthly IS NULL OR last_monthly < $1)",
        )
        .bind(month)
        .bind(user_id)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done == 1)
}

/// Gives back a month [`claim_monthly`] took when its report could not be queued: the month
/// goes back to `previous`, so the next run tries again.
pub async fn release_monthly(db: &Db, user_id: &str, month: &str, previous: Option<&str>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE report_brands SET last_monthly = $1 WHERE user_id = $2 AND last_monthly = $3")
            .bind(previous)
            .bind(user_id)
            .bind(month)
            .execute(pool)
            .await?;
    });
    Ok(())
}
