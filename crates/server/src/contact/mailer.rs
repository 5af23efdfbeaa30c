//! E-mails stored contact messages to the operator. The stored row is the durable record and
//! the visitor's 201 never waits for SMTP: a background worker (started by `serve`) sends
//! pending messages when woken by a new one, retries failures with exponential backoff and
//! marks a message failed after the last try. Pending messages survive restarts in the store,
//! and each is leased while it is being sent so several processes never send one twice
//! (barring a crash mid-send, after which the lease runs out and it is sent again).

use std::{panic::AssertUnwindSafe, sync::Arc, time::Duration};

use domain::{
    contact::{AfterFailure, email_subject},
    time_fmt::{now_ms, rfc3339_from_ms},
};
use futures_util::FutureExt;
use lettre::{
    Message,
    message::{Mailbox, SinglePart},
};
use tokio::sync::{Notify, watch};

use crate::{
    config::ContactEmailConfig,
    mail::Mailer,
    store::{ContactRecord, DynStore, EmailAttempt},
};
/// A claimed message is not offered to another worker for this long (longer than a send).
/// Messages are claimed one at a time, so a lease never waits behind other sends.
const LEASE_MS: i64 = 5 * 60 * 1000;
/// Look at the store at least this often, for retries another process scheduled.
const IDLE_MS: i64 = 60 * 1000;
/// After the store itself failed, wait this long before asking again.
const STORE_TROUBLE: Duration = Duration::from_secs(5);
const MAX_ERROR_CHARS: usize = 500;

#[derive(Clone)]
pub struct ContactMailer {
    inner: Arc<Inner>,
}

struct Inner {
    mailer: Mailer,
    config: ContactEmailConfig,
    wake: Notify,
}

impl ContactMailer {
    pub fn new(config: ContactEmailConfig) -> anyhow::Result<ContactMailer> {
        Ok(ContactMailer {
            inner: Arc::new(Inner {
                mailer: Mailer::new(&config)?,
                config,
                wake: Notify::new(),
            }),
        })
    }

    /// A message was stored: send it now rather than at the next scheduled look.
    pub fn wake(&self) {
        // A permit is kept if the worker is busy, so a wake-up is never lost.
        self.inner.wake.notify_one();
    }

    /// Sends due messages until `stop` turns true; a send in progress is finished first.
    pub async fn run(self, store: DynStore, mut stop: watch::Receiver<bool>) {
        tracing::info!(
            host = %self.inner.config.host,
            to = %self.inner.config.to,
            "e-mailing contact messages to the operator"
        );
        while !*stop.borrow() {
            let wait = match self.send_next(&store).await {
                Ok(true) => continue,
                Ok(false) => self.until_next_due(&store).await,
                Err(err) => {
                    tracing::warn!(error = ?err, "contact e-mail: store unavailable");
                    STORE_TROUBLE
                }
            };
            tokio::select! {
                () = self.inner.wake.notified() => {}
                () = tokio::time::sleep(wait) => {}
                changed = stop.changed() => if changed.is_err() { break },
            }
        }
    }

    /// Tries the oldest due message, if any; true when it did (more may be due).
    async fn send_next(&self, store: &DynStore) -> anyhow::Result<bool> {
        let now = now_ms();
        let Some(record) = store
            .claim_contact_emails(now, now + LEASE_MS, 1)
            .await?
            .pop()
        else {
            return Ok(false);
        };
        let attempt = self.attempt(&record).await;
        store.record_contact_email(record.id, attempt).await?;
        Ok(true)
    }

    async fn until_next_due(&self, store: &DynStore) -> Duration {
        let wait_ms = match store.next_contact_email_at().await {
            Ok(Some(at)) => (at - now_ms()).clamp(0, IDLE_MS),
            Ok(None) => IDLE_MS,
            Err(err) => {
                tracing::warn!(error = ?err, "contact e-mail: store unavailable");
                return STORE_TROUBLE;
            }
        };
        Duration::from_millis(wait_ms.unsigned_abs())
    }

