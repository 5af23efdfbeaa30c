//! Rate limits on the auth endpoints, checked before any password hashing happens.

use std::{
    hash::Hash,
    net::IpAddr,
    num::NonZeroU32,
    sync::{
        Arc,
        atomic::{AtomicU32, Ordering},
    },
};

use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock, DefaultClock},
};

use crate::{error::AppError, http::client_ip::IpKey};

/// Every this many checks, forget keys whose buckets have refilled (bounds memory).
const SWEEP_EVERY: u32 = 1_024;

#[derive(Clone)]
pub struct AuthLimits {
    per_ip: Arc<Limiter<IpKey>>,
    per_email: Arc<Limiter<String>>,
}

impl AuthLimits {
    pub fn new(per_ip_per_minute: u32, per_email_per_minute: u32) -> AuthLimits {
        AuthLimits {
            per_ip: Arc::new(Limiter::per_minute(per_ip_per_minute)),
            per_email: Arc::new(Limiter::per_minute(per_email_per_minute)),
        }
    }

    /// Counts under the client's [`IpKey`]: an IPv6 /64 shares one bucket.
    pub fn check_ip(&self, ip: IpAddr) -> Result<(), AppError> {
        self.per_ip.check(IpKey::of(ip))
    }

    pub fn check_email(&self, normalised_email: &str) -> Result<(), AppError> {
        self.per_email.check(normalised_email.to_owned())
    }
}

/// A per-key limit of `n` requests a minute (bursts up to `n`).
pub struct Limiter<K: Hash + Eq + Clone> {
    inner: DefaultKeyedRateLimiter<K>,
    checks: AtomicU32,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    pub fn per_minute(n: u32) -> Self {
        let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        Limiter {
            inner: RateLimiter::keyed(Quota::per_minute(n)),
            checks: AtomicU32::new(0),
        }
    }

    pub fn check(&self, key: K) -> Result<(), AppError> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.inner.retain_recent();
        }
        self.inner.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            AppError::RateLimited {
                retry_after_secs: wait.as_secs_f64().ceil() as u64,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trips_after_the_quota_and_reports_a_wait() {
        let limits = AuthLimits::new(3, 2);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..3 {
            limits.check_ip(ip).unwrap();
        }
        match limits.check_ip(ip) {
            Err(AppError::RateLimited { retry_after_secs }) => assert!(retry_after_secs >= 1),
            other => panic!("expected rate limit, got {other:?}"),
        }
        // Other keys are unaffected.
        limits.check_ip("10.0.0.1".parse().unwrap()).unwrap();
        // One IPv6 /64 is one client, whatever its low 64 bits.
        for host in 1..=3 {
            limits
                .check_ip(format!("2001:db8:1:2::{host}").parse().unwrap())
                .unwrap();
        }
        assert!(
            limits
                .check_ip("2001:db8:1:2:ffff::9".parse().unwrap())
                .is_err()
        );
        limits.check_ip("2001:db8:1:3::1".parse().unwrap()).unwrap();
        limits.check_email("a@b.com").unwrap();
        limits.check_email("a@b.com").unwrap();
        assert!(limits.check_email("a@b.com").is_err());
    }
}
