//! What a synced record kind is (the `RecordKind` trait). Each kind is declared once in its own
//! module (`entries`, `statement_checks`, `couriers`, `rate_cards`, `deductions`, `vehicles`,
//! `expenses`, `mileage`) on top of this one; `registry` lists them.

pub mod kind;

pub use kind::{Kind, RecordKind, Reference, Refusal, StoredPut, Words};
