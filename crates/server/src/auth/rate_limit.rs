//! Rate limits on the auth endpoints, checked before any password hashing happens.

use std::{
    hash::Hash,
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
    pub fn check_ip(&self, client: IpKey) -> Result<(), AppError> {
        self.per_ip.check(client)
    }

    pub fn check_email(&self, normalised_email: &str) -> Result<(), AppError> {
        self.per_email.check(normalised_email.to_owned())
    }
}

/// A per-key limit of `n` a minute or an hour (bursts up to `n`): the one rate limiter every
/// in-memory limit uses (auth, contact, uploads, guests, push volume).
pub struct Limiter<K: Hash + Eq + Clone> {
    inner: DefaultKeyedRateLimiter<K>,
    period_secs: u64,
    checks: AtomicU32,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    pub fn per_minute(n: u32) -> Self {
        Self::with_quota(Quota::per_minute(at_least_one(n)), 60)
    }

    pub fn per_hour(n: u32) -> Self {
        Self::with_quota(Quota::per_hour(at_least_one(n)), 3_600)
    }

    fn with_quota(quota: Quota, period_secs: u64) -> Self {
        Limiter {
            inner: RateLimiter::keyed(quota),
            period_secs,
            checks: AtomicU32::new(0),
        }
    }

    /// One more for `key`, or 429 `rate-limited` with the wait.
    pub fn check(&self, key: K) -> Result<(), AppError> {
        self.check_n(key, 1)
            .map_err(|retry_after_secs| AppError::RateLimited { retry_after_secs })
    }

    /// `n` more for `key` at once, all or nothing; otherwise the seconds to wait (at least 1;
    /// a whole period when `n` is more than one period allows).
    pub fn check_n(&self, key: K, n: u32) -> Result<(), u64> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.inner.retain_recent();
        }
        let Some(n) = NonZeroU32::new(n) else {
            return Ok(());
        };
        match self.inner.check_key_n(&key, n) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                // Whole seconds, rounded up: Retry-After never says 0.
                Err((wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1))
            }
            Err(_) => Err(self.period_secs),
        }
    }
}

fn at_least_one(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    /// The limits checked by address, as the handlers check a client's key.
    struct Keyed<'a>(&'a AuthLimits);

    impl Keyed<'_> {
        fn check_ip(&self, ip: IpAddr) -> Result<(), AppError> {
            self.0.check_ip(IpKey::of(ip))
        }

        fn check_email(&self, email: &str) -> Result<(), AppError> {
            self.0.check_email(email)
        }
    }

    #[test]
    fn trips_after_the_quota_and_reports_a_wait() {
        let limits = AuthLimits::new(3, 2);
        let limits = Keyed(&limits);
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
