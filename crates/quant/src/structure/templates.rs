//! The structures traders name, built from a centre strike, a width and expiries, and
//! priced at the model's value (rounded to the cent) so they can be analysed at once.

use std::fmt;
use std::str::FromStr;

use crate::american::Exercise;
use crate::error::{Field, InputError, positive, price_level, years};
use crate::pricing::{OptionInputs, OptionType};

use super::{Leg, Side, StructureError, Underlying};

/// A named structure. `K` is the centre strike and `w` the width; the legs are (per
/// contract of the template):
///
/// | template | legs |
/// |---|---|
/// | long / short call | ± call `K` |
/// | long / short put | ± put `K` |
/// | covered call | +100 shares, − call `K+w` |
/// | protective put | +100 shares, + put `K−w` |
/// | collar | +100 shares, + put `K−w`, − call `K+w` |
/// | bull call spread | + call `K`, − call `K+w` |
/// | bear call spread | − call `K`, + call `K+w` |
/// | bull put spread | + put `K−w`, − put `K` |
/// | bear put spread | − put `K−w`, + put `K` |
/// | straddle | + call `K`, + put `K` |
/// | strangle | + put `K−w`, + call `K+w` |
/// | iron condor | + put `K−2w`, − put `K−w`, − call `K+w`, + call `K+2w` |
/// | iron butterfly | + put `K−w`, − put `K`, − call `K`, + call `K+w` |
/// | call butterfly | + call `K−w`, − 2 calls `K`, + call `K+w` |
/// | put butterfly | + put `K−w`, − 2 puts `K`, + put `K+w` |
/// | calendar | − call `K` near, + call `K` far |
/// | diagonal | − call `K+w` near, + call `K` far |
///
/// ```
/// use strikeline_quant::structure::{Template, TemplateInputs, Underlying};
/// let market = Underlying { spot: 100.0, rate: 0.03, dividend_yield: 0.0, volatility: 0.25 };
/// let inputs = TemplateInputs { center: 100.0, width: 5.0, expiry: 30.0 / 365.0, far_expiry: 60.0 / 365.0, contracts: 1, exercise: Default::default() };
/// let condor = Template::IronCondor.legs(market, inputs)?;
/// let strikes: Vec<f64> = condor.iter().filter_map(|leg| leg.strike).collect();
/// assert_eq!(strikes, vec![90.0, 95.0, 105.0, 110.0]);
/// assert_eq!("iron-condor".parse::<Template>(), Ok(Template::IronCondor));
/// # Ok::<(), strikeline_quant::structure::StructureError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Template {
    /// Buy a call.
    LongCall,
    /// Sell a call.
    ShortCall,
    /// Buy a put.
    LongPut,
    /// Sell a put.
    ShortPut,
    /// Own 100 shares and sell a call above.
    CoveredCall,
    /// Own 100 shares and buy a put below.
    ProtectivePut,
    /// Own 100 shares, buy a put below and sell a call above.
    Collar,
    /// A call debit spread.
    BullCallSpread,
    /// A call credit spread.
    BearCallSpread,
    /// A put credit spread.
    BullPutSpread,
    /// A put debit spread.
    BearPutSpread,
    /// Buy a call and a put at one strike.
    Straddle,
    /// Buy a put below and a call above.
    Strangle,
    /// Sell a put spread below and a call spread above.
    IronCondor,
    /// Sell a straddle and buy the wings.
    IronButterfly,
    /// Buy the wings, sell two calls in the middle.
    CallButterfly,
    /// Buy the wings, sell two puts in the middle.
    PutButterfly,
    /// Sell a near call, buy a far one at the same strike.
    Calendar,
    /// Sell a near call above, buy a far one at the centre.
    Diagonal,
}

/// What a template is built from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TemplateInputs {
    /// The centre strike `K` (usually the strike nearest the spot).
    pub center: f64,
    /// The distance `w` between strikes (> 0; every strike must stay above 0).
    pub width: f64,
    /// Years to the (near) expiry.
    pub expiry: f64,
    /// Years to the far expiry of a calendar or diagonal (after `expiry`); unused otherwise.
    pub far_expiry: f64,
    /// How many of the template (1 to 10,000; a template with stock holds 100 shares each).
    pub contracts: u32,
    /// Whether the premiums are American or European model prices.
    pub exercise: Exercise,
}

