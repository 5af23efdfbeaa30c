//! Per-user quotas, guest creation limits and the housekeeping sweeps (DESIGN.md §6b),
//! flattened into [`super::Config`]. The defaults sit far above what a driver needs
//! (ten years of daily logs is 3,650 entries) and far below what fills a disk.

use std::time::Duration;

use clap::Args;
use domain::sync::MAX_MUTATIONS_PER_PUSH;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct QuotaConfig {
    /// Records one user may hold: entries, statement checks and every other kind together, deleted ones included
    /// (a delete keeps a tombstone). A push beyond it is refused per mutation (`quota-exceeded`).
    #[arg(
        long,
        env = "MAX_RECORDS_PER_USER",
        default_value_t = 50_000,
        global = true
    )]
    pub max_records_per_user: u32,

    /// Bytes of receipt photos one user may keep (as stored: re-encoded JPEGs). An upload that
    /// would pass it is refused with 413 `quota-exceeded`. At least 2,097,152 (one photo).
    #[arg(
        long,
        env = "MAX_RECEIPT_BYTES_PER_USER",
        default_value_t = 104_857_600,
        global = true
    )]
    pub max_receipt_bytes_per_user: u64,

    /// Replay records one user may hold: the answer of every change pushed in the last
    /// APPLIED_MUTATIONS_RETENTION_DAYS is kept (about 250 bytes each) so a resend is
    /// recognised. A change past it is refused per mutation (`quota-exceeded`) until the
    /// pruning sweep has removed older ones. A driver makes a few hundred changes a week.
    #[arg(
        long,
        env = "MAX_REPLAY_RECORDS_PER_USER",
        default_value_t = 50_000,
        global = true
    )]
    pub max_replay_records_per_user: u32,

    /// Mutations one user may push per minute (bursts up to this many); beyond it a push is
    /// answered 429 `quota-exceeded` with Retry-After. At least 500 (one full push).
    #[arg(
        long,
        env = "PUSH_MUTATIONS_PER_MINUTE",
        default_value_t = 1_000,
        global = true
    )]
    pub push_mutations_per_minute: u32,

    /// Guest accounts one client IP may create per hour.
    #[arg(
        long,
        env = "GUEST_RATE_LIMIT_PER_IP_PER_HOUR",
        default_value_t = 10,
        global = true
    )]
    pub guest_rate_limit_per_ip_per_hour: u32,

    /// Guest accounts created per hour in total, from every IP.
    #[arg(
        long,
        env = "GUEST_RATE_LIMIT_PER_HOUR",
        default_value_t = 500,
        global = true
    )]
    pub guest_rate_limit_per_hour: u32,

    /// A guest (no e-mail, phone or OpenID sign-in) unused for this many days is deleted with
    /// its records, sessions and files.
    #[arg(long, env = "GUEST_INACTIVE_DAYS", default_value_t = 30, global = true)]
    pub guest_inactive_days: u32,

    /// Days a pushed mutation's answer is kept so a resend is recognised (a phone offline
    /// longer than this resends it as a new write; a delete still wins).
    #[arg(
        long,
        env = "APPLIED_MUTATIONS_RETENTION_DAYS",
        default_value_t = 90,
        global = true
    )]
    pub applied_mutations_retention_days: u32,

    /// Seconds between two runs of the guest sweep and the replay-record pruning (the first
    /// runs at start-up).
    #[arg(
        long,
        env = "SWEEP_INTERVAL_SECS",
        default_value_t = 3_600,
        global = true
    )]
    pub sweep_interval_secs: u64,
}

impl Default for QuotaConfig {
    fn default() -> Self {
        QuotaConfig {
            max_records_per_user: 50_000,
            max_receipt_bytes_per_user: 104_857_600,
            max_replay_records_per_user: 50_000,
            push_mutations_per_minute: 1_000,
            guest_rate_limit_per_ip_per_hour: 10,
            guest_rate_limit_per_hour: 500,
            guest_inactive_days: 30,
            applied_mutations_retention_days: 90,
            sweep_interval_secs: 3_600,
        }
    }
}

const DAY: Duration = Duration::from_secs(86_400);
/// Ten years: longer settings are almost certainly a typo for "never", which is not offered.
const MAX_DAYS: u32 = 3_650;
/// A receipt quota below one full-size upload could refuse a user's first photo.
const MIN_RECEIPT_BYTES: u64 = 2_097_152;
/// 1 TiB: far past any driver's receipts; larger is almost certainly a typo.
const MAX_RECEIPT_BYTES: u64 = 1 << 40;

impl QuotaConfig {
    pub fn guest_inactivity(&self) -> Duration {
        DAY * self.guest_inactive_days
    }

    pub fn applied_mutations_retention(&self) -> Duration {
        DAY * self.applied_mutations_retention_days
    }

