//! The time sign-in reads where it expires something (phone codes and send intervals, e-mailed
//! links): the system clock, or one a test moves by hand (to cross a 5-minute code lifetime or
//! a 1-hour link lifetime without waiting).

use std::sync::{
    Arc,
    atomic::{AtomicI64, Ordering},
};

#[derive(Clone)]
pub enum Clock {
    System,
    Manual(Arc<AtomicI64>),
}

impl Clock {
    /// A hand-moved clock starting at the current time, and the handle that moves it.
    pub fn manual() -> (Clock, ManualTime) {
        let now = Arc::new(AtomicI64::new(domain::time_fmt::now_ms()));
        (Clock::Manual(now.clone()), ManualTime(now))
    }

    pub fn now_ms(&self) -> i64 {
        match self {
            Clock::System => domain::time_fmt::now_ms(),
            Clock::Manual(now) => now.load(Ordering::SeqCst),
        }
    }
}

#[derive(Clone)]
pub struct ManualTime(Arc<AtomicI64>);

impl ManualTime {
    pub fn advance_ms(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}
