//! Schema migrations, embedded in the binary. Both backends use the same numbering so a
//! feature adds `NNNN_name.sql` to `migrations/sqlite` and `migrations/postgres` together.

pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

macro_rules! migration {
    ($dir:literal, $version:literal, $name:literal) => {
        Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!("../../migrations/", $dir, "/", $name, ".sql")),
        }
    };
}

pub const SQLITE: &[Migration] = &[
    migration!("sqlite", 1, "0001_accounts"),
    migration!("sqlite", 2, "0002_entries"),
    migration!("sqlite", 3, "0003_profile_settings"),
    migration!("sqlite", 4, "0004_billing"),
    migration!("sqlite", 5, "0005_contact"),
    migration!("sqlite", 6, "0006_invoices"),
    migration!("sqlite", 7, "0007_contact_delivery"),
    migration!("sqlite", 8, "0008_phone"),
    migration!("sqlite", 9, "0009_oidc"),
    migration!("sqlite", 10, "0010_quotas"),
    migration!("sqlite", 11, "0011_records"),
    migration!("sqlite", 12, "0012_couriers"),
    migration!("sqlite", 13, "0013_tax_year"),
    migration!("sqlite", 14, "0014_must_change_password"),
    migration!("sqlite", 15, "0015_deduction_purpose"),
    migration!("sqlite", 16, "0016_email_links"),
    migration!("sqlite", 17, "0017_entry_shifts"),
    migration!("sqlite", 18, "0018_temporary_password_sessions"),
    migration!("sqlite", 19, "0019_bounded_storage"),
    migration!("sqlite", 20, "0020_vehicle_commute"),
    migration!("sqlite", 21, "0021_mtd_quarters"),
    migration!("sqlite", 22, "0022_query_reminder_days"),
    migration!("sqlite", 23, "0023_plain_replay_answers"),
    migration!("sqlite", 24, "0024_replay_records_by_mutation"),
];

pub const POSTGRES: &[Migration] = &[
    migration!("postgres", 1, "0001_accounts"),
    migration!("postgres", 2, "0002_entries"),
    migration!("postgres", 3, "0003_profile_settings"),
    migration!("postgres", 4, "0004_billing"),
    migration!("postgres", 5, "0005_contact"),
    migration!("postgres", 6, "0006_invoices"),
    migration!("postgres", 7, "0007_contact_delivery"),
    migration!("postgres", 8, "0008_phone"),
    migration!("postgres", 9, "0009_oidc"),
    migration!("postgres", 10, "0010_quotas"),
    migration!("postgres", 11, "0011_records"),
    migration!("postgres", 12, "0012_couriers"),
    migration!("postgres", 13, "0013_tax_year"),
    migration!("postgres", 14, "0014_must_change_password"),
    migration!("postgres", 15, "0015_deduction_purpose"),
    migration!("postgres", 16, "0016_email_links"),
    migration!("postgres", 17, "0017_entry_shifts"),
    migration!("postgres", 18, "0018_temporary_password_sessions"),
    migration!("postgres", 19, "0019_bounded_storage"),
    migration!("postgres", 20, "0020_vehicle_commute"),
    migration!("postgres", 21, "0021_mtd_quarters"),
    migration!("postgres", 22, "0022_query_reminder_days"),
    migration!("postgres", 23, "0023_plain_replay_answers"),
    migration!("postgres", 24, "0024_replay_records_by_mutation"),
];

/// One log line for a migration run, whatever it applied: the operator reads where the schema
/// stands, not a line per file. A run that applied nothing says so only at debug level (every
/// operator command opens the store too).
pub fn log_migrations(applied_now: &[&str], all: &[Migration]) {
    let latest = all.last().map_or(0, |m| m.version);
    match applied_now {
        [] => tracing::debug!(schema = latest, "database schema up to date"),
        [only] => tracing::info!(schema = latest, "database schema migrated: applied {only}"),
        [first, .., last] => tracing::info!(
            schema = latest,
            "database schema migrated: applied {} migrations, {first} to {last}",
            applied_now.len()
        ),
    }
}

/// The newest migration this binary knows (the same on both backends).
pub fn newest() -> i64 {
    SQLITE.last().map_or(0, |m| m.version)
}

/// Checks the migrations a database says it has (`applied`: version and name) against those
/// this binary knows (`known`). Refused: a version newer than the newest known (a newer
/// release used the database, and this one would run on tables it does not understand, or a
/// downgrade would go unnoticed), naming both versions; and a known version under another name
/// (another application's migrations table).
pub fn check_applied(
    applied: &[(i64, String)],
    known: &[Migration],
    what: &str,
) -> anyhow::Result<()> {
    let newest = known.last().map_or(0, |m| m.version);
    if let Some(found) = applied.iter().map(|(v, _)| *v).max()
        && found > newest
    {
        anyhow::bail!(
            "{what} is at schema version {found}, but this delivery-tracker ({}) knows only up \
             to {newest}: a newer version used it. Run that version or a newer one (or restore \
             a backup made by this one)",
            env!("CARGO_PKG_VERSION")
        );
    }
    for (version, name) in applied {
        let ours = known.iter().find(|m| m.version == *version);
        if ours.is_none_or(|m| m.name != name) {
            anyhow::bail!(
                "{what} is not a Delivery Tracker database: its migration {version} is {:?}, \
                 not one of ours",
                crate::admin::terminal_safe(name)
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_or_foreign_schema_is_refused() {
        let ours = |n: usize| -> Vec<(i64, String)> {
            SQLITE[..n]
                .iter()
                .map(|m| (m.version, m.name.to_owned()))
                .collect()
        };
        assert!(check_applied(&[], SQLITE, "the database").is_ok());
        assert!(check_applied(&ours(3), SQLITE, "the database").is_ok());
        assert!(check_applied(&ours(SQLITE.len()), SQLITE, "the database").is_ok());
        let mut newer = ours(SQLITE.len());
        newer.push((99, "0099_future".into()));
        let refused = check_applied(&newer, SQLITE, "the database")
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("schema version 99")
                && refused.contains(&format!("only up to {}", newest())),
            "{refused}"
        );
        let foreign = [(1, "create_widgets\u{1b}[2J".to_owned())];
        let refused = check_applied(&foreign, SQLITE, "the database")
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("not a Delivery Tracker database"),
            "{refused}"
        );
        assert!(!refused.contains('\u{1b}'), "escaped: {refused}");
    }

    #[test]
    fn both_backends_have_the_same_numbered_migrations() {
        let names =
            |list: &[Migration]| list.iter().map(|m| (m.version, m.name)).collect::<Vec<_>>();
        assert_eq!(names(SQLITE), names(POSTGRES));
        for (index, migration) in SQLITE.iter().enumerate() {
            assert_eq!(
                migration.version,
                i64::try_from(index).unwrap() + 1,
                "versions are consecutive"
            );
        }
    }
}
