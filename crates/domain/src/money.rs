//! Money is integer pence everywhere; pounds appear only when formatting for people.

use serde::{Deserialize, Serialize};
use std::{
    fmt,
    ops::{Add, Mul},
};

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(transparent)]
pub struct Money(pub i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub fn pence(self) -> i64 {
        self.0
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, other: Money) -> Money {
        Money(self.0.saturating_add(other.0))
    }
}

impl Mul<i64> for Money {
    type Output = Money;
    fn mul(self, n: i64) -> Money {
        Money(self.0.saturating_mul(n))
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, Add::add)
    }
}

/// `£1,234.56` style, as shown to UK drivers.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let pounds = (abs / 100).to_string();
        let mut grouped = String::new();
        for (i, digit) in pounds.chars().enumerate() {
            if i > 0 && (pounds.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        write!(f, "{sign}£{grouped}.{:02}", abs % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_pounds_and_pence() {
        assert_eq!(Money(0).to_string(), "£0.00");
        assert_eq!(Money(198).to_string(), "£1.98");
        assert_eq!(Money(123_456).to_string(), "£1,234.56");
        assert_eq!(Money(-5).to_string(), "-£0.05");
        assert_eq!(Money(100_000_000).to_string(), "£1,000,000.00");
    }

    #[test]
    fn arithmetic_saturates_instead_of_overflowing() {
        assert_eq!(Money(i64::MAX) + Money(1), Money(i64::MAX));
        assert_eq!(Money(198) * 110, Money(21_780));
    }
}
