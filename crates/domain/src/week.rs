//! Week maths: weeks start on Sunday (spec §2 "Weekly stats").

use time::{Date, Duration};

/// The Sunday on or before `date`.
pub fn week_start(date: Date) -> Date {
    date - Duration::days(i64::from(date.weekday().number_days_from_sunday()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use time::{Weekday, macros::date};

    #[test]
    fn sunday_starts_the_week() {
        assert_eq!(week_start(date!(2025 - 03 - 23)), date!(2025 - 03 - 23)); // Sunday
        assert_eq!(week_start(date!(2025 - 03 - 22)), date!(2025 - 03 - 16)); // Saturday
        assert_eq!(week_start(date!(2025 - 01 - 01)), date!(2024 - 12 - 29)); // across a year end
    }

    proptest! {
        #[test]
        fn start_is_a_sunday_within_six_days(days in 0i64..40_000) {
            let d = date!(2000 - 01 - 01) + Duration::days(days);
            let start = week_start(d);
            prop_assert_eq!(start.weekday(), Weekday::Sunday);
            prop_assert!((d - start).whole_days() <= 6 && start <= d);
        }
    }
}
