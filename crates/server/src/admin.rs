//! Operator commands (`delivery-tracker users …`): they work on the same store as the server
//! and take effect at once, because the server reads roles from the store on every request.
//!
//! Everything printed from the store went through [`terminal_safe`] first: display names and
//! contact messages are typed by strangers (a contact message needs no account), and raw
//! control characters would reach the operator's terminal (ESC sequences, OSC 52 clipboard
//! writes, CR overwriting a line, bidi overrides reordering it).

use std::{borrow::Cow, fmt::Write as _, io::Write};

use domain::{
    Email, Role,
    time_fmt::{now_ms, rfc3339_from_ms},
};

use crate::store::{DynStore, EmailDelivery, EmailStatus};

pub async fn list_users(store: &DynStore, out: &mut impl Write) -> anyhow::Result<()> {
    let users = store.list_users().await?;
    writeln!(
        out,
        "{:<36}  {:<32}  {:<5}  {:<9}  {:<20}  created",
        "id", "email", "role", "kind", "display name"
    )?;
    for user in &users {
        writeln!(
            out,
            "{:<36}  {:<32}  {:<5}  {:<9}  {:<20}  {}",
            user.id,
            terminal_safe(user.email.as_deref().unwrap_or("-")),
            user.role,
            if user.is_anonymous {
                "guest"
            } else {
                "account"
            },
            terminal_safe(user.display_name.as_deref().unwrap_or("-")),
            rfc3339_from_ms(user.created_at_ms),
        )?;
    }
    writeln!(out, "{} user(s)", users.len())?;
    Ok(())
}

pub async fn set_role(store: &DynStore, email: &str, role: Role) -> anyhow::Result<()> {
    let email = Email::parse(email).map_err(|e| anyhow::anyhow!("{}: {email}", e.message()))?;
    if !store
        .set_role_by_email(email.as_str(), role, now_ms())
        .await?
    {
        anyhow::bail!("no user with e-mail {}", email.as_str());
    }
    Ok(())
}

/// One line on whether the operator's e-mail copy went out.
fn email_state(delivery: &EmailDelivery) -> String {
    let tries = |n: u32| {
        if n == 1 {
            "1 try".to_owned()
        } else {
            format!("{n} tries")
        }
    };
    let at = |ms: Option<i64>| ms.map_or_else(|| "-".into(), rfc3339_from_ms);
    let error = terminal_safe(delivery.last_error.as_deref().unwrap_or("-"));
    match delivery.status {
        EmailStatus::NotConfigured => "not sent (SMTP was not configured)".into(),
        EmailStatus::Sent => format!(
            "sent {} after {}",
            at(delivery.emailed_at_ms),
            tries(delivery.attempts)
        ),
        EmailStatus::Pending if delivery.attempts == 0 => "pending, not tried yet".into(),
        EmailStatus::Pending => format!(
            "pending, next try {} after {} (last error: {error})",
            at(delivery.next_attempt_at_ms),
            tries(delivery.attempts)
        ),
        EmailStatus::Failed => format!(
            "FAILED after {} (last error: {error})",
            tries(delivery.attempts)
        ),
    }
}

/// Prints the newest contact messages, newest first, for the operator to answer.
pub async fn list_messages(
    store: &DynStore,
    limit: u32,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let messages = store.list_contact_messages(limit).await?;
    for m in &messages {
        let (name, email) = (terminal_safe(&m.name), terminal_safe(&m.email));
        let from = match m.user_id {
            Some(user) => format!("{name} <{email}> (user {user})"),
            None => format!("{name} <{email}>"),
        };
        writeln!(out, "--- {} from {from}", rfc3339_from_ms(m.created_at_ms))?;
        if !m.subject.is_empty() {
            writeln!(out, "Subject: {}", terminal_safe(&m.subject))?;
        }
        writeln!(out, "E-mail: {}", email_state(&m.delivery))?;
        // Line by line and indented, so a message cannot fake a header line of its own.
        for line in m.message.split('\n') {
            writeln!(out, "  {}", terminal_safe(line))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "{} message(s)", messages.len())?;
    Ok(())
}

/// `text` with every character that could steer a terminal written out as a visible escape
/// (`\u{1b}`): C0/C1 controls (ESC, CR, BEL, TAB, …), DEL, bidi overrides and isolates, and the
/// Unicode line and paragraph separators. Printable text, accents and emoji pass unchanged.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(steers_terminal) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if steers_terminal(c) {
            let _ = write!(safe, "\\u{{{:x}}}", u32::from(c));
        } else {
            safe.push(c);
        }
    }
    Cow::Owned(safe)
}

fn steers_terminal(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061c}' | '\u{200e}' | '\u{200f}'   // Arabic letter mark, LRM, RLM
            | '\u{202a}'..='\u{202e}'             // embeddings and overrides
            | '\u{2066}'..='\u{2069}'             // isolates
            | '\u{2028}' | '\u{2029}') // line and paragraph separators
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_untouched() {
        for text in ["Jo Bloggs", "Zoë Ó Sé", "Parcel 📦 left", "a@b.co.uk", ""] {
            assert!(matches!(terminal_safe(text), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn every_terminal_control_is_escaped() {
        let cases = [
            ("\u{1b}[2J", "\\u{1b}[2J"),
            (
                "\u{1b}]52;c;cm0gLXJmIC8=\u{7}",
                "\\u{1b}]52;c;cm0gLXJmIC8=\\u{7}",
            ),
            ("ok\rEVIL", "ok\\u{d}EVIL"),
            ("line\nbreak", "line\\u{a}break"),
            ("tab\there", "tab\\u{9}here"),
            ("\u{9b}31m", "\\u{9b}31m"),
            ("\u{7f}", "\\u{7f}"),
            ("abc\u{202e}fdp.exe", "abc\\u{202e}fdp.exe"),
            ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
            ("a\u{2028}b", "a\\u{2028}b"),
        ];
        for (raw, shown) in cases {
            assert_eq!(terminal_safe(raw), shown, "{raw:?}");
        }
    }
}
