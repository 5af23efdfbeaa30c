//! PostgreSQL: the server's push rate on PostgreSQL against pgbench (`-M prepared`) running
//! the statements one push runs (crates/server/src/store/postgres/sync.rs, plus the relay's
//! NOTIFY) on tables with today's columns and keys, in a schema of its own.

use std::process::Command;

/// The database to use: `TEST_DATABASE_URL`, else the local socket's `delivery_test`; `None`
/// when psql cannot reach it.
pub fn database_url() -> Option<String> {
    let url = std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| {
        "postgresql:///delivery_test?host=/var/run/postgresql&user=root".into()
    });
    psql(&url, None, "SELECT 1").then_some(url)
}

/// pgbench: `PGBENCH`, else PostgreSQL 15's, else the one on PATH.
pub fn pgbench() -> Option<String> {
    [
        std::env::var("PGBENCH").ok(),
        Some("/usr/lib/postgresql/15/bin/pgbench".into()),
        Some("pgbench".into()),
    ]
    .into_iter()
    .flatten()
    .find(|path| {
        Command::new(path)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Runs `sql` with psql (search_path set to `schema` when given); whether it succeeded.
pub fn psql(url: &str, schema: Option<&str>, sql: &str) -> bool {
    let mut command = Command::new("psql");
    command.args([url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql]);
    if let Some(schema) = schema {
        command.env("PGOPTIONS", format!("-c search_path={schema}"));
    }
    command.output().is_ok_and(|out| {
        if !out.status.success() {
            eprintln!("psql: {}", String::from_utf8_lossy(&out.stderr));
        }
        out.status.success()
    })
}

/// A new empty schema; returns its name.
pub fn new_schema(url: &str, prefix: &str) -> String {
    let schema = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
    assert!(psql(url, None, &format!("CREATE SCHEMA {schema}")));
    schema
}

pub fn drop_schema(url: &str, schema: &str) {
    psql(
        url,
        None,
        &format!("DROP SCHEMA IF EXISTS {schema} CASCADE"),
    );
}

/// `url` with its search_path set to `schema`, for the server's DATABASE_URL.
pub fn url_with_schema(url: &str, schema: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}options=-c%20search_path%3D{schema}")
}

/// Today's tables, and `users` users whose ids pgbench derives from its client number.
pub fn create_pgbench_tables(url: &str, schema: &str, users: usize) {
    let ddl = format!(
        "CREATE TABLE users (
             id UUID PRIMARY KEY, email TEXT UNIQUE, password_hash TEXT, display_name TEXT,
             is_anonymous BOOLEAN NOT NULL DEFAULT TRUE, created_at BIGINT NOT NULL DEFAULT 0,
             change_seq BIGINT NOT NULL DEFAULT 0, record_count BIGINT NOT NULL DEFAULT 0);
         CREATE TABLE records (
             kind TEXT NOT NULL, id UUID NOT NULL,
             user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
             version BIGINT NOT NULL, deleted BOOLEAN NOT NULL DEFAULT FALSE, content TEXT,
             created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
             PRIMARY KEY (kind, id));
         CREATE INDEX records_by_user_version ON records (user_id, version);
         CREATE TABLE applied_mutations (
             user_id UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
             mutation_id TEXT NOT NULL, result TEXT NOT NULL, applied_at BIGINT NOT NULL,
             PRIMARY KEY (user_id, mutation_id));
         CREATE INDEX applied_mutations_by_time ON applied_mutations (applied_at);
         INSERT INTO users (id) SELECT md5('u' || n)::uuid FROM generate_series(0, {users}) n;"
    );
    assert!(psql(url, Some(schema), &ddl), "pgbench tables");
}

/// A UUIDv7-shaped id as SQL, like the web app's (`days::new_id`): the transaction's start in
/// milliseconds, then random bits from `seed`. `now()` is the same in every statement of the
/// push, so the replay and ownership checks probe the very id the inserts then write. Not
/// `clock_timestamp()`: a volatile function in a WHERE clause keeps PostgreSQL off the index
/// (75 pushes/s instead of 3,000).
fn time_ordered(seed: &str) -> String {
    format!(
        "(lpad(to_hex((extract(epoch FROM now()) * 1000)::bigint), 12, '0') || substr(md5({seed}), 13))::uuid"
    )
}

/// One push of `batch` entries as a pgbench script: the user's counters locked, per mutation
/// the replay check, the ownership check, the insert and the replay record, the counters
/// written, COMMIT, then the change signal the relay sends.
fn script(batch: usize, content: &str) -> String {
    // pgbench sends variables as parameters of unknown type: cast them.
    let user = "md5('u' || :client_id::text)::uuid";
    // An E'' literal with every colon as \x3a: pgbench reads `:word` as a variable even
    // inside quotes (`"startTime":"07:15"`).
    let content = content
        .replace('\\', "\\\\")
        .replace('\'', "''")
        .replace(':', "\\x3a");
    let mut s = String::new();
    for k in 0..batch {
        s += &format!("\\set m{k} random(1, 9000000000000000000)\n");
    }
    s += "BEGIN;\n";
    s += &format!("SELECT change_seq, record_count FROM users WHERE id = {user} FOR UPDATE;\n");
    for k in 0..batch {
        let id = time_ordered(&format!("'e' || :client_id::text || '.' || :m{k}::text"));
        let mutation = format!(
            "{}::text",
            time_ordered(&format!("'m' || :client_id::text || '.' || :m{k}::text"))
        );
        s += &format!(
            "SELECT result FROM applied_mutations WHERE user_id = {user} AND mutation_id = {mutation};\n"
        );
        s += &format!(
            "SELECT user_id = {user}, deleted FROM records WHERE kind = 'entry' AND id = {id};\n"
        );
        s += &format!(
            "INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at) VALUES ('entry', {id}, {user}, :m{k}::bigint, E'{content}' IS NULL, E'{content}', 1, 1) ON CONFLICT (kind, id) DO NOTHING;\n"
        );
        s += &format!(
            "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at) VALUES ({user}, {mutation}, '{{\"status\":\"applied\"}}', 1);\n"
        );
    }
    s += &format!(
        "UPDATE users SET change_seq = change_seq + {batch}, record_count = record_count + {batch} WHERE id = {user};\n"
    );
    s += "COMMIT;\nSELECT pg_notify('delivery_tracker_signals', 'bench');\n";
    s
}

/// pgbench's mutations per second: `clients` connections, `seconds` long, batch `batch`.
pub fn pgbench_rate(
    pgbench: &str,
    url: &str,
    schema: &str,
    clients: usize,
    batch: usize,
    seconds: u64,
    content: &str,
) -> Option<f64> {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), script(batch, content)).unwrap();
    let out = Command::new(pgbench)
        .env("PGOPTIONS", format!("-c search_path={schema}"))
        .args([
            "-n",
            "-M",
            "prepared",
            "-c",
            &clients.to_string(),
            "-j",
            "2",
        ])
        .args(["-T", &seconds.to_string(), "-f"])
        .arg(file.path())
        .arg(url)
        .output()
        .ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        eprintln!(
            "pgbench failed: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    // "tps = 1234.5 (without initial connection time)"
    let tps: f64 = stdout
        .lines()
        .find(|l| l.starts_with("tps = "))?
        .trim_start_matches("tps = ")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(tps * batch as f64)
}