/// Shares a template's stock leg holds per contract (the options' multiplier).
const SHARES_PER_CONTRACT: u32 = 100;

const NAMES: [(Template, &str); 19] = [
    (Template::LongCall, "long-call"),
    (Template::ShortCall, "short-call"),
    (Template::LongPut, "long-put"),
    (Template::ShortPut, "short-put"),
    (Template::CoveredCall, "covered-call"),
    (Template::ProtectivePut, "protective-put"),
    (Template::Collar, "collar"),
    (Template::BullCallSpread, "bull-call-spread"),
    (Template::BearCallSpread, "bear-call-spread"),
    (Template::BullPutSpread, "bull-put-spread"),
    (Template::BearPutSpread, "bear-put-spread"),
    (Template::Straddle, "straddle"),
    (Template::Strangle, "strangle"),
    (Template::IronCondor, "iron-condor"),
    (Template::IronButterfly, "iron-butterfly"),
    (Template::CallButterfly, "call-butterfly"),
    (Template::PutButterfly, "put-butterfly"),
    (Template::Calendar, "calendar"),
    (Template::Diagonal, "diagonal"),
];

/// A leg of a template before pricing: instrument, side, count per template, strike
/// offset in widths, and whether it is on the far expiry.
#[derive(Clone, Copy)]
enum Part {
    Call(Side, u32, f64, bool),
    Put(Side, u32, f64, bool),
    Shares(Side),
}

impl Template {
    /// Every template, in the order above.
    pub const ALL: [Template; 19] = {
        let mut all = [Template::LongCall; 19];
        let mut i = 0;
        while i < NAMES.len() {
            all[i] = NAMES[i].0;
            i += 1;
        }
        all
    };

