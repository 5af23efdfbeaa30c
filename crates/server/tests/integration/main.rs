//! The server's integration suites, one module each, compiled into one test binary.
//!
//! One binary, not one per file: each file was its own crate that compiled `common` and the
//! server's generic code (axum, tokio, reqwest, serde) again and was linked on its own, which
//! took 464 s of CPU in CI against about a quarter of that as one crate. nextest still runs
//! every test in a process of its own, so no test sees another's state. Run one suite with
//! `cargo nextest run -p server --test integration sync_wire::` (the module name is the old
//! file name).

// First, with `macro_use`: its `on_both_backends!` is then in scope in every module below.
#[macro_use]
mod common;

mod account_api;
mod auth_api;
mod backup_restore;
mod billing_api;
mod connections;
mod contact_api;
mod couriers_migration;
mod crash_recovery;
mod decode_memory;
mod deduction_purpose_migration;
mod docs;
mod evidence_bundle;
mod first_start;
mod forwarded_addresses;
mod http_surface;
mod metrics;
mod module_loops;
mod multi_process;
mod oidc_api;
mod operator_commands;
mod operator_output;
mod password_recovery;
mod phone_auth;
mod photo_upload;
mod postgres_push;
mod receipts_api;
mod records_migration;
mod replay_answers_migration;
mod replay_key_migration;
mod restore_guards;
mod restore_ownership;
mod schema_versions;
mod signup_switches;
mod storage_limits;
mod store_conformance;
mod sync_api;
mod sync_wire;
mod temporary_password;
mod vehicle_commute_migration;
