//! The in-memory limits of issue 10: push volume per user, and guest creation per client IP
//! and overall. Each server process counts its own requests (several processes behind a load
//! balancer each allow the configured amount). The records quota lives in the store.

use std::{
    net::IpAddr,
    num::NonZeroU32,
    sync::{
        Arc,
        atomic::{AtomicU32, Ordering},
    },
};

use governor::{
    DefaultDirectRateLimiter, DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter,
    clock::{Clock, DefaultClock, QuantaInstant},
};
use uuid::Uuid;

use crate::{config::quotas::QuotaConfig, error::AppError};

/// Every this many checks, forget keys whose buckets have refilled (bounds memory).
const SWEEP_EVERY: u32 = 1_024;

#[derive(Clone)]
pub struct Quotas {
    inner: Arc<Inner>,
}

struct Inner {
    max_records: i64,
    pushes: DefaultKeyedRateLimiter<Uuid>,
    guests_per_ip: DefaultKeyedRateLimiter<IpAddr>,
    guests: DefaultDirectRateLimiter,
    checks: AtomicU32,
}

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

fn wait_secs(not_until: &NotUntil<QuantaInstant>) -> u64 {
    let wait = not_until.wait_time_from(DefaultClock::default().now());
    (wait.as_secs_f64().ceil() as u64).max(1)
}

impl Quotas {
    pub fn new(config: &QuotaConfig) -> Quotas {
        Quotas {
            inner: Arc::new(Inner {
                max_records: i64::from(config.max_records_per_user),
                pushes: RateLimiter::keyed(Quota::per_minute(at_least_one(
                    config.push_mutations_per_minute,
                ))),
                guests_per_ip: RateLimiter::keyed(Quota::per_hour(at_least_one(
                    config.guest_rate_limit_per_ip_per_hour,
                ))),
                guests: RateLimiter::direct(Quota::per_hour(at_least_one(
                    config.guest_rate_limit_per_hour,
                ))),
                checks: AtomicU32::new(0),
            }),
        }
    }

    /// The most records (entry and invoice rows) one user may hold.
    pub fn max_records(&self) -> i64 {
        self.inner.max_records
    }

    fn sweep(&self) {
        let inner = &self.inner;
        if inner.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            inner.pushes.retain_recent();
            inner.guests_per_ip.retain_recent();
        }
    }

    /// Takes `mutations` from the user's push allowance, or says when to come back. A push is
    /// taken whole or not at all, so a refused push changed nothing.
    pub fn check_push(&self, user_id: Uuid, mutations: usize) -> Result<(), AppError> {
        self.sweep();
        let Some(n) = NonZeroU32::new(u32::try_from(mutations).unwrap_or(u32::MAX)) else {
            return Ok(());
        };
        let retry_after_secs = match self.inner.pushes.check_key_n(&user_id, n) {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(not_until)) => wait_secs(&not_until),
            // More than a minute's allowance in one push: validation keeps the allowance at
            // least one full push, so this is only reachable with a bigger push than allowed.
            Err(_) => 60,
        };
        Err(AppError::QuotaExceeded {
            retry_after_secs,
            message: format!(
                "Too many changes sent in a short time. They will be sent again in \
                 {retry_after_secs} seconds."
            ),
        })
    }

    /// One guest account from `ip`, within the per-IP and the overall hourly limits.
    pub fn check_guest(&self, ip: IpAddr) -> Result<(), AppError> {
        self.sweep();
        let limited = self
            .inner
            .guests_per_ip
            .check_key(&ip)
            .and_then(|()| self.inner.guests.check());
        limited.map_err(|not_until| AppError::RateLimited {
            retry_after_secs: wait_secs(&not_until),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quotas(tweak: impl FnOnce(&mut QuotaConfig)) -> Quotas {
        let mut config = QuotaConfig::default();
        tweak(&mut config);
        Quotas::new(&config)
    }

    #[test]
    fn pushes_are_counted_in_mutations_per_user() {
        let quotas = quotas(|c| c.push_mutations_per_minute = 500);
        let (driver, other) = (Uuid::now_v7(), Uuid::now_v7());
        quotas.check_push(driver, 300).unwrap();
        quotas.check_push(driver, 200).unwrap();
        match quotas.check_push(driver, 1) {
            Err(AppError::QuotaExceeded {
                retry_after_secs, ..
            }) => assert!(retry_after_secs >= 1),
            other => panic!("expected quota-exceeded, got {other:?}"),
        }
        quotas.check_push(other, 500).unwrap();
        quotas.check_push(other, 0).unwrap();
    }

    #[test]
    fn guests_are_limited_per_ip_and_overall() {
        let quotas = quotas(|c| {
            c.guest_rate_limit_per_ip_per_hour = 2;
            c.guest_rate_limit_per_hour = 3;
        });
        let ip = |last: u8| IpAddr::from([10, 0, 0, last]);
        quotas.check_guest(ip(1)).unwrap();
        quotas.check_guest(ip(1)).unwrap();
        assert!(matches!(
            quotas.check_guest(ip(1)),
            Err(AppError::RateLimited { .. })
        ));
        quotas.check_guest(ip(2)).unwrap();
        // The overall limit holds whatever the address.
        assert!(quotas.check_guest(ip(3)).is_err());
    }
}