    /// The template's name as written in URLs and the CLI (`iron-condor`).
    #[must_use]
    pub fn name(self) -> &'static str {
        NAMES.iter().find(|(t, _)| *t == self).map_or("", |(_, name)| name)
    }

    /// Whether the template needs a far expiry.
    #[must_use]
    pub fn uses_far_expiry(self) -> bool {
        matches!(self, Template::Calendar | Template::Diagonal)
    }

    fn parts(self) -> Vec<Part> {
        use Part::{Call, Put, Shares};
        use Side::{Long, Short};
        match self {
            Template::LongCall => vec![Call(Long, 1, 0.0, false)],
            Template::ShortCall => vec![Call(Short, 1, 0.0, false)],
            Template::LongPut => vec![Put(Long, 1, 0.0, false)],
            Template::ShortPut => vec![Put(Short, 1, 0.0, false)],
            Template::CoveredCall => vec![Shares(Long), Call(Short, 1, 1.0, false)],
            Template::ProtectivePut => vec![Shares(Long), Put(Long, 1, -1.0, false)],
            Template::Collar => vec![Shares(Long), Put(Long, 1, -1.0, false), Call(Short, 1, 1.0, false)],
            Template::BullCallSpread => vec![Call(Long, 1, 0.0, false), Call(Short, 1, 1.0, false)],
            Template::BearCallSpread => vec![Call(Short, 1, 0.0, false), Call(Long, 1, 1.0, false)],
            Template::BullPutSpread => vec![Put(Long, 1, -1.0, false), Put(Short, 1, 0.0, false)],
            Template::BearPutSpread => vec![Put(Short, 1, -1.0, false), Put(Long, 1, 0.0, false)],
            Template::Straddle => vec![Call(Long, 1, 0.0, false), Put(Long, 1, 0.0, false)],
            Template::Strangle => vec![Put(Long, 1, -1.0, false), Call(Long, 1, 1.0, false)],
            Template::IronCondor => {
                vec![Put(Long, 1, -2.0, false), Put(Short, 1, -1.0, false), Call(Short, 1, 1.0, false), Call(Long, 1, 2.0, false)]
            }
            Template::IronButterfly => {
                vec![Put(Long, 1, -1.0, false), Put(Short, 1, 0.0, false), Call(Short, 1, 0.0, false), Call(Long, 1, 1.0, false)]
            }
            Template::CallButterfly => vec![Call(Long, 1, -1.0, false), Call(Short, 2, 0.0, false), Call(Long, 1, 1.0, false)],
            Template::PutButterfly => vec![Put(Long, 1, -1.0, false), Put(Short, 2, 0.0, false), Put(Long, 1, 1.0, false)],
            Template::Calendar => vec![Call(Short, 1, 0.0, false), Call(Long, 1, 0.0, true)],
            Template::Diagonal => vec![Call(Short, 1, 1.0, false), Call(Long, 1, 0.0, true)],
        }
    }

    /// The template's legs on `underlying`, each priced at the model's value (European or
    /// American, as `inputs` says) with the underlying's volatility, rounded to the cent. Refused: a strike at or below 0, a
    /// far expiry not after the near one (calendars and diagonals), too many contracts.
    pub fn legs(self, underlying: Underlying, inputs: TemplateInputs) -> Result<Vec<Leg>, StructureError> {
        let center = price_level(Field::Strike, inputs.center)?;
        let width = positive(Field::Width, inputs.width)?;
        let expiry = positive(Field::TimeToExpiry, inputs.expiry).and_then(|t| years(Field::TimeToExpiry, t))?;
        let far = if self.uses_far_expiry() {
            let far = years(Field::TimeToExpiry, inputs.far_expiry)?;
            if far <= expiry {
                return Err(InputError::OutOfRange { field: Field::TimeToExpiry, value: far, min: expiry, max: 100.0 }.into());
            }
            far
        } else {
            expiry
        };
        let most = super::MAX_QUANTITY / 100;
        if inputs.contracts == 0 || inputs.contracts > most {
            let error =
                InputError::OutOfRange { field: Field::Quantity, value: f64::from(inputs.contracts), min: 1.0, max: f64::from(most) };
            return Err(error.into());
        }
        let n = inputs.contracts;
        let option = |kind: OptionType, offset: f64, on_far: bool| -> Result<(f64, f64, f64), StructureError> {
            let strike = center + offset * width;
            if strike <= 0.0 {
                return Err(InputError::OutOfRange { field: Field::Width, value: width, min: 0.0, max: center / offset.abs() }.into());
            }
            let time_to_expiry = if on_far { far } else { expiry };
            let terms = OptionInputs {
                spot: underlying.spot,
                strike,
                rate: underlying.rate,
                dividend_yield: underlying.dividend_yield,
                volatility: underlying.volatility,
                time_to_expiry,
            };
            let price = inputs.exercise.price(terms, kind)?;
            Ok((strike, time_to_expiry, (price * 100.0).round() / 100.0))
        };
        self.parts()
            .into_iter()
            .map(|part| match part {
                Part::Call(side, count, offset, on_far) => {
                    let (strike, t, premium) = option(OptionType::Call, offset, on_far)?;
                    Ok(Leg::call(side, count * n, strike, t, premium))
                }
                Part::Put(side, count, offset, on_far) => {
                    let (strike, t, premium) = option(OptionType::Put, offset, on_far)?;
                    Ok(Leg::put(side, count * n, strike, t, premium))
                }
                Part::Shares(side) => {
                    let spot = price_level(Field::Spot, underlying.spot)?;
                    // At most MAX_QUANTITY shares: contracts ≤ MAX_QUANTITY / 100.
                    Ok(Leg::stock(side, n * SHARES_PER_CONTRACT, spot))
                }
            })
            .collect()
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a template's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTemplate(pub String);

impl fmt::Display for UnknownTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = NAMES.iter().map(|(_, name)| *name).collect();
        write!(f, "unknown template {:?}; one of {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownTemplate {}

impl FromStr for Template {
    type Err = UnknownTemplate;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        NAMES.iter().find(|(_, name)| name.eq_ignore_ascii_case(s)).map(|(t, _)| *t).ok_or_else(|| UnknownTemplate(s.to_owned()))
    }
}
