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
    migration!("sqlite", 15, "0015_bounded_storage"),
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
    migration!("postgres", 15, "0015_bounded_storage"),
];

#[cfg(test)]
mod tests {
    use super::*;

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
