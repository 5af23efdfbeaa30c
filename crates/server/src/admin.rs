//! Operator commands (`delivery-tracker users …`): they work on the same store as the server
//! and take effect at once, because the server reads roles from the store on every request.

use std::io::Write;

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
            user.email.as_deref().unwrap_or("-"),
            user.role,
            if user.is_anonymous {
                "guest"
            } else {
                "account"
            },
            user.display_name.as_deref().unwrap_or("-"),
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
    let at = |ms: Option<i64>| ms.map(rfc3339_from_ms).unwrap_or_else(|| "-".into());
    let error = delivery.last_error.as_deref().unwrap_or("-");
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
        let from = match m.user_id {
            Some(user) => format!("{} <{}> (user {user})", m.name, m.email),
            None => format!("{} <{}>", m.name, m.email),
        };
        writeln!(out, "--- {} from {from}", rfc3339_from_ms(m.created_at_ms))?;
        if !m.subject.is_empty() {
            writeln!(out, "Subject: {}", m.subject)?;
        }
        writeln!(out, "E-mail: {}", email_state(&m.delivery))?;
        writeln!(out, "{}\n", m.message)?;
    }
    writeln!(out, "{} message(s)", messages.len())?;
    Ok(())
}
