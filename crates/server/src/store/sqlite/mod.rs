//! SQLite store: WAL, one group-committing writer thread, a checkpoint thread, a few readers.

mod accounts;
mod checkpointer;
mod contact;
mod identities;
mod links;
mod memory;
mod ops;
mod phone;
mod plans;
mod readers;
mod readonly;
mod receipts;
mod sessions;
mod sync;
mod writer;

use std::path::Path;

use anyhow::Context;
use rusqlite::{Connection, ErrorCode, OpenFlags, params};

// sync.rs reads the profile row with it.
use self::accounts::user_from_row;
pub use self::memory::Memory;
use self::{checkpointer::Checkpointer, readers::Readers, writer::Writer};
use super::{
    StoreError,
    migrations::{SQLITE, log_migrations},
};

const READER_CONNECTIONS: usize = 4;
/// Every distinct statement the store runs fits, so none is compiled twice (rusqlite keeps 16).
const STATEMENT_CACHE: usize = 256;
const BUSY_TIMEOUT_MS: u32 = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synchronous {
    /// Every commit is on disk before it is acknowledged (default).
    Full,
    /// Faster; the last commits may be lost on power failure, never corrupted.
    Normal,
}

impl Synchronous {
    pub fn parse(value: &str) -> Option<Synchronous> {
        match value.to_uppercase().as_str() {
            "FULL" => Some(Synchronous::Full),
            "NORMAL" => Some(Synchronous::Normal),
            _ => None,
        }
    }
}

pub struct SqliteStore {
    writer: Writer,
    readers: Readers,
}

impl SqliteStore {
    /// Opens (and migrates) the database with the page cache and memory map sized for this
    /// machine.
    pub async fn open(path: &Path, synchronous: Synchronous) -> anyhow::Result<SqliteStore> {
        Self::open_with(path, synchronous, Memory::defaults()).await
    }

    pub async fn open_with(
        path: &Path,
        synchronous: Synchronous,
        memory: Memory,
    ) -> anyhow::Result<SqliteStore> {
        let path = path.to_owned();
        tokio::task::spawn_blocking(move || Self::open_blocking(&path, synchronous, memory)).await?
    }

    fn open_blocking(
        path: &Path,
        synchronous: Synchronous,
        memory: Memory,
    ) -> anyhow::Result<SqliteStore> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating database directory {}", dir.display()))?;
        }
        let mut write_conn = Connection::open(path)
            .with_context(|| format!("opening SQLite database {}", path.display()))?;
        let sync = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        // The first writes: a database this user cannot write fails here, said with who owns
        // what (readonly.rs).
        write_conn
            .execute_batch(&format!(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = {sync};
                 PRAGMA foreign_keys = ON;
                 PRAGMA busy_timeout = {BUSY_TIMEOUT_MS};"
            ))
            .map_err(|err| readonly::explain(err.into(), path))?;
        migrate(&mut write_conn, path).map_err(|err| readonly::explain(err, path))?;
        write_conn.execute_batch(&memory.writer_pragmas())?;
        write_conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);

        let readers = (0..READER_CONNECTIONS)
            .map(|_| {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                conn.execute_batch(&format!(
                    "PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}; PRAGMA query_only = ON; {}",
                    memory.reader_pragmas()
                ))?;
                conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
                Ok(conn)
            })
            .collect::<rusqlite::Result<Vec<_>>>()?;

        // The WAL is copied back on a thread of its own (checkpointer.rs); the writer does it
        // only past the backstop.
        write_conn.execute_batch(&format!(
            "PRAGMA wal_autocheckpoint = {};",
            checkpointer::WRITER_BACKSTOP_PAGES
        ))?;
        let checkpointer = Checkpointer::start(path)?;
        Ok(SqliteStore {
            writer: Writer::start(write_conn, Some(checkpointer))?,
            readers: Readers::new(readers),
        })
    }
}