    pub fn sweep_interval(&self) -> Duration {
        Duration::from_secs(self.sweep_interval_secs)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.max_records_per_user == 0 {
            return Err(ConfigError(
                "MAX_RECORDS_PER_USER must be at least 1".into(),
            ));
        }
        if (self.max_replay_records_per_user as usize) < MAX_MUTATIONS_PER_PUSH {
            return Err(ConfigError(format!(
                "MAX_REPLAY_RECORDS_PER_USER must be at least {MAX_MUTATIONS_PER_PUSH} (one full push)"
            )));
        }
        if !(MIN_RECEIPT_BYTES..=MAX_RECEIPT_BYTES).contains(&self.max_receipt_bytes_per_user) {
            return Err(ConfigError(format!(
                "MAX_RECEIPT_BYTES_PER_USER must be from {MIN_RECEIPT_BYTES} (one photo) to \
                 {MAX_RECEIPT_BYTES} (1 TiB)"
            )));
        }
        if (self.push_mutations_per_minute as usize) < MAX_MUTATIONS_PER_PUSH {
            return Err(ConfigError(format!(
                "PUSH_MUTATIONS_PER_MINUTE must be at least {MAX_MUTATIONS_PER_PUSH} \
                 (one full push), or a full push could never be accepted"
            )));
        }
        if self.guest_rate_limit_per_ip_per_hour == 0 || self.guest_rate_limit_per_hour == 0 {
            return Err(ConfigError(
                "GUEST_RATE_LIMIT_PER_IP_PER_HOUR and GUEST_RATE_LIMIT_PER_HOUR must be at least 1"
                    .into(),
            ));
        }
        if self.guest_rate_limit_per_ip_per_hour > self.guest_rate_limit_per_hour {
            return Err(ConfigError(
                "GUEST_RATE_LIMIT_PER_IP_PER_HOUR cannot be above GUEST_RATE_LIMIT_PER_HOUR".into(),
            ));
        }
        for (name, days) in [
            ("GUEST_INACTIVE_DAYS", self.guest_inactive_days),
            (
                "APPLIED_MUTATIONS_RETENTION_DAYS",
                self.applied_mutations_retention_days,
            ),
        ] {
            if !(1..=MAX_DAYS).contains(&days) {
                return Err(ConfigError(format!(
                    "{name} must be from 1 to {MAX_DAYS} days"
                )));
            }
        }
        if !(1..=86_400).contains(&self.sweep_interval_secs) {
            return Err(ConfigError(
                "SWEEP_INTERVAL_SECS must be from 1 to 86400".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(tweak: impl FnOnce(&mut QuotaConfig)) -> String {
        let mut config = QuotaConfig::default();
        tweak(&mut config);
        config.validate().expect_err("should be refused").0
    }

    #[test]
    fn defaults_are_valid_and_generous() {
        let config = QuotaConfig::default();
        config.validate().unwrap();
        // Ten years of daily logs fit many times over.
        assert!(config.max_records_per_user >= 10 * 3_650);
        // Fifty full-size receipt photos a year for a year, at the least.
        assert!(config.max_receipt_bytes_per_user >= 50 * 2_097_152);
        assert!(config.applied_mutations_retention() >= DAY * 60);
    }

    #[test]
    fn the_clap_defaults_match_default() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            quotas: QuotaConfig,
        }
        let parsed = <Cli as clap::Parser>::try_parse_from(["x"]).unwrap().quotas;
        assert_eq!(
            format!("{parsed:?}"),
            format!("{:?}", QuotaConfig::default())
        );
    }

    #[test]
    fn the_receipt_quota_bounds_are_accepted() {
        for bytes in [2_097_152, 1 << 40] {
            QuotaConfig {
                max_receipt_bytes_per_user: bytes,
                ..QuotaConfig::default()
            }
            .validate()
            .unwrap();
        }
    }

    #[test]
    fn nonsense_is_refused() {
        assert!(refused(|c| c.max_records_per_user = 0).contains("MAX_RECORDS_PER_USER"));
        assert!(refused(|c| c.push_mutations_per_minute = 499).contains("one full push"));
        assert!(
            refused(|c| c.max_receipt_bytes_per_user = 2_097_151)
                .contains("MAX_RECEIPT_BYTES_PER_USER")
        );
        assert!(
            refused(|c| c.max_receipt_bytes_per_user = (1 << 40) + 1)
                .contains("MAX_RECEIPT_BYTES_PER_USER")
        );
        assert!(refused(|c| c.guest_rate_limit_per_hour = 0).contains("at least 1"));
        assert!(refused(|c| c.guest_rate_limit_per_ip_per_hour = 501).contains("cannot be above"));
        assert!(refused(|c| c.guest_inactive_days = 0).contains("GUEST_INACTIVE_DAYS"));
        assert!(
            refused(|c| c.applied_mutations_retention_days = 3_651)
                .contains("APPLIED_MUTATIONS_RETENTION_DAYS")
        );
        assert!(refused(|c| c.sweep_interval_secs = 0).contains("SWEEP_INTERVAL_SECS"));
    }
}
