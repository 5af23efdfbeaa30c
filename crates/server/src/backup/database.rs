//! The archive's SQLite database, once written to the staging folder and before anything is in
//! place: proven to be this application's (a SQLite file that passes its quick check, with our
//! migrations table, our migrations by name, none newer than this binary, the manifest's schema
//! version, and our tables), then its sessions signed out, since a backup's sessions include
//! ones that were ended after it was made.

use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::{
    admin::terminal_safe,
    store::migrations::{SQLITE, check_applied},
};

/// Tables every Delivery Tracker database has had since its first migrations.
const OUR_TABLES: [&str; 4] = [
    "users",
    "sessions",
    "applied_mutations",
    "schema_migrations",
];

/// Checks the database at `path` against the manifest's `schema_version` and signs out every
/// session in it; returns how many sessions there were.
pub fn check_and_sign_out(path: &Path, schema_version: Option<i64>) -> anyhow::Result<usize> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .context("opening the archive's database")?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    // A rollback journal, removed when each change commits: the folder is left with the
    // database file alone (a WAL would leave files the next owner cannot use).
    let check: String = conn
        .query_row("PRAGMA journal_mode = DELETE", [], |r| {
            r.get::<_, String>(0)
        })
        .and_then(|_| conn.query_row("PRAGMA quick_check", [], |r| r.get(0)))
        .map_err(|err| {
            anyhow::anyhow!("the archive's database is not a readable SQLite database ({err})")
        })?;
    if check != "ok" {
        bail!(
            "the archive's database is damaged: {}",
            terminal_safe(&check)
        );
    }
    for table in OUR_TABLES {
        let found: Option<String> = conn
            .query_row(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [table],
                |r| r.get(0),
            )
            .optional()?;
        if found.is_none() {
            bail!(
                "the archive's database is not a Delivery Tracker database: it has no {table} \
                 table"
            );
        }
    }
    let applied: Vec<(i64, String)> = conn
        .prepare("SELECT version, name FROM schema_migrations ORDER BY version")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    check_applied(&applied, SQLITE, "the archive's database")?;
    let at = applied.last().map(|(version, _)| *version);
    if at != schema_version {
        bail!(
            "the archive's database is at schema version {} but its manifest says {}: the \
             archive was not made by `delivery-tracker backup`",
            at.map_or_else(|| "none".into(), |v| v.to_string()),
            schema_version.map_or_else(|| "none".into(), |v| v.to_string()),
        );
    }
    let signed_out = conn.execute("DELETE FROM sessions", [])?;
    conn.close().map_err(|(_, err)| err)?;
    Ok(signed_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database with every migration applied, as `serve` makes it, and two sessions.
    async fn ours(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_migrations (
                 version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
        )
        .unwrap();
        for migration in SQLITE {
            conn.execute_batch(migration.sql).unwrap();
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?1, ?2, 0)",
                rusqlite::params![migration.version, migration.name],
            )
            .unwrap();
        }
        conn.execute_batch(
            "INSERT INTO users (id, is_anonymous, created_at, last_login, updated_at)
                 VALUES ('u', 1, 0, 0, 0);
             INSERT INTO sessions (token_hash, user_id, created_at, last_seen)
                 VALUES ('t1', 'u', 0, 0), ('t2', 'u', 0, 0);",
        )
        .unwrap();
        path
    }

    fn newest() -> Option<i64> {
        SQLITE.last().map(|m| m.version)
    }

    #[tokio::test]
    async fn our_database_passes_and_its_sessions_are_signed_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = ours(dir.path()).await;
        assert_eq!(check_and_sign_out(&path, newest()).unwrap(), 2);
        let conn = Connection::open(&path).unwrap();
        let left: i64 = conn
            .query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 0);
        let files = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(files, 1, "no journal or WAL left beside it");
    }

    #[tokio::test]
    async fn anything_else_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let refused =
            |path: &Path, version| check_and_sign_out(path, version).unwrap_err().to_string();

        let noise = dir.path().join("noise");
        std::fs::write(&noise, vec![0x5A; 8_192]).unwrap();
        assert!(refused(&noise, newest()).contains("not a readable SQLite database"));

        let other = dir.path().join("other");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE widgets (id INTEGER)")
            .unwrap();
        assert!(refused(&other, newest()).contains("no users table"));

        let future = ours(dir.path()).await;
        Connection::open(&future)
            .unwrap()
            .execute(
                "INSERT INTO schema_migrations VALUES (99, '0099_future', 0)",
                [],
            )
            .unwrap();
        let said = refused(&future, Some(99));
        assert!(said.contains("schema version 99"), "{said}");

        let lied = tempfile::tempdir().unwrap();
        let path = ours(lied.path()).await;
        let said = refused(&path, Some(3));
        assert!(said.contains("its manifest says 3"), "{said}");
    }
}