    async fn attempt(&self, record: &ContactRecord) -> EmailAttempt {
        let attempts = record.delivery.attempts + 1;
        // A panic on some odd input must cost this message a try, not stop the worker.
        let outcome = AssertUnwindSafe(self.send(record))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| Err("internal error while building or sending the e-mail".into()));
        let error = match outcome {
            Ok(()) => {
                tracing::info!(contact = %record.id, attempts, "contact message e-mailed");
                return EmailAttempt::Sent { at_ms: now_ms() };
            }
            Err(error) => error.chars().take(MAX_ERROR_CHARS).collect::<String>(),
        };
        match self.inner.config.retry.after_failure(attempts) {
            AfterFailure::RetryInMs(delay) => {
                tracing::warn!(contact = %record.id, attempts, %error, "contact e-mail failed, will retry");
                EmailAttempt::Retry {
                    error,
                    next_attempt_at_ms: now_ms()
                        .saturating_add(i64::try_from(delay).unwrap_or(i64::MAX)),
                }
            }
            AfterFailure::GiveUp => {
                tracing::error!(contact = %record.id, attempts, %error, "contact e-mail failed for good");
                EmailAttempt::GaveUp { error }
            }
        }
    }

    async fn send(&self, record: &ContactRecord) -> Result<(), String> {
        let email = self.message_for(record).map_err(|err| err.to_string())?;
        self.inner.mailer.send(email).await
    }

    /// Headers are typed lettre headers: the visitor's subject is encoded (RFC 2047) so a
    /// CR/LF in it cannot start a header of its own. Lettre refuses CR/LF in a display name
    /// outright (by panicking while formatting), so the name is put on one line first.
    fn message_for(&self, record: &ContactRecord) -> anyhow::Result<Message> {
        let config = &self.inner.config;
        let mut builder = Message::builder()
            .message_id(None)
            .from(config.from.clone())
            .to(config.to.clone())
            .subject(email_subject(&record.subject));
        // The form's e-mail check is looser than RFC 5322: without a usable address the
        // operator still has it in the body.
        if let Ok(address) = record.email.parse() {
            builder = builder.reply_to(Mailbox::new(Some(one_line(&record.name)), address));
        }
        Ok(builder.singlepart(SinglePart::plain(body_for(record)))?)
    }
}

/// Control characters (line breaks above all) become spaces.
fn one_line(text: &str) -> String {
    text.split(char::is_control)
        .filter(|part| !part.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The labelled fields take the visitor's text on one line each, so a line break in a name
/// cannot pass off a line of its own (say a `User:` the visitor is not).
fn body_for(record: &ContactRecord) -> String {
    let user = match record.user_id {
        Some(id) => format!("{id} (signed in)"),
        None => "not signed in".to_owned(),
    };
    let subject = if record.subject.is_empty() {
        "(none)".to_owned()
    } else {
        one_line(&record.subject)
    };
    format!(
        "A message from the Delivery Tracker contact form.\n\n\
         Name:    {name}\n\
         E-mail:  {email}\n\
         User:    {user}\n\
         Sent:    {sent}\n\
         Subject: {subject}\n\n\
         {message}\n\n\
         -- \n\
         Reply to this e-mail to answer {name}. Message {id} is also kept by the server \
         (`delivery-tracker messages list`).\n",
        name = one_line(&record.name),
        email = record.email,
        sent = rfc3339_from_ms(record.created_at_ms),
        message = record.message,
        id = record.id,
    )
}

#[cfg(test)]
mod tests {
    use lettre::{Message, message::Mailbox};

    use super::{ContactMailer, one_line};
    use crate::config::SmtpConfig;

    #[test]
    fn transports_build_for_each_kind_of_url() {
        for url in [
            "smtps://u:p@mail.example.com",
            "smtp://u:p@mail.example.com:587",
            "smtp://10.0.0.5:25",
            "smtp://localhost:25",
        ] {
            let config = SmtpConfig {
                smtp_url: Some(url.into()),
                contact_email_to: Some("ops@example.com".into()),
                contact_email_from: Some("noreply@example.com".into()),
                ..SmtpConfig::default()
            };
            let email = config.contact_email().unwrap().unwrap();
            assert!(ContactMailer::new(email).is_ok(), "{url}");
        }
    }

    fn mailbox(text: &str) -> Mailbox {
        text.parse().unwrap()
    }

    #[test]
    fn lettre_encodes_line_breaks_in_the_subject() {
        let email = Message::builder()
            .from(mailbox("a@example.com"))
            .to(mailbox("b@example.com"))
            .subject("Hello\r\nBcc: c@example.com\r\n\r\nbody")
            .body(String::from("Hi"))
            .unwrap();
        let formatted = String::from_utf8(email.formatted()).unwrap();
        let head = formatted.split("\r\n\r\n").next().unwrap();
        assert!(
            head.lines().all(|line| !line.starts_with("Bcc")),
            "{formatted}"
        );
        assert!(head.contains("Subject: =?utf-8?"), "{formatted}");
    }

    #[test]
    fn names_are_put_on_one_line() {
        assert_eq!(
            one_line("Eve\r\nBcc: x@example.com"),
            "Eve Bcc: x@example.com"
        );
        assert_eq!(one_line(" Sam \t Driver\u{7f}"), "Sam Driver");
        assert_eq!(one_line("\r\n"), "");
    }
}
