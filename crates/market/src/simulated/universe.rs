//! The simulated market's built-in listings: fifty liquid US names across the ten sectors.
//!
//! Reference prices are rounded closes of early January 2025 (the simulation's reference
//! date); volatilities, drifts, average daily volumes and shares outstanding are round,
//! plausible figures for each name, not live data.

use crate::data::Sector;

/// One built-in row: symbol, company, sector, reference price ($), annual volatility,
/// annual drift, average daily volume (millions of shares), shares outstanding (millions).
pub(super) type Row = (&'static str, &'static str, Sector, f64, f64, f64, f64, f64);

use Sector::{Communications, Consumer, Energy, Financial, Healthcare, Industrial, Materials, RealEstate, Technology, Utilities};

pub(super) const BUILT_IN: [Row; 50] = [
    // Technology
    ("AAPL", "Apple Inc.", Technology, 243.0, 0.27, 0.14, 50.0, 15_100.0),
    ("MSFT", "Microsoft Corporation", Technology, 420.0, 0.25, 0.14, 20.0, 7_430.0),
    ("NVDA", "NVIDIA Corporation", Technology, 138.0, 0.50, 0.25, 250.0, 24_500.0),
    ("AVGO", "Broadcom Inc.", Technology, 232.0, 0.40, 0.20, 25.0, 4_690.0),
    ("ORCL", "Oracle Corporation", Technology, 167.0, 0.30, 0.12, 9.0, 2_800.0),
    ("CRM", "Salesforce, Inc.", Technology, 335.0, 0.33, 0.10, 6.0, 960.0),
    ("AMD", "Advanced Micro Devices, Inc.", Technology, 121.0, 0.50, 0.15, 45.0, 1_620.0),
    ("ADBE", "Adobe Inc.", Technology, 440.0, 0.32, 0.10, 3.5, 435.0),
    ("INTC", "Intel Corporation", Technology, 20.0, 0.40, 0.00, 80.0, 4_310.0),
    // Communications
    ("GOOGL", "Alphabet Inc.", Communications, 190.0, 0.30, 0.14, 25.0, 12_200.0),
    ("META", "Meta Platforms, Inc.", Communications, 600.0, 0.38, 0.16, 13.0, 2_520.0),
    ("NFLX", "Netflix, Inc.", Communications, 890.0, 0.40, 0.18, 3.5, 428.0),
    ("DIS", "The Walt Disney Company", Communications, 111.0, 0.28, 0.05, 9.0, 1_810.0),
    ("VZ", "Verizon Communications Inc.", Communications, 40.0, 0.18, 0.02, 18.0, 4_210.0),
    ("T", "AT&T Inc.", Communications, 23.0, 0.20, 0.02, 35.0, 7_180.0),
    // Consumer
    ("AMZN", "Amazon.com, Inc.", Consumer, 220.0, 0.32, 0.16, 40.0, 10_500.0),
    ("TSLA", "Tesla, Inc.", Consumer, 400.0, 0.58, 0.20, 90.0, 3_210.0),
    ("HD", "The Home Depot, Inc.", Consumer, 390.0, 0.22, 0.09, 3.5, 993.0),
    ("MCD", "McDonald's Corporation", Consumer, 290.0, 0.18, 0.08, 3.2, 716.0),
    ("NKE", "NIKE, Inc.", Consumer, 75.0, 0.30, 0.02, 11.0, 1_480.0),
    ("WMT", "Walmart Inc.", Consumer, 91.0, 0.18, 0.10, 17.0, 8_030.0),
    ("KO", "The Coca-Cola Company", Consumer, 62.0, 0.15, 0.06, 14.0, 4_310.0),
    ("PG", "The Procter & Gamble Company", Consumer, 167.0, 0.16, 0.07, 7.0, 2_350.0),
    ("COST", "Costco Wholesale Corporation", Consumer, 915.0, 0.22, 0.14, 2.0, 444.0),
    // Financial
    ("JPM", "JPMorgan Chase & Co.", Financial, 240.0, 0.24, 0.10, 9.0, 2_800.0),
    ("BAC", "Bank of America Corporation", Financial, 44.0, 0.28, 0.06, 35.0, 7_670.0),
    ("V", "Visa Inc.", Financial, 315.0, 0.21, 0.11, 6.0, 1_950.0),
    ("MA", "Mastercard Incorporated", Financial, 525.0, 0.22, 0.11, 2.7, 917.0),
    ("GS", "The Goldman Sachs Group, Inc.", Financial, 575.0, 0.27, 0.09, 2.0, 313.0),
    ("WFC", "Wells Fargo & Company", Financial, 70.0, 0.28, 0.06, 16.0, 3_330.0),
    ("BRK.B", "Berkshire Hathaway Inc.", Financial, 453.0, 0.17, 0.09, 4.0, 2_160.0),
    // Healthcare
    ("JNJ", "Johnson & Johnson", Healthcare, 145.0, 0.16, 0.05, 7.0, 2_410.0),
    ("UNH", "UnitedHealth Group Incorporated", Healthcare, 505.0, 0.24, 0.10, 4.0, 920.0),
    ("LLY", "Eli Lilly and Company", Healthcare, 775.0, 0.30, 0.20, 3.5, 948.0),
    ("PFE", "Pfizer Inc.", Healthcare, 26.5, 0.22, 0.00, 40.0, 5_670.0),
    ("MRK", "Merck & Co., Inc.", Healthcare, 99.0, 0.20, 0.05, 10.0, 2_530.0),
    ("ABBV", "AbbVie Inc.", Healthcare, 178.0, 0.22, 0.09, 6.0, 1_770.0),
    // Energy
    ("XOM", "Exxon Mobil Corporation", Energy, 107.0, 0.25, 0.05, 15.0, 4_390.0),
    ("CVX", "Chevron Corporation", Energy, 145.0, 0.25, 0.04, 8.0, 1_800.0),
    ("COP", "ConocoPhillips", Energy, 99.0, 0.30, 0.06, 7.0, 1_290.0),
    // Industrial
    ("CAT", "Caterpillar Inc.", Industrial, 363.0, 0.26, 0.11, 2.5, 483.0),
    ("BA", "The Boeing Company", Industrial, 177.0, 0.35, 0.02, 8.0, 748.0),
    ("GE", "GE Aerospace", Industrial, 167.0, 0.30, 0.10, 5.0, 1_080.0),
    ("HON", "Honeywell International Inc.", Industrial, 226.0, 0.20, 0.06, 3.5, 650.0),
    // Utilities
    ("NEE", "NextEra Energy, Inc.", Utilities, 72.0, 0.22, 0.07, 10.0, 2_060.0),
    ("DUK", "Duke Energy Corporation", Utilities, 108.0, 0.17, 0.05, 3.3, 777.0),
    // Real Estate
    ("PLD", "Prologis, Inc.", RealEstate, 106.0, 0.26, 0.07, 3.5, 927.0),
    ("AMT", "American Tower Corporation", RealEstate, 183.0, 0.26, 0.05, 2.5, 467.0),
    // Materials
    ("LIN", "Linde plc", Materials, 420.0, 0.20, 0.10, 2.0, 475.0),
    ("FCX", "Freeport-McMoRan Inc.", Materials, 38.0, 0.42, 0.05, 13.0, 1_440.0),
];

/// How strongly a sector's names move with the market factor (the correlation of a name's
/// diffusion with the common factor).
pub(super) const fn market_correlation(sector: Sector) -> f64 {
    match sector {
        Sector::Technology | Sector::Financial => 0.65,
        Sector::Communications | Sector::Industrial => 0.6,
        Sector::Consumer | Sector::RealEstate => 0.55,
        Sector::Materials => 0.5,
        Sector::Healthcare | Sector::Energy => 0.45,
        Sector::Utilities => 0.4,
    }
}
