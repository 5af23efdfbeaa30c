//! Texting a code: to the log and an outbox file (development and tests), or through a
//! Twilio-compatible HTTP API.

use std::{path::PathBuf, sync::Arc};

use anyhow::Context;
use domain::time_fmt::{now_ms, rfc3339_from_ms};
use tokio::{io::AsyncWriteExt, sync::Mutex};

use crate::config::{SmsHttpConfig, SmsSenderSetup};

pub const OUTBOX_FILE: &str = "sms-outbox.jsonl";

#[derive(Clone)]
pub enum SmsSender {
    /// Writes the code to the server log and appends `{"to","code","sentAt"}` to the outbox.
    Log {
        outbox: PathBuf,
        /// One writer at a time, so lines never interleave.
        lock: Arc<Mutex<()>>,
    },
    Http {
        config: Arc<SmsHttpConfig>,
        client: reqwest::Client,
    },
}

impl SmsSender {
    pub fn new(setup: SmsSenderSetup, data_dir: &std::path::Path, client: reqwest::Client) -> Self {
        match setup {
            SmsSenderSetup::Log => SmsSender::Log {
                outbox: data_dir.join(OUTBOX_FILE),
                lock: Arc::default(),
            },
            SmsSenderSetup::Http(config) => SmsSender::Http {
                config: Arc::new(config),
                client,
            },
        }
    }

    pub async fn send(&self, to: &str, code: &str, lifetime_mins: u64) -> anyhow::Result<()> {
        let body =
            format!("Your Delivery Tracker code is {code}. It expires in {lifetime_mins} minutes.");
        match self {
            SmsSender::Log { outbox, lock } => {
                // Development only: this sender exists to show the code.
                tracing::info!(to, code, "SMS (log sender): {body}");
                let line = serde_json::json!({"to": to, "code": code, "sentAt": rfc3339_from_ms(now_ms())});
                let _guard = lock.lock().await;
                if let Some(dir) = outbox.parent() {
                    tokio::fs::create_dir_all(dir).await.ok();
                }
                let mut file = tokio::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(outbox)
                    .await
                    .with_context(|| format!("opening {}", outbox.display()))?;
                file.write_all(format!("{line}\n").as_bytes()).await?;
                file.flush().await?;
                Ok(())
            }
            SmsSender::Http { config, client } => {
                let response = client
                    .post(&config.url)
                    .basic_auth(&config.account_sid, Some(&config.auth_token))
                    .form(&[
                        ("To", to),
                        ("From", config.from.as_str()),
                        ("Body", body.as_str()),
                    ])
                    .send()
                    .await
                    .context("SMS provider unreachable")?;
                let status = response.status();
                if !status.is_success() {
                    // The provider's body explains (bad number, no credit); it holds no code.
                    let detail: String = response
                        .text()
                        .await
                        .unwrap_or_default()
                        .chars()
                        .take(300)
                        .collect();
                    anyhow::bail!("SMS provider answered {status}: {detail}");
                }
                Ok(())
            }
        }
    }
}
