//! `[ratings]` and a player's start rating checked.

use super::parse::Checker;
use super::raw::RawRatings;
use super::{ConfigError, StartRating};
use crate::ratings::{Method, Period, Settings};

/// The ratings a list takes: anything a federation's players bring.
const RATINGS: std::ops::RangeInclusive<i64> = 100..=3500;

impl Checker<'_> {
    pub(super) fn ratings(&self, raw: &RawRatings) -> Result<Settings, ConfigError> {
        let mut settings = Settings::default();
        if let Some(method) = raw.method.as_deref() {
            settings.method = Method::from_name(method).ok_or_else(|| {
                self.err(
                    "ratings.method",
                    format!("{method:?} is not a rating method the clerk knows"),
                    "write \"fide\" (FIDE's tables, the default) or \"glicko2\"",
                )
            })?;
        }
        if let Some(period) = raw.period.as_deref() {
            settings.period = Period::from_name(period).ok_or_else(|| {
                self.err(
                    "ratings.period",
                    format!("{period:?} is not a period"),
                    "write \"month\", \"quarter\" (the default) or \"year\"",
                )
            })?;
        }
        if let Some(games) = raw.newcomer_games {
            settings.newcomer_games = u32::try_from(games)
                .ok()
                .filter(|games| (1..=100).contains(games))
                .ok_or_else(|| {
                    self.err(
                        "ratings.newcomer_games",
                        format!("{games} games cannot make a first rating"),
                        "give the number of rated games a newcomer needs, from 1 to 100 (FIDE: 5)",
                    )
                })?;
        }
        if let Some(rate) = raw.rate_forfeits {
            settings.rate_forfeits = rate;
        }
        Ok(settings)
    }

    /// A player's `rating` and its `rating_source`, if given.
    pub(super) fn start_rating(
        &self,
        key: &str,
        rating: Option<i64>,
        source: Option<&str>,
    ) -> Result<Option<StartRating>, ConfigError> {
        let source = source.map(str::trim).filter(|s| !s.is_empty());
        let Some(rating) = rating else {
            return match source {
                Some(_) => Err(self.err(
                    &format!("{key}.rating_source"),
                    "is given without a rating".into(),
                    "write his rating beside it (rating = 2150), or leave the source out",
                )),
                None => Ok(None),
            };
        };
        let Some(rating) = Some(rating)
            .filter(|r| RATINGS.contains(r))
            .and_then(|r| u32::try_from(r).ok())
        else {
            return Err(self.err(
                &format!("{key}.rating"),
                format!("{rating} is not a rating"),
                "write the rating he brings, from 100 to 3500 (rating = 2150), or leave it out",
            ));
        };
        Ok(Some(StartRating {
            rating,
            source: source.map(str::to_string),
        }))
    }
}
