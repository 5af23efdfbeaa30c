//! The server refuses a database whose schema is newer than it knows, naming both versions
//! (issue 31: a downgrade, or a restore of a newer release's backup, ran silently), and on
//! SQLite a file that is another application's. On SQLite and PostgreSQL.

use crate::common;

use common::{Backend, fresh_postgres_schema};
use server::store::{
    postgres::PgStore,
    sqlite::{SqliteStore, Synchronous},
};

/// The newest migration: the highest number among the migration files.
fn newest() -> i64 {
    std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.get(..4)?.parse::<i64>().ok())
        .max()
        .unwrap()
}

async fn a_newer_schema_is_refused_naming_both_versions(backend: Backend) {
    let refusal = match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("db.sqlite");
            drop(SqliteStore::open(&path, Synchronous::Normal).await.unwrap());
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(10))
                .unwrap();
            conn.execute(
                "INSERT INTO schema_migrations VALUES (99, '0099_from_the_future', 0)",
                [],
            )
            .unwrap();
            drop(conn);
            SqliteStore::open(&path, Synchronous::Normal)
                .await
                .err()
                .expect("refused")
        }
        Backend::Postgres => {
            let Some(config) = fresh_postgres_schema().await else {
                return;
            };
            let store = PgStore::from_config(config.clone()).await.unwrap();
            drop(store);
            let (client, connection) = config.connect(tokio_postgres::NoTls).await.unwrap();
            tokio::spawn(connection);
            client
                .execute(
                    "INSERT INTO schema_migrations VALUES (99, '0099_from_the_future', 0)",
                    &[],
                )
                .await
                .unwrap();
            PgStore::from_config(config).await.err().expect("refused")
        }
    };
    let said = format!("{refusal:#}");
    assert!(
        said.contains("schema version 99") && said.contains(&format!("only up to {}", newest())),
        "{said}"
    );
}

/// Another application's SQLite file (tables, no migrations table) is not migrated and served.
#[tokio::test]
async fn another_applications_sqlite_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("theirs.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        .unwrap();
    let refusal = SqliteStore::open(&path, Synchronous::Normal)
        .await
        .err()
        .expect("refused");
    assert!(
        format!("{refusal:#}").contains("not a Delivery Tracker database"),
        "{refusal:#}"
    );
    let conn = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 1, "left as it was");
}

on_both_backends!(a_newer_schema_is_refused_naming_both_versions);
