//! PostgreSQL store, for running several server processes on one database.

mod accounts;
mod contact;
mod identities;
mod links;
mod ops;
mod phone;
mod pipelined_push;
mod plans;
mod receipts;
mod relay;
mod sessions;
mod sync;

use anyhow::Context;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::{NoTls, error::SqlState};

// sync.rs reads the profile row with it.
use self::accounts::user_from_row;
use super::{
    StoreError, StoreResult,
    migrations::{POSTGRES, log_migrations},
};

const POOL_SIZE: usize = 16;
/// Serialises migrations when several processes start at once.
const MIGRATION_LOCK_KEY: i64 = 0x6465_6c69_7665_7279; // "delivery"

pub struct PgStore {
    pool: Pool,
    /// For connections of its own (the signal relay's LISTEN).
    config: tokio_postgres::Config,
}

impl PgStore {
    pub async fn connect(url: &str) -> anyhow::Result<PgStore> {
        let config: tokio_postgres::Config = url
            .parse()
            .context("DATABASE_URL is not a valid PostgreSQL URL")?;
        Self::from_config(config).await
    }

    pub async fn from_config(config: tokio_postgres::Config) -> anyhow::Result<PgStore> {
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager).max_size(POOL_SIZE).build()?;
        // One connection first, so an unreachable server is named once, by host and port.
        drop(pool.get().await.map_err(|err| {
            anyhow::anyhow!(
                "cannot connect to {}: {}",
                describe(&config),
                root_cause(&err)
            )
        })?);
        let store = PgStore { pool, config };
        store
            .migrate()
            .await
            .context("migrating the PostgreSQL schema")?;
        Ok(store)
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        let mut client = self.pool.get().await?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK_KEY])
            .await?;
        let outcome = async {
            client
                .batch_execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (
                         version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
                )
                .await?;
            let applied: Vec<(i64, String)> = client
                .query("SELECT version, name FROM schema_migrations", &[])
                .await?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            crate::store::migrations::check_applied(
                &applied,
                POSTGRES,
                "the PostgreSQL database",
            )?;
            let mut applied_now = Vec::new();
            for migration in POSTGRES {
                let tx = client.transaction().await?;
                let applied = tx
                    .query_opt("SELECT 1 FROM schema_migrations WHERE version = $1", &[
                        &migration.version,
                    ])
                    .await?
                    .is_some();
                if !applied {
                    tx.batch_execute(migration.sql)
                        .await
                        .with_context(|| format!("applying migration {}", migration.name))?;
                    tx.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        &[&migration.version, &migration.name, &domain::time_fmt::now_ms()],
                    )
                    .await?;
                    applied_now.push(migration.name);
                }
                tx.commit().await?;
            }
            log_migrations(&applied_now, POSTGRES);
            anyhow::Ok(())
        }
        .await;
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK_KEY])
            .await?;
        outcome
    }

    async fn client(&self) -> StoreResult<deadpool_postgres::Object> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Backend(e.into()))
    }
}

/// Where a PostgreSQL configuration points, without its password: `PostgreSQL at HOST:PORT
/// (database D, user U)`, or the socket folder for a local socket.
pub fn describe(config: &tokio_postgres::Config) -> String {
    use tokio_postgres::config::Host;
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            // One port for every host, or one each; 5432 when none is named.
            let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
            match host {
                Host::Tcp(name) if name.contains(':') => format!("[{name}]:{port}"),
                Host::Tcp(name) => format!("{name}:{port}"),
                Host::Unix(dir) => format!("the socket in {} (port {port})", dir.display()),
            }
        })
        .collect();
    let at = if hosts.is_empty() {
        // libpq's own default; the driver needs a host, so this only shows in a refusal.
        "no host (add host=… or @HOST to DATABASE_URL)".to_owned()
    } else {
        hosts.join(", ")
    };
    let mut what = format!("PostgreSQL at {at}");
    let details: Vec<String> = [
        config.get_dbname().map(|d| format!("database {d}")),
        config.get_user().map(|u| format!("user {u}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !details.is_empty() {
        what.push_str(&format!(" ({})", details.join(", ")));
    }
    what
}

/// The innermost reason of an error chain ("Connection refused (os error 111)", "password
/// authentication failed…"): the layers above it repeat "error connecting to server".
fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    std::iter::successors(Some(err), |e| e.source())
        .last()
        .map_or_else(String::new, ToString::to_string)
}

pub(super) fn db_err(err: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(err.into())
}

fn unique_or(err: tokio_postgres::Error, what: &'static str) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        db_err(err)
    }
}
