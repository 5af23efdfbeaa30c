//! Phone sign-in settings, flattened into [`super::Config`]. Unset SMS_SENDER turns
//! phone sign-in off; half an HTTP sender setup is refused at start-up.

use std::fmt;

use clap::{Args, ValueEnum};
use domain::phone::{CaptchaDifficulty, PhoneRegion, SendLimits};

use super::ConfigError;

#[derive(Args, Clone)]
pub struct PhoneConfig {
    /// How sign-in codes are texted: `log` (development: the server log and
    /// DATA_DIR/sms-outbox.jsonl) or `http` (a Twilio-compatible API). Unset: no phone sign-in.
    #[arg(long, env = "SMS_SENDER", value_enum, global = true)]
    pub sms_sender: Option<SmsSenderKind>,

    /// The provider's message endpoint, e.g.
    /// `https://api.twilio.com/2010-04-01/Accounts/AC…/Messages.json` (SMS_SENDER=http).
    #[arg(long, env = "SMS_HTTP_URL", global = true)]
    pub sms_http_url: Option<String>,

    /// Account SID: the user name of the provider's basic auth (SMS_SENDER=http).
    #[arg(long, env = "SMS_HTTP_ACCOUNT_SID", global = true)]
    pub sms_http_account_sid: Option<String>,

    /// Auth token: the password of the provider's basic auth (never logged).
    #[arg(
        long,
        env = "SMS_HTTP_AUTH_TOKEN",
        global = true,
        hide_env_values = true
    )]
    pub sms_http_auth_token: Option<String>,

    /// The sending number or sender id (`From`), e.g. `+447700900000` (SMS_SENDER=http).
    #[arg(long, env = "SMS_FROM", global = true)]
    pub sms_from: Option<String>,

    /// Captcha difficulty when nothing was sent lately: the largest number a browser may have
    /// to try. The default solves in well under a second on a phone. It doubles with each send
    /// from the client's prefix and each eighth of PHONE_SENDS_PER_MINUTE sent in the last
    /// minute, up to PHONE_CAPTCHA_MAX_NUMBER_CEILING.
    #[arg(
        long,
        env = "PHONE_CAPTCHA_MAX_NUMBER",
        default_value_t = 25_000,
        global = true
    )]
    pub phone_captcha_max_number: u64,

    /// How long a texted code works, in seconds.
    #[arg(
        long,
        env = "PHONE_CODE_TTL_SECS",
        default_value_t = 300,
        global = true
    )]
    pub phone_code_ttl_secs: u64,

    /// Least time between two codes to one number, in seconds.
    #[arg(
        long,
        env = "PHONE_SEND_INTERVAL_SECS",
        default_value_t = 60,
        global = true
    )]
    pub phone_send_interval_secs: u64,

    /// Codes texted to one number per hour.
    #[arg(
        long,
        env = "PHONE_SENDS_PER_NUMBER_PER_HOUR",
        default_value_t = 5,
        global = true
    )]
    pub phone_sends_per_number_per_hour: u32,

    /// Codes requested from one client prefix (an IPv4 address or an IPv6 /64) per minute:
    /// its share of PHONE_SENDS_PER_MINUTE, at most a quarter of it.
    #[arg(
        long,
        env = "PHONE_SENDS_PER_IP_PER_MINUTE",
        default_value_t = 3,
        global = true
    )]
    pub phone_sends_per_ip_per_minute: u32,

    /// Codes texted per minute in total (caps the SMS bill if the captcha is beaten at scale).
    #[arg(
        long,
        env = "PHONE_SENDS_PER_MINUTE",
        default_value_t = 30,
        global = true
    )]
    pub phone_sends_per_minute: u32,

    /// The most the captcha difficulty rises to under load (about 5 s on a phone browser).
    #[arg(
        long,
        env = "PHONE_CAPTCHA_MAX_NUMBER_CEILING",
        default_value_t = 400_000,
        global = true
    )]
    pub phone_captcha_max_number_ceiling: u64,

    /// The country whose numbers may be typed without a country code (`07700 900123`), as
    /// an ISO 3166 two-letter code. Used for sign-in, linking a phone and operator commands,
    /// and sent to the web app so it reads numbers the same way.
    #[arg(
        long,
        env = "PHONE_DEFAULT_REGION",
        default_value = "GB",
        value_parser = parse_region,
        global = true
    )]
    pub phone_default_region: PhoneRegion,
}

