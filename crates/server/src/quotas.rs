//! The in-memory limits of issue 10: push volume per user, and guest creation per client IP
//! and overall. Each server process counts its own requests (several processes behind a load
//! balancer each allow the configured amount). The records and receipt quotas are counted in
//! the store; their figures and refusals are here.

use std::sync::Arc;

use axum::http::StatusCode;
use uuid::Uuid;

use crate::{
    auth::rate_limit::Limiter, config::quotas::QuotaConfig, error::AppError,
    http::client_ip::IpKey, store::PushQuota,
};

const MEBIBYTE: i64 = 1_048_576;

#[derive(Clone)]
pub struct Quotas {
    inner: Arc<Inner>,
}

struct Inner {
    max_records: i64,
    max_replays: i64,
    max_receipt_bytes: i64,
    pushes: Limiter<Uuid>,
    /// Keyed like every per-IP limit: an IPv6 /64 is one client.
    guests_per_ip: Limiter<IpKey>,
    guests: Limiter<()>,
}

impl Quotas {
    pub fn new(config: &QuotaConfig) -> Quotas {
        Quotas {
            inner: Arc::new(Inner {
                max_records: i64::from(config.max_records_per_user),
                max_replays: i64::from(config.max_replay_records_per_user),
                // validate() keeps it within 1 TiB.
                max_receipt_bytes: i64::try_from(config.max_receipt_bytes_per_user)
                    .unwrap_or(i64::MAX),
                pushes: Limiter::per_minute(config.push_mutations_per_minute),
                guests_per_ip: Limiter::per_hour(config.guest_rate_limit_per_ip_per_hour),
                guests: Limiter::per_hour(config.guest_rate_limit_per_hour),
            }),
        }
    }

    /// The most records and replay records one user may hold, as push checks them.
    pub fn push_quota(&self) -> PushQuota {
        PushQuota {
            max_records: self.inner.max_records,
            max_replays: self.inner.max_replays,
        }
    }

    /// The most bytes of receipt photos one user may keep.
    pub fn max_receipt_bytes(&self) -> i64 {
        self.inner.max_receipt_bytes
    }

    /// The refusal of a receipt photo past the user's quota, naming the quota in MB.
    pub fn receipts_full(&self) -> AppError {
        let megabytes = (self.inner.max_receipt_bytes + MEBIBYTE / 2) / MEBIBYTE;
        AppError::client(
            StatusCode::PAYLOAD_TOO_LARGE,
            "quota-exceeded",
            format!(
                "Your receipt photos have used your {megabytes} MB of storage. Delete old \
                 receipts to add new ones."
            ),
        )
    }

    /// Takes `mutations` from the user's push allowance, or says when to come back. A push is
    /// taken whole or not at all, so a refused push changed nothing. (Validation keeps the
    /// allowance at least one full push, so "more than a minute's worth" cannot happen.)
    pub fn check_push(&self, user_id: Uuid, mutations: usize) -> Result<(), AppError> {
        let mutations = u32::try_from(mutations).unwrap_or(u32::MAX);
        self.inner
            .pushes
            .check_n(user_id, mutations)
            .map_err(|retry_after_secs| AppError::QuotaExceeded {
                retry_after_secs,
                message: format!(
                    "Too many changes sent in a short time. They will be sent again in \
                     {retry_after_secs} seconds."
                ),
            })
    }

    /// One guest account from `ip`, within the per-IP and the overall hourly limits.
    pub fn check_guest(&self, client: IpKey) -> Result<(), AppError> {
        self.inner.guests_per_ip.check(client)?;
        self.inner.guests.check(())
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
    fn the_receipt_refusal_names_the_quota_in_megabytes() {
        let message = |bytes| match quotas(|c| c.max_receipt_bytes_per_user = bytes).receipts_full()
        {
            AppError::Client {
                status,
                code,
                message,
                ..
            } => {
                assert_eq!(
                    (status, code),
                    (StatusCode::PAYLOAD_TOO_LARGE, "quota-exceeded")
                );
                message
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(
            message(104_857_600),
            "Your receipt photos have used your 100 MB of storage. Delete old receipts to add \
             new ones."
        );
        assert!(message(2_097_152).contains(" 2 MB "));
        assert!(message(524_288_000).contains(" 500 MB "));
    }

    #[test]
    fn guests_are_limited_per_ip_and_overall() {
        let quotas = quotas(|c| {
            c.guest_rate_limit_per_ip_per_hour = 2;
            c.guest_rate_limit_per_hour = 3;
        });
        let ip = |last: u8| IpKey::of(std::net::IpAddr::from([10, 0, 0, last]));
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

    #[test]
    fn guests_from_one_ipv6_network_share_a_limit() {
        let quotas = quotas(|c| c.guest_rate_limit_per_ip_per_hour = 2);
        let ip = |s: &str| IpKey::of(s.parse().unwrap());
        quotas.check_guest(ip("2001:db8:1:2::1")).unwrap();
        quotas.check_guest(ip("2001:db8:1:2::ffff")).unwrap();
        assert!(matches!(
            quotas.check_guest(ip("2001:db8:1:2:abcd::9")),
            Err(AppError::RateLimited { .. })
        ));
        quotas.check_guest(ip("2001:db8:1:3::1")).unwrap();
    }
}