fn migrate(conn: &mut Connection, path: &Path) -> anyhow::Result<()> {
    refuse_foreign(conn, path)?;
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    )?;
    let applied = conn
        .prepare("SELECT version, name FROM schema_migrations")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    super::migrations::check_applied(
        &applied,
        SQLITE,
        &format!("the database {}", path.display()),
    )?;
    let mut applied_now = Vec::new();
    for migration in SQLITE {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let applied: bool = tx.query_row(
            "SELECT EXISTS(SELECT 1 FROM schema_migrations WHERE version = ?1)",
            [migration.version],
            |row| row.get(0),
        )?;
        if !applied {
            tx.execute_batch(migration.sql)
                .with_context(|| format!("applying migration {}", migration.name))?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                params![
                    migration.version,
                    migration.name,
                    domain::time_fmt::now_ms()
                ],
            )?;
            applied_now.push(migration.name);
        }
        tx.commit()?;
    }
    log_migrations(&applied_now, SQLITE);
    Ok(())
}

/// Refuses a database that holds tables but no migrations table: another application's file,
/// which migrating would change and serving would misread.
fn refuse_foreign(conn: &Connection, path: &Path) -> anyhow::Result<()> {
    let (tables, ours): (i64, i64) = conn.query_row(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE name = 'schema_migrations')
         FROM sqlite_master WHERE type = 'table'",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if tables > 0 && ours == 0 {
        anyhow::bail!(
            "{} holds tables but no schema_migrations table: it is not a Delivery Tracker \
             database (is DATA_DIR or DATABASE_URL right?)",
            path.display()
        );
    }
    Ok(())
}

/// `execute` and `query_row` through the connection's statement cache: compiling the SQL was
/// a sixth of a push's CPU when every call parsed it again.
trait Cached {
    fn execute_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>;
}

impl Cached for Connection {
    fn execute_cached<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }
}

/// Keys as one JSON array, for `IN (SELECT value FROM json_each(?))`: a single statement for
/// any number of keys, where `IN (?, ?, …)` would be a new statement for each count.
fn json_keys<K: ToString>(keys: &[K]) -> String {
    serde_json::Value::from(keys.iter().map(ToString::to_string).collect::<Vec<_>>()).to_string()
}

pub(super) fn db_err(err: rusqlite::Error) -> StoreError {
    StoreError::Backend(err.into())
}

/// Maps a unique-constraint failure to `Conflict(what)` and anything else to a backend error.
fn conflict_as(what: &'static str) -> impl Fn(rusqlite::Error) -> StoreError {
    move |err| {
        if is_unique_violation(&err) {
            StoreError::Conflict(what)
        } else {
            db_err(err)
        }
    }
}

fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(err, rusqlite::Error::SqliteFailure(e, _)
        if e.code == ErrorCode::ConstraintViolation
            && matches!(e.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_write_connection_logs_ahead_and_syncs_as_configured() {
        // FULL (2, the default): an acknowledged push survives power loss. NORMAL (1): only a
        // crash of the server.
        for (configured, expected) in [(Synchronous::Full, 2), (Synchronous::Normal, 1)] {
            let dir = tempfile::tempdir().unwrap();
            let store = SqliteStore::open(&dir.path().join("db.sqlite"), configured)
                .await
                .unwrap();
            let (journal_mode, synchronous) = store
                .writer
                .write(|conn| {
                    let journal_mode: String = conn
                        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
                        .map_err(db_err)?;
                    let synchronous: i64 = conn
                        .query_row("PRAGMA synchronous", [], |r| r.get(0))
                        .map_err(db_err)?;
                    Ok((journal_mode, synchronous))
                })
                .await
                .unwrap();
            assert_eq!((journal_mode.as_str(), synchronous), ("wal", expected));
        }
    }

    #[tokio::test]
    async fn the_page_cache_and_memory_map_are_as_configured() {
        let dir = tempfile::tempdir().unwrap();
        let memory = Memory {
            cache_mb: 48,
            mmap_mb: 96,
        };
        let store =
            SqliteStore::open_with(&dir.path().join("db.sqlite"), Synchronous::Full, memory)
                .await
                .unwrap();
        let pragma = |conn: &Connection, name: &str| -> crate::store::StoreResult<i64> {
            conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
                .map_err(db_err)
        };
        let writer = store
            .writer
            .write(move |conn| Ok((pragma(conn, "cache_size")?, pragma(conn, "mmap_size")?)))
            .await
            .unwrap();
        assert_eq!(writer, (-48 * 1024, 96 << 20));
        let reader = store
            .readers
            .read(move |conn| pragma(conn, "mmap_size"))
            .await
            .unwrap();
        assert_eq!(reader, 96 << 20);
    }
}
