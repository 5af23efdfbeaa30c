//! Pure domain rules of Delivery Tracker: no web framework, no database.
//!
//! Everything here is deterministic and unit-testable; the server and the CLI call into it so
//! that one rule has one home.

pub mod account;
pub mod contact;
pub mod courier;
pub mod deduction;
pub mod defaults;
pub mod device;
pub mod entry;
pub mod evidence;
pub mod expense;
pub mod fields;
pub mod fuel_fill;
pub mod merge;
pub mod mileage;
pub mod money;
pub mod password;
pub mod phone;
pub mod profile;
pub mod push;
pub mod rate_card;
pub mod role;
pub mod sent_update;
pub mod size_bands;
pub mod statement_check;
pub mod statement_format;
pub mod statement_line;
pub mod statement_query;
pub mod sync;
pub mod tiers;
pub mod time_fmt;
pub mod vehicle;

pub use account::{AccountError, DisplayName, Email};
pub use money::Money;
pub use password::{PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, validate_password};
pub use role::Role;
pub use tiers::{PayTier, PayTiers};
