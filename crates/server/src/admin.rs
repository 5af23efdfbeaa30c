//! Operator commands (`delivery-tracker users …`): they work on the same store as the server
//! and take effect at once, because the server reads roles from the store on every request.
//! `users create` and `users invite` add accounts whatever SIGNUPS_OPEN says: the operator
//! decides who is in.
//!
//! Everything printed from the store went through [`terminal_safe`] first: display names and
//! contact messages are typed by strangers (a contact message needs no account), and raw
//! control characters would reach the operator's terminal (ESC sequences, OSC 52 clipboard
//! writes, CR overwriting a line, bidi overrides reordering it).

use std::{borrow::Cow, collections::HashMap, fmt::Write as _, io::Write};

use anyhow::Context;
use domain::{
    DisplayName, Email, Role,
    phone::{PhoneNumber, PhoneRegion},
    time_fmt::{now_ms, rfc3339_from_ms},
    validate_password,
};
use rand::{Rng, distributions::Alphanumeric};
use uuid::Uuid;

use crate::{
    auth::{
        email_links::{issue_link, link_url},
        password::PasswordHasher,
    },
    files::FileStore,
    notify::Signal,
    store::{DynStore, EmailDelivery, EmailStatus, LinkPurpose, NewUser, StoreError, UserRecord},
};

/// Characters in a temporary password: about 119 bits from [A-Za-z0-9].
const TEMPORARY_PASSWORD_CHARS: usize = 20;

/// Prints every user as a table whose columns line up whatever strangers typed (escaped first,
/// then padded by the width a terminal gives each character), with the free-text display name
/// last so a long one cannot push the other columns out.
pub async fn list_users(store: &DynStore, out: &mut impl Write) -> anyhow::Result<()> {
    let users = store.list_users().await?;
    let phones: HashMap<Uuid, String> = store.user_phones().await?.into_iter().collect();
    let mut rows = vec![
        [
            "id",
            "email",
            "phone",
            "plan",
            "kind",
            "created",
            "display name",
        ]
        .map(String::from),
    ];
    for user in &users {
        rows.push([
            user.id.to_string(),
            terminal_safe(user.email.as_deref().unwrap_or("-")).into_owned(),
            terminal_safe(phones.get(&user.id).map_or("-", String::as_str)).into_owned(),
            user.role.to_string(),
            if user.is_anonymous {
                "guest"
            } else {
                "account"
            }
            .to_owned(),
            rfc3339_from_ms(user.created_at_ms),
            terminal_safe(user.display_name.as_deref().unwrap_or("-")).into_owned(),
        ]);
    }
    write_table(out, &rows)?;
    writeln!(
        out,
        "{}",
        crate::words::counted(users.len(), "user", "users")
    )?;
    Ok(())
}

