//! Upload limits (DESIGN.md §6b): per-user rate, how many upload bodies are read or held at
//! once, and the pixel budget shared by concurrent decodes.

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

    /// Megapixels being decoded at once across all uploads: a decode waits until its
    /// picture's width × height fits. At least 40 (the largest accepted picture).
    #[arg(
        long,
        env = "DECODE_BUDGET_MEGAPIXELS",
        default_value_t = 64,
        global = true
    )]
    pub decode_budget_megapixels: u32,
}

impl Default for UploadsConfig {
    fn default() -> Self {
        UploadsConfig {
            uploads_per_user_per_minute: 10,
            uploads_in_flight: 16,
            decode_budget_megapixels: 64,
        }
    }
}

/// The largest accepted picture, in megapixels: files/picture.rs refuses larger ones from their
/// header, and the decode budget must hold one. Defined here, below the files module, so that
/// the configuration depends on nothing above it.
pub const MAX_PICTURE_MEGAPIXELS: u32 = 40;

impl UploadsConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.uploads_per_user_per_minute == 0 || self.uploads_in_flight == 0 {
            return Err(ConfigError(
                "UPLOADS_PER_USER_PER_MINUTE and UPLOADS_IN_FLIGHT must be at least 1".into(),
            ));
        }
        // Tokio semaphores hold at most usize::MAX >> 3 permits; stay far below.
        if self.uploads_in_flight > 100_000 || self.decode_budget_megapixels > 100_000 {
            return Err(ConfigError(
                "UPLOADS_IN_FLIGHT and DECODE_BUDGET_MEGAPIXELS must be at most 100000".into(),
            ));
        }
        if self.decode_budget_megapixels < MAX_PICTURE_MEGAPIXELS {
            return Err(ConfigError(format!(
                "DECODE_BUDGET_MEGAPIXELS must be at least {MAX_PICTURE_MEGAPIXELS} (the largest \
                 accepted picture), or such pictures could never be decoded"
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
                decode_budget_megapixels: MAX_PICTURE_MEGAPIXELS - 1,
                ..UploadsConfig::default()
            },
            UploadsConfig {
                decode_budget_megapixels: 1_000_000,
                ..UploadsConfig::default()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
        UploadsConfig {
            decode_budget_megapixels: MAX_PICTURE_MEGAPIXELS,
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
            "--decode-budget-megapixels",
            "80",
        ])
        .unwrap();
        assert_eq!(cli.uploads.uploads_per_user_per_minute, 3);
        assert_eq!(cli.uploads.uploads_in_flight, 4);
        assert_eq!(cli.uploads.decode_budget_megapixels, 80);
    }
}
