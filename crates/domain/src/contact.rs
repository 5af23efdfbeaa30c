//! Contact messages: checked in the spec's order (§5 "Contact") so the first problem named is
//! the one the original product would name.

use serde::Deserialize;
use utoipa::ToSchema;

pub const NAME_MAX_CHARS: usize = 100;
pub const EMAIL_MAX_CHARS: usize = 254;
pub const SUBJECT_MAX_CHARS: usize = 200;
pub const MESSAGE_MAX_CHARS: usize = 5_000;

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ContactInput {
    pub name: Option<String>,
    pub email: Option<String>,
    pub subject: Option<String>,
    pub message: Option<String>,
}

/// A message that passed every check, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactMessage {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
}

/// The field that failed and why.
pub type ContactProblem = (&'static str, String);

/// Something, an at sign, something, a dot, something, with no spaces (spec §5).
pub fn looks_like_email(email: &str) -> bool {
    if email.chars().any(char::is_whitespace) {
        return false;
    }
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let Some((host, tld)) = domain.rsplit_once('.') else {
        return false;
    };
    !local.is_empty() && !host.is_empty() && !tld.is_empty()
}

impl ContactInput {
    pub fn validate(self) -> Result<ContactMessage, ContactProblem> {
        let text = |value: Option<String>| value.map(|v| v.trim().to_owned()).unwrap_or_default();
        let (name, email, subject, message) = (
            text(self.name),
            text(self.email),
            text(self.subject),
            text(self.message),
        );
        if name.is_empty() {
            return Err(("name", "Name is required".into()));
        }
        if email.is_empty() {
            return Err(("email", "Email is required".into()));
        }
        if !looks_like_email(&email) {
            return Err(("email", "Please enter a valid email address".into()));
        }
        if message.is_empty() {
            return Err(("message", "Message is required".into()));
        }
        for (field, value, max, multi_line) in [
            ("name", &name, NAME_MAX_CHARS, false),
            ("email", &email, EMAIL_MAX_CHARS, false),
            ("subject", &subject, SUBJECT_MAX_CHARS, false),
            ("message", &message, MESSAGE_MAX_CHARS, true),
        ] {
            if value.chars().count() > max {
                return Err((field, format!("Please keep this under {max} characters")));
            }
            if !crate::fields::is_clean_text(value, multi_line) {
                return Err((
                    field,
                    "Please remove control characters and text-direction marks".into(),
                ));
            }
        }
        Ok(ContactMessage {
            name,
            email,
            subject,
            message,
        })
    }
}

/// The subject line of the operator's copy of a message.
pub fn email_subject(subject: &str) -> String {
    let subject = if subject.is_empty() {
        "Contact message"
    } else {
        subject
    };
    format!("[Delivery Tracker] {subject}")
}

/// Never wait longer than this between two tries, however many failed.
pub const MAX_RETRY_DELAY_MS: u64 = 6 * 60 * 60 * 1000;

/// How e-mailing a stored message is retried: the first retry after `first_retry_ms`, each
/// later one after twice the previous wait (capped), and no more tries after `max_attempts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub first_retry_ms: u64,
    pub max_attempts: u32,
}

/// What to do after a failed try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    RetryInMs(u64),
    GiveUp,
}

impl RetryPolicy {
    /// `attempts` counts every try so far, the one that just failed included.
    pub fn after_failure(&self, attempts: u32) -> AfterFailure {
        if attempts >= self.max_attempts {
            return AfterFailure::GiveUp;
        }
        let doublings = attempts.saturating_sub(1).min(63);
        let delay = self
            .first_retry_ms
            .saturating_mul(1u64 << doublings)
            .min(MAX_RETRY_DELAY_MS);
        AfterFailure::RetryInMs(delay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_line_names_the_product() {
        assert_eq!(email_subject("Tiers"), "[Delivery Tracker] Tiers");
        assert_eq!(email_subject(""), "[Delivery Tracker] Contact message");
    }

    #[test]
    fn retries_back_off_exponentially_then_give_up() {
        let policy = RetryPolicy {
            first_retry_ms: 60_000,
            max_attempts: 4,
        };
        let delays: Vec<_> = (1..=4).map(|n| policy.after_failure(n)).collect();
        assert_eq!(
            delays,
            [
                AfterFailure::RetryInMs(60_000),
                AfterFailure::RetryInMs(120_000),
                AfterFailure::RetryInMs(240_000),
                AfterFailure::GiveUp,
            ]
        );
        let patient = RetryPolicy {
            first_retry_ms: 60_000,
            max_attempts: u32::MAX,
        };
        assert_eq!(
            patient.after_failure(200),
            AfterFailure::RetryInMs(MAX_RETRY_DELAY_MS),
            "capped, no overflow"
        );
    }

    fn input(name: &str, email: &str, message: &str) -> ContactInput {
        ContactInput {
            name: Some(name.into()),
            email: Some(email.into()),
            subject: None,
            message: Some(message.into()),
        }
    }

    #[test]
    fn problems_are_named_in_the_spec_order() {
        assert_eq!(
            input("", "", "").validate().unwrap_err().1,
            "Name is required"
        );
        assert_eq!(
            input("Sam", " ", "").validate().unwrap_err().1,
            "Email is required"
        );
        assert_eq!(
            input("Sam", "sam@example", "").validate().unwrap_err().1,
            "Please enter a valid email address"
        );
        assert_eq!(
            input("Sam", "sam@example.com", "  ")
                .validate()
                .unwrap_err()
                .1,
            "Message is required"
        );
        let ok = input(" Sam ", "sam@example.com", "Hello")
            .validate()
            .unwrap();
        assert_eq!((ok.name.as_str(), ok.subject.as_str()), ("Sam", ""));
    }

    #[test]
    fn email_pattern() {
        for good in ["a@b.c", "first.last@mail.example.co.uk"] {
            assert!(looks_like_email(good), "{good}");
        }
        for bad in ["a@b", "@b.c", "a@.c", "a@b.", "a b@c.d", "ab.cd"] {
            assert!(!looks_like_email(bad), "{bad}");
        }
    }

    #[test]
    fn lengths_are_bounded() {
        let long = input("Sam", "sam@example.com", &"x".repeat(MESSAGE_MAX_CHARS + 1));
        assert_eq!(long.validate().unwrap_err().0, "message");
    }
}
