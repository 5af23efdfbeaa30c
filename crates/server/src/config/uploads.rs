//! Upload limits (DESIGN.md §6b): per-user rate, how many upload bodies are read or held at
//! once, and the memory budget shared by concurrent decodes. Together they bound what uploads
//! add to the server's memory: UPLOADS_IN_FLIGHT bodies of 2 MiB plus DECODE_BUDGET_MB.

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct UploadsConfig {
    /// Picture and receipt photo uploads one user may start per minute (bursts up to this
    /// many; a resend of a stored receipt is not counted); more are answered 429 with
    /// Retry-After.
    #[arg(
        long,
        env = "UPLOADS_PER_USER_PER_MINUTE",
        default_value_t = 10,
        global = true
    )]
    pub uploads_per_user_per_minute: u32,

    /// Upload bodies being read, held or decoded at once across all users (each up to 2 MiB
    /// plus its decode); more are answered 503 with Retry-After at once.
    #[arg(long, env = "UPLOADS_IN_FLIGHT", default_value_t = 16, global = true)]
    pub uploads_in_flight: u32,

    /// Memory for decoding pictures at once across all uploads, in MiB: a decode waits until
    /// what it needs at its peak fits (worked out from the picture's header: a 12-megapixel
    /// photo needs about 50 MiB as a profile picture and 140 as a receipt, which the app
    /// shrinks on the phone first; a progressive JPEG about three times as much), and a
    /// picture needing more than the whole budget is refused. At least 64.
    #[arg(long, env = "DECODE_BUDGET_MB", default_value_t = 256, global = true)]
    pub decode_budget_mb: u32,
}

impl Default for UploadsConfig {
    fn default() -> Self {
        UploadsConfig {
            uploads_per_user_per_minute: 10,
            uploads_in_flight: 16,
            decode_budget_mb: 256,
        }
    }
}

/// The largest accepted picture, in megapixels: files/picture.rs refuses larger ones from their
/// header. Defined here, below the files module, so that the configuration depends on nothing
/// above it.
pub const MAX_PICTURE_MEGAPIXELS: u32 = 40;
/// The smallest decode budget: an ordinary phone photo must always fit.
const MIN_DECODE_BUDGET_MB: u32 = 64;

impl UploadsConfig {
    /// The decode budget in bytes.
    pub fn decode_budget_bytes(&self) -> u64 {
        u64::from(self.decode_budget_mb) << 20
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.uploads_per_user_per_minute == 0 || self.uploads_in_flight == 0 {
            return Err(ConfigError(
                "UPLOADS_PER_USER_PER_MINUTE and UPLOADS_IN_FLIGHT must be at least 1".into(),
            ));
        }
        // Tokio semaphores hold at most usize::MAX >> 3 permits; stay far below.
        if self.uploads_in_flight > 100_000 || self.decode_budget_mb > 100_000 {
            return Err(ConfigError(
                "UPLOADS_IN_FLIGHT and DECODE_BUDGET_MB must be at most 100000".into(),
            ));
        }
        if self.decode_budget_mb < MIN_DECODE_BUDGET_MB {
            return Err(ConfigError(format!(
                "DECODE_BUDGET_MB must be at least {MIN_DECODE_BUDGET_MB}, or ordinary phone \
                 photos could never be decoded"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        UploadsConfig::default().validate().unwrap();
    }

    #[test]
    fn zero_limits_and_a_budget_below_one_picture_are_refused() {
        for bad in [
            UploadsConfig {
                uploads_per_user_per_minute: 0,
                ..UploadsConfig::default()
            },
            UploadsConfig {
                uploads_in_flight: 0,
                ..UploadsConfig::default()
            },
            UploadsConfig {
                decode_budget_mb: MIN_DECODE_BUDGET_MB - 1,
                ..UploadsConfig::default()
            },
            UploadsConfig {
                decode_budget_mb: 1_000_000,
                ..UploadsConfig::default()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
        UploadsConfig {
            decode_budget_mb: MIN_DECODE_BUDGET_MB,
            uploads_in_flight: 1,
            uploads_per_user_per_minute: 1,
        }
        .validate()
        .unwrap();
    }

    #[test]
    fn flags_and_environment_set_the_limits() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            uploads: UploadsConfig,
        }
        let cli = <Cli as clap::Parser>::try_parse_from([
            "x",
            "--uploads-per-user-per-minute",
            "3",
            "--uploads-in-flight",
            "4",
            "--decode-budget-mb",
            "80",
        ])
        .unwrap();
        assert_eq!(cli.uploads.uploads_per_user_per_minute, 3);
        assert_eq!(cli.uploads.uploads_in_flight, 4);
        assert_eq!(cli.uploads.decode_budget_mb, 80);
    }
}
