//! The e-mails that carry links: what they say, in plain text.

use domain::{Email, time_fmt::rfc3339_from_ms};
use lettre::{
    Message,
    message::{Mailbox, SinglePart},
};

/// "Forgot password?": the link to choose a new password.
pub fn password_reset(from: &Mailbox, to: &Email, url: &str) -> anyhow::Result<Message> {
    let body = format!(
        "Someone (we hope you) asked to reset the password of the Delivery Tracker account \
         {email}.\n\n\
         Choose a new password here:\n\n\
         {url}\n\n\
         The link works once, within an hour. Choosing a new password signs you out on every \
         other device.\n\n\
         If you did not ask, ignore this e-mail: your password stays as it is.\n",
        email = to.as_str(),
    );
    message(from, to, "Reset your Delivery Tracker password", body)
}

/// The operator's `users invite`: the link to create an account for this address.
pub fn invitation(
    from: &Mailbox,
    to: &Email,
    url: &str,
    origin: &str,
    expires_at_ms: i64,
) -> anyhow::Result<Message> {
    let body = format!(
        "You are invited to keep your delivery days in Delivery Tracker at {origin}.\n\n\
         Create your account for {email} here:\n\n\
         {url}\n\n\
         The link works once, until {until} (UTC).\n",
        email = to.as_str(),
        until = rfc3339_from_ms(expires_at_ms),
    );
    message(from, to, "Your invitation to Delivery Tracker", body)
}

fn message(from: &Mailbox, to: &Email, subject: &str, body: String) -> anyhow::Result<Message> {
    Ok(Message::builder()
        .message_id(None)
        .from(from.clone())
        .to(Mailbox::new(None, to.as_str().parse()?))
        .subject(subject)
        .singlepart(SinglePart::plain(body))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from() -> Mailbox {
        "Delivery Tracker <noreply@example.com>".parse().unwrap()
    }

    #[test]
    fn a_reset_names_the_account_the_link_and_the_hour() {
        let to = Email::parse("sam@example.com").unwrap();
        let message =
            password_reset(&from(), &to, "https://dt.example.com/reset-password#t0k").unwrap();
        let text = String::from_utf8(message.formatted()).unwrap();
        assert!(text.contains("To: sam@example.com"), "{text}");
        assert!(
            text.contains("Subject: Reset your Delivery Tracker password"),
            "{text}"
        );
        assert!(
            text.contains("https://dt.example.com/reset-password#t0k"),
            "{text}"
        );
        assert!(text.contains("within an hour"), "{text}");
    }

    #[test]
    fn an_invitation_says_where_and_until_when() {
        let to = Email::parse("new.driver@example.com").unwrap();
        let message = invitation(
            &from(),
            &to,
            "https://dt.example.com/invite#t0k",
            "https://dt.example.com",
            1_767_225_600_000,
        )
        .unwrap();
        let text = String::from_utf8(message.formatted()).unwrap();
        assert!(text.contains("To: new.driver@example.com"), "{text}");
        assert!(text.contains("https://dt.example.com/invite#t0k"), "{text}");
        assert!(text.contains("2026-01-01T00:00:00"), "{text}");
    }
}