/// Writes `rows` with each column padded to its widest cell (two spaces between columns, none
/// after the last), measured in terminal columns: an accent is one, a CJK letter or emoji two.
fn write_table<const N: usize>(out: &mut impl Write, rows: &[[String; N]]) -> std::io::Result<()> {
    use unicode_width::UnicodeWidthStr;
    let mut widths = [0; N];
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.width());
        }
    }
    for row in rows {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if column + 1 < N {
                let pad = widths[column] - cell.width() + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The user an operator named by e-mail, phone number (with its country code, or national in
/// `region`, PHONE_DEFAULT_REGION) or user id. Anything that is none of the three, or names
/// nobody, is an error that says which.
pub async fn find_user(
    store: &DynStore,
    who: &str,
    region: PhoneRegion,
) -> anyhow::Result<UserRecord> {
    let who = who.trim();
    let found = if let Ok(id) = Uuid::parse_str(who) {
        store.get_user(id).await?
    } else if who.contains('@') {
        let email = Email::parse(who)
            .map_err(|e| anyhow::anyhow!("{}: {}", e.message(), terminal_safe(who)))?;
        store.find_user_by_email(email.as_str()).await?
    } else if let Some(phone) = PhoneNumber::parse(who, region) {
        store.find_user_by_phone(phone.as_str()).await?
    } else {
        anyhow::bail!(
            "{} is not an e-mail, a phone number ({} or with its country code) or a user id",
            terminal_safe(who),
            region.code()
        );
    };
    found.with_context(|| format!("no user {}", terminal_safe(who)))
}

/// How the operator's output names a user: e-mail if any, and always the id.
pub fn describe(user: &UserRecord) -> String {
    match &user.email {
        Some(email) => format!("{} ({})", terminal_safe(email), user.id),
        None => format!("user {}", user.id),
    }
}

/// Tells running servers that `user_id`'s row changed, so they stop serving what they cached
/// about the user's sessions (PostgreSQL; SQLite servers notice the commit themselves). Best
/// effort: the change is made, and the servers' cache expires within SESSION_CACHE_SECONDS.
async fn announce_user_changed(store: &DynStore, user_id: Uuid) {
    if let Err(err) = store.announce(Signal::UserChanged { user_id }).await {
        tracing::warn!(error = %err, "running servers were not told; they see the change within SESSION_CACHE_SECONDS");
    }
}

/// Sets the plan of the user `who` names; takes effect on their next request.
pub async fn set_role(
    store: &DynStore,
    who: &str,
    region: PhoneRegion,
    role: Role,
) -> anyhow::Result<UserRecord> {
    let user = find_user(store, who, region).await?;
    store
        .set_role(user.id, role, now_ms())
        .await?
        .with_context(|| format!("no user {}", user.id))?;
    announce_user_changed(store, user.id).await;
    Ok(user)
}

/// Deletes the user `who` names with everything of theirs, the way the guest sweep deletes an
/// abandoned guest: the user row (its cascade takes records, receipts rows, sessions and
/// identities), then every file under `users/{uid}/`. Returns the user and the files removed.
pub async fn delete_user(
    store: &DynStore,
    files: &FileStore,
    who: &str,
    region: PhoneRegion,
) -> anyhow::Result<(UserRecord, u64)> {
    let user = find_user(store, who, region).await?;
    if !store.delete_user(user.id).await? {
        anyhow::bail!("no user {}", user.id);
    }
    announce_user_changed(store, user.id).await;
    let removed = files.delete_user_files(user.id).await.with_context(|| {
        format!(
            "the account {} is deleted but its files under users/{}/ were not all removed; \
             remove them by hand",
            user.id, user.id
        )
    })?;
    Ok((user, removed))
}

/// Gives the e-mail account `who` names a new random password and ends all its sessions, so
/// whoever had the old password or a session is out. Returns the user, the password (to pass
/// on once; the user changes it under Profile) and how many sessions ended.
pub async fn reset_password(
    store: &DynStore,
    who: &str,
    region: PhoneRegion,
) -> anyhow::Result<(UserRecord, String, usize)> {
    let user = find_user(store, who, region).await?;
    if user.email.is_none() {
        anyhow::bail!(
            "{} has no e-mail, so no password sign-in: it signs in by phone, OpenID or as a \
             guest",
            describe(&user)
        );
    }
    let password = temporary_password();
    let hash = PasswordHasher::new()?.hash(&password).await?;
    store.set_password(user.id, &hash, true, now_ms()).await?;
    // An empty `keep` matches no session: every one ends.
    let ended = store.delete_other_sessions(user.id, "").await?.len();
    announce_user_changed(store, user.id).await;
    Ok((user, password, ended))
}

fn temporary_password() -> String {
    rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(TEMPORARY_PASSWORD_CHARS)
        .map(char::from)
        .collect()
}

/// How `users create` sets the new account's first password.
pub enum FirstPassword {
    /// The operator's (read from stdin), held to the same rules as any new password.
    Given(String),
    /// A random one to pass on, which must be changed at first sign-in.
    Temporary,
}

/// Creates an e-mail account, sign-ups open or not. Returns the user and, for
/// [`FirstPassword::Temporary`], the password to pass on.
pub async fn create_user(
    store: &DynStore,
    email: &str,
    display_name: Option<&str>,
    first_password: FirstPassword,
) -> anyhow::Result<(UserRecord, Option<String>)> {
    let email = Email::parse(email)
        .map_err(|e| anyhow::anyhow!("{}: {}", e.message(), terminal_safe(email)))?;
    let display_name = DisplayName::parse_optional(display_name)
        .map_err(|e| anyhow::anyhow!("{}", e.message()))?;
    let (password, temporary) = match first_password {
        FirstPassword::Given(password) => {
            validate_password(&password, Some(email.as_str()))
                .map_err(|e| anyhow::anyhow!("{}", e.message()))?;
            (password, false)
        }
        FirstPassword::Temporary => (temporary_password(), true),
    };
    let hash = PasswordHasher::new()?.hash(&password).await?;
    let now = now_ms();
    let created = store
        .create_user(NewUser {
            id: Uuid::now_v7(),
            email: Some(email.as_str().to_owned()),
            display_name,
            password_hash: Some(hash.clone()),
            is_anonymous: false,
            now_ms: now,
        })
        .await;
    let user = match created {
        Ok(user) => user,
        Err(StoreError::Conflict(_)) => {
            anyhow::bail!("{} already has an account", terminal_safe(email.as_str()))
        }
        Err(err) => return Err(err.into()),
    };
    if temporary {
        // The mark that makes the app ask for a new password first (as `users reset-password`).
        store.set_password(user.id, &hash, true, now).await?;
    }
    let user = UserRecord {
        must_change_password: temporary,
        ..user
    };
    Ok((user, temporary.then_some(password)))
}

/// An invitation made by [`invite_user`], to e-mail or print.
pub struct Invitation {
    pub email: Email,
    pub url: String,
    pub expires_at_ms: i64,
}

/// Makes a sign-up link for `email`, working once for `days` days, sign-ups open or not; an
/// earlier invitation to the address stops working. `origin` is the address the link names.
pub async fn invite_user(
    store: &DynStore,
    email: &str,
    days: u32,
    origin: &str,
) -> anyhow::Result<Invitation> {
    let email = Email::parse(email)
        .map_err(|e| anyhow::anyhow!("{}: {}", e.message(), terminal_safe(email)))?;
    if let Some(user) = store.find_user_by_email(email.as_str()).await? {
        anyhow::bail!(
            "{} already has an account: they sign in with it (`users reset-password` if they \
             forgot the password)",
            describe(&user)
        );
    }
    let now = now_ms();
    let ttl_ms = i64::from(days) * 24 * 60 * 60 * 1000;
    let token = issue_link(store, LinkPurpose::Invite, &email, None, now, ttl_ms).await?;
    Ok(Invitation {
        url: link_url(origin, LinkPurpose::Invite, &token),
        email,
        expires_at_ms: now + ttl_ms,
    })
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
    writeln!(
        out,
        "{}",
        crate::words::counted(messages.len(), "message", "messages")
    )?;
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
    fn table_columns_line_up_whatever_their_width() {
        use unicode_width::UnicodeWidthStr;
        let rows = [
            ["id", "email", "plan", "display name"],
            [
                "1",
                "a-very-long-address-for-a-driver@example.co.uk",
                "pro",
                "Zoë",
            ],
            ["2", "司机@example.com", "free", "📦 Sam"],
            ["3", "x@y.z", "free", "-"],
        ]
        .map(|row| row.map(String::from));
        let mut out = Vec::new();
        write_table(&mut out, &rows).unwrap();
        let out = String::from_utf8(out).unwrap();
        // Every row's third and fourth cells start at the same terminal column as the header's.
        let column_of = |line: &str, cell: &str| line[..line.find(cell).unwrap()].width();
        let lines: Vec<&str> = out.lines().collect();
        let plan_at = column_of(lines[0], "plan");
        let name_at = column_of(lines[0], "display name");
        for (line, row) in lines.iter().zip(&rows) {
            assert_eq!(column_of(line, &row[2]), plan_at, "{out}");
            assert_eq!(column_of(line, &row[3]), name_at, "{out}");
            assert_eq!(*line, line.trim_end(), "no trailing spaces");
        }
    }

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
