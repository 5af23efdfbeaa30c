//! Wire types of the sync protocol (`/api/v1/sync/push` and `/pull`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// At most this many mutations in one push.
pub const MAX_MUTATIONS_PER_PUSH: usize = 500;
/// At most this many bytes in one push body.
pub const MAX_PUSH_BYTES: usize = 1024 * 1024;
pub const DEFAULT_PULL_LIMIT: u32 = 500;
pub const MAX_PULL_LIMIT: u32 = 1_000;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushRequest {
    pub client_id: String,
    pub mutations: Vec<Mutation>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct Mutation {
    /// Client-generated UUID; each id takes effect at most once.
    pub id: String,
    /// `entry.put`, `entry.delete`, `invoice.put`, `invoice.delete`, `profile.update` or
    /// `settings.put`.
    pub name: String,
    #[schema(value_type = Object)]
    pub args: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MutationStatus {
    Applied,
    Rejected,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MutationResult {
    pub id: String,
    pub status: MutationStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl MutationResult {
    pub fn applied(id: &str) -> Self {
        MutationResult {
            id: id.to_owned(),
            status: MutationStatus::Applied,
            code: None,
            message: None,
        }
    }

    pub fn rejected(id: &str, code: &str, message: impl Into<String>) -> Self {
        MutationResult {
            id: id.to_owned(),
            status: MutationStatus::Rejected,
            code: Some(code.to_owned()),
            message: Some(message.into()),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PushResponse {
    pub results: Vec<MutationResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryData {
    pub date: String,
    pub stops: u32,
    pub extra: i64,
    pub notes: String,
    pub total: i64,
    pub created_at: String,
    pub updated_at: String,
}

/// An invoice check (`kind: "invoice"`): what a statement said was paid for a period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceData {
    pub period_start: String,
    pub period_end: String,
    /// Pence.
    pub paid: i64,
    pub stops: Option<u32>,
    pub reference: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PaymentConfig {
    pub tiers: Vec<crate::tiers::PayTier>,
}

/// The user's profile as every device sees it (`kind: "profile"`, id = user id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileData {
    pub display_name: String,
    pub email: Option<String>,
    pub bio: String,
    #[serde(rename = "photoURL")]
    pub photo_url: Option<String>,
    pub role: crate::Role,
    pub is_anonymous: bool,
    pub payment_config: PaymentConfig,
    pub created_at: String,
    pub updated_at: String,
}

/// The user's settings (`kind: "settings"`, id = user id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsData {
    pub theme: crate::profile::Theme,
    pub updated_at: String,
}

/// Untagged on the wire (`kind` says which). Reading takes the first variant whose required
/// fields are all present, so a later variant's data must never carry all of an earlier
/// variant's required fields (an invoice has no `date`, an entry no `periodStart`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ChangeData {
    Entry(EntryData),
    Invoice(InvoiceData),
    Profile(ProfileData),
    Settings(SettingsData),
}

/// One changed record. `data` is absent on tombstones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// Record kind: `entry`, `invoice`, `profile` or `settings`.
    pub kind: String,
    pub id: String,
    /// The user's change sequence number at this write; pull cursors are these.
    pub version: i64,
    pub deleted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<ChangeData>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PullResponse {
    pub changes: Vec<Change>,
    pub cursor: i64,
    pub has_more: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: ChangeData) -> ChangeData {
        serde_json::from_str(&serde_json::to_string(&data).unwrap()).unwrap()
    }

    #[test]
    fn untagged_change_data_reads_back_as_the_same_kind() {
        let entry = ChangeData::Entry(EntryData {
            date: "2025-03-21".into(),
            stops: 120,
            extra: 500,
            notes: "".into(),
            total: 24_000,
            created_at: "2025-03-21T18:00:00Z".into(),
            updated_at: "2025-03-21T18:00:00Z".into(),
        });
        let invoice = ChangeData::Invoice(InvoiceData {
            period_start: "2025-03-17".into(),
            period_end: "2025-03-23".into(),
            paid: 123_456,
            stops: None,
            reference: "".into(),
            created_at: "2025-03-24T09:00:00Z".into(),
            updated_at: "2025-03-24T09:00:00Z".into(),
        });
        let settings = ChangeData::Settings(SettingsData {
            theme: crate::profile::Theme::Light,
            updated_at: "2025-03-24T09:00:00Z".into(),
        });
        for data in [entry, invoice, settings] {
            assert_eq!(round_trip(data.clone()), data);
        }
    }
}