fn parse_region(code: &str) -> Result<PhoneRegion, String> {
    PhoneRegion::parse(code).ok_or_else(|| {
        format!("{code:?} is not a country code with phone numbering data (two letters, e.g. GB)")
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SmsSenderKind {
    Log,
    Http,
}

/// A complete HTTP sender setup.
#[derive(Clone)]
pub struct SmsHttpConfig {
    pub url: String,
    pub account_sid: String,
    pub auth_token: String,
    pub from: String,
}

impl fmt::Debug for SmsHttpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmsHttpConfig")
            .field("url", &self.url)
            .field("account_sid", &self.account_sid)
            .field("auth_token", &"<redacted>")
            .field("from", &self.from)
            .finish()
    }
}

impl fmt::Debug for PhoneConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PhoneConfig")
            .field("sms_sender", &self.sms_sender)
            .field("sms_http_url", &self.sms_http_url)
            .field("sms_http_account_sid", &self.sms_http_account_sid)
            .field(
                "sms_http_auth_token",
                &self.sms_http_auth_token.as_ref().map(|_| "<redacted>"),
            )
            .field("sms_from", &self.sms_from)
            .field("captcha", &self.captcha_difficulty())
            .field("limits", &self.send_limits())
            .field("default_region", &self.phone_default_region.code())
            .finish_non_exhaustive()
    }
}

/// Which sender, fully configured.
#[derive(Debug, Clone)]
pub enum SmsSenderSetup {
    Log,
    Http(SmsHttpConfig),
}

impl Default for PhoneConfig {
    fn default() -> Self {
        PhoneConfig {
            sms_sender: None,
            sms_http_url: None,
            sms_http_account_sid: None,
            sms_http_auth_token: None,
            sms_from: None,
            phone_captcha_max_number: 25_000,
            phone_code_ttl_secs: 300,
            phone_send_interval_secs: 60,
            phone_sends_per_number_per_hour: 5,
            phone_sends_per_ip_per_minute: 3,
            phone_sends_per_minute: 30,
            phone_captcha_max_number_ceiling: 400_000,
            phone_default_region: PhoneRegion::GB,
        }
    }
}

impl PhoneConfig {
    pub fn send_limits(&self) -> SendLimits {
        SendLimits {
            min_interval_ms: i64::try_from(self.phone_send_interval_secs.saturating_mul(1000))
                .unwrap_or(i64::MAX),
            per_number_per_hour: self.phone_sends_per_number_per_hour,
            per_ip_per_minute: self.phone_sends_per_ip_per_minute,
            global_per_minute: self.phone_sends_per_minute,
        }
    }

    pub fn captcha_difficulty(&self) -> CaptchaDifficulty {
        CaptchaDifficulty {
            base: self.phone_captcha_max_number,
            ceiling: self.phone_captcha_max_number_ceiling,
        }
    }

