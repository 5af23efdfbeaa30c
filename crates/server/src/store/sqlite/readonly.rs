//! "attempt to write a readonly database" (SQLITE_READONLY), said with what fixes it: the
//! database file and its folder with their owners and modes, and the user the server runs as.
//! It is what a database restored or created by root looks like to the service's user.

use std::path::Path;

use anyhow::anyhow;
use rusqlite::ErrorCode;

use crate::{store::StoreError, unix_users};

fn is_readonly(err: &rusqlite::Error) -> bool {
    matches!(err, rusqlite::Error::SqliteFailure(e, _) if e.code == ErrorCode::ReadOnly)
}

/// Whether `err` (as the store wraps it) is SQLITE_READONLY.
fn mentions_readonly(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<rusqlite::Error>()
            .is_some_and(is_readonly)
    })
}

/// What to say after "attempt to write a readonly database" about `database`.
pub fn explanation(database: &Path) -> String {
    let folder = database
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    format!(
        "{} cannot be written by this process, which runs as {}: the database is {}, and its \
         folder {}. Give them to the user the server runs as (chown -R that user {}) or run \
         the server as their owner",
        database.display(),
        unix_users::describe(unix_users::current()),
        unix_users::ownership(database),
        unix_users::ownership(folder),
        folder.display(),
    )
}

/// `err` with the explanation added when it is a read-only database.
pub fn explain(err: anyhow::Error, database: &Path) -> anyhow::Error {
    if mentions_readonly(&err) {
        err.context(explanation(database))
    } else {
        err
    }
}

/// A failed BEGIN or COMMIT in words, with the explanation when the database is read-only.
pub fn describe(err: &rusqlite::Error, database: Option<&str>) -> String {
    match database {
        Some(path) if is_readonly(err) => format!("{err}: {}", explanation(Path::new(path))),
        _ => err.to_string(),
    }
}

/// A failed write job's error with the explanation added when it is a read-only database.
pub fn explain_store(err: StoreError, database: Option<&str>) -> StoreError {
    match (err, database) {
        (StoreError::Backend(err), Some(path)) if mentions_readonly(&err) => {
            StoreError::Backend(anyhow!(err).context(explanation(Path::new(path))))
        }
        (err, _) => err,
    }
}