    /// The sender, or None when phone sign-in is off; refuses anything half-configured.
    pub fn sender(&self) -> Result<Option<SmsSenderSetup>, ConfigError> {
        let set = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let http = (
            set(&self.sms_http_url),
            set(&self.sms_http_account_sid),
            set(&self.sms_http_auth_token),
            set(&self.sms_from),
        );
        let any_http = http.0.is_some() || http.1.is_some() || http.2.is_some() || http.3.is_some();
        match self.sms_sender {
            None | Some(SmsSenderKind::Log) if any_http => Err(ConfigError(
                "SMS_HTTP_URL, SMS_HTTP_ACCOUNT_SID, SMS_HTTP_AUTH_TOKEN and SMS_FROM are set but \
                 SMS_SENDER is not http: set SMS_SENDER=http to text codes through them, or unset them"
                    .into(),
            )),
            None => Ok(None),
            Some(SmsSenderKind::Log) => Ok(Some(SmsSenderSetup::Log)),
            Some(SmsSenderKind::Http) => {
                let (Some(url), Some(account_sid), Some(auth_token), Some(from)) = http else {
                    return Err(ConfigError(
                        "SMS_SENDER=http needs all of SMS_HTTP_URL, SMS_HTTP_ACCOUNT_SID, \
                         SMS_HTTP_AUTH_TOKEN and SMS_FROM"
                            .into(),
                    ));
                };
                let parsed = url::Url::parse(&url)
                    .map_err(|_| ConfigError("SMS_HTTP_URL must be an https:// URL".into()))?;
                let loopback = parsed.host_str().is_some_and(|h| {
                    h == "localhost" || h.trim_matches(['[', ']']).parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
                });
                if parsed.scheme() != "https" && !(parsed.scheme() == "http" && loopback) {
                    return Err(ConfigError(
                        "SMS_HTTP_URL must use https (plain http only to this machine)".into(),
                    ));
                }
                Ok(Some(SmsSenderSetup::Http(SmsHttpConfig {
                    url,
                    account_sid,
                    auth_token,
                    from,
                })))
            }
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.sender()?;
        if self.phone_captcha_max_number == 0
            || self.phone_code_ttl_secs == 0
            || self.phone_sends_per_number_per_hour == 0
            || self.phone_sends_per_ip_per_minute == 0
            || self.phone_sends_per_minute == 0
        {
            return Err(ConfigError(
                "PHONE_CAPTCHA_MAX_NUMBER, PHONE_CODE_TTL_SECS and the PHONE_SENDS_* limits must be \
                 at least 1"
                    .into(),
            ));
        }
        if self.phone_captcha_max_number_ceiling < self.phone_captcha_max_number {
            return Err(ConfigError(
                "PHONE_CAPTCHA_MAX_NUMBER_CEILING must be at least PHONE_CAPTCHA_MAX_NUMBER".into(),
            ));
        }
        if u64::from(self.phone_sends_per_ip_per_minute) * 4
            > u64::from(self.phone_sends_per_minute)
        {
            return Err(ConfigError(
                "PHONE_SENDS_PER_IP_PER_MINUTE may be at most a quarter of PHONE_SENDS_PER_MINUTE, \
                 so that a few clients cannot use up phone sign-in for everyone"
                    .into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http() -> PhoneConfig {
        PhoneConfig {
            sms_sender: Some(SmsSenderKind::Http),
            sms_http_url: Some(
                "https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json".into(),
            ),
            sms_http_account_sid: Some("AC1".into()),
            sms_http_auth_token: Some("tok-secret-42".into()),
            sms_from: Some("+447700900000".into()),
            ..PhoneConfig::default()
        }
    }

    #[test]
    fn the_default_region_is_gb_and_a_bad_one_stops_the_start() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            phone: PhoneConfig,
        }
        let parse = |args: &[&str]| {
            <Cli as clap::Parser>::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
                .map(|cli| cli.phone.phone_default_region)
        };
        assert_eq!(parse(&[]).unwrap(), PhoneRegion::GB);
        assert_eq!(PhoneConfig::default().phone_default_region, PhoneRegion::GB);
        assert_eq!(
            parse(&["--phone-default-region", "us"]).unwrap().code(),
            "US"
        );
        for bad in ["UK", "XX", "", "+44"] {
            let err = parse(&["--phone-default-region", bad])
                .unwrap_err()
                .to_string();
            assert!(err.contains("two letters, e.g. GB"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn off_by_default_and_log_needs_nothing_else() {
        assert!(PhoneConfig::default().sender().unwrap().is_none());
        let log = PhoneConfig {
            sms_sender: Some(SmsSenderKind::Log),
            ..PhoneConfig::default()
        };
        assert!(matches!(log.sender().unwrap(), Some(SmsSenderSetup::Log)));
        assert!(matches!(
            http().sender().unwrap(),
            Some(SmsSenderSetup::Http(_))
        ));
    }

    #[test]
    fn half_an_http_setup_is_refused() {
        let missing_token = PhoneConfig {
            sms_http_auth_token: None,
            ..http()
        };
        assert!(
            missing_token
                .validate()
                .unwrap_err()
                .0
                .contains("SMS_HTTP_AUTH_TOKEN")
        );
        let not_selected = PhoneConfig {
            sms_sender: None,
            ..http()
        };
        assert!(
            not_selected
                .validate()
                .unwrap_err()
                .0
                .contains("SMS_SENDER=http")
        );
        let plain = PhoneConfig {
            sms_http_url: Some("http://sms.example.com/send".into()),
            ..http()
        };
        assert!(plain.validate().unwrap_err().0.contains("https"));
        let local = PhoneConfig {
            sms_http_url: Some("http://127.0.0.1:9/send".into()),
            ..http()
        };
        assert!(local.validate().is_ok());
    }

    #[test]
    fn one_prefix_gets_at_most_a_quarter_of_the_budget_and_the_ceiling_tops_the_base() {
        assert!(PhoneConfig::default().validate().is_ok());
        let greedy = PhoneConfig {
            phone_sends_per_ip_per_minute: 8,
            phone_sends_per_minute: 30,
            ..PhoneConfig::default()
        };
        assert!(greedy.validate().unwrap_err().0.contains("a quarter"));
        let quarter = PhoneConfig {
            phone_sends_per_ip_per_minute: 8,
            phone_sends_per_minute: 32,
            ..PhoneConfig::default()
        };
        assert!(quarter.validate().is_ok());
        let low_ceiling = PhoneConfig {
            phone_captcha_max_number_ceiling: 24_999,
            ..PhoneConfig::default()
        };
        assert!(low_ceiling.validate().unwrap_err().0.contains("CEILING"));
    }

    #[test]
    fn debug_never_prints_the_auth_token() {
        let config = http();
        assert!(!format!("{config:?}").contains("tok-secret-42"));
        let setup = config.sender().unwrap().unwrap();
        assert!(!format!("{setup:?}").contains("tok-secret-42"));
    }
}
