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
    /// `<kind>.put` or `<kind>.delete` for every record kind (the contract's `kinds`:
    /// `entry`, `invoice`, `courier`, …); `profile.update` or `settings.put`.
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
    /// A `validation` refusal's problems by field, as in a REST error (issue 32; an older
    /// app reads only `message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<crate::fields::FieldErrors>,
}

impl MutationResult {
    pub fn applied(id: &str) -> Self {
        MutationResult {
            id: id.to_owned(),
            status: MutationStatus::Applied,
            code: None,
            message: None,
            fields: None,
        }
    }

    pub fn rejected(id: &str, code: &str, message: impl Into<String>) -> Self {
        MutationResult {
            id: id.to_owned(),
            status: MutationStatus::Rejected,
            code: Some(code.to_owned()),
            message: Some(message.into()),
            fields: None,
        }
    }

    /// This answer with the refusal's problems by field.
    pub fn with_fields(self, fields: Option<crate::fields::FieldErrors>) -> Self {
        MutationResult { fields, ..self }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PushResponse {
    pub results: Vec<MutationResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryContent {
    #[schema(format = Date)]
    pub date: String,
    pub stops: u32,
    pub extra: i64,
    pub notes: String,
    pub total: i64,
    pub courier_id: String,
    /// The card that priced the day; null = priced with no card.
    pub rate_card_id: Option<String>,
    pub parcels: Option<u32>,
    pub collections: Option<u32>,
    pub failed: Option<u32>,
    /// `HH:MM`, both or neither.
    pub start_time: Option<String>,
    pub finish_time: Option<String>,
    /// A deliberate extra shift on a day that already has one for this courier.
    #[serde(default)]
    #[schema(default = false)]
    pub separate_shift: bool,
    /// The parcels by size band (they add up to `parcels`); null when not counted by band
    /// (absent from a server or an export older than bands).
    #[serde(default)]
    #[schema(default = json!(null))]
    pub bands: Option<crate::size_bands::BandCounts>,
}

pub type EntryData = Stamped<EntryContent>;

/// A statement check (`kind: "invoice"`, the name older devices send): what a statement said
/// was paid for a period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatementCheckContent {
    #[schema(format = Date)]
    pub period_start: String,
    #[schema(format = Date)]
    pub period_end: String,
    /// Pence.
    pub paid: i64,
    pub stops: Option<u32>,
    pub reference: String,
    pub courier_id: String,
    pub parcels: Option<u32>,
    pub collections: Option<u32>,
    /// Pence: the statement's total deductions.
    pub deductions: Option<i64>,
    pub status: crate::statement_check::CheckStatus,
    pub note: String,
}

pub type StatementCheckData = Stamped<StatementCheckContent>;

/// A courier (`kind: "courier"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CourierContent {
    pub name: String,
    pub colour: String,
    pub period_kind: crate::courier::PeriodKind,
    #[schema(format = Date)]
    pub period_anchor: String,
    pub arrears_weeks: u8,
}

pub type CourierData = Stamped<CourierContent>;

/// A rate card (`kind: "rateCard"`). Money in pence; null = the rule is not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RateCardContent {
    pub courier_id: String,
    #[schema(format = Date)]
    pub valid_from: String,
    pub label: String,
    pub per_stop: Option<Vec<crate::tiers::PayTier>>,
    pub per_parcel: Option<i64>,
    pub parcel_cap_per_stop: Option<i64>,
    pub per_collection: Option<i64>,
    pub per_failed: Option<i64>,
    pub day_rate: Option<i64>,
    pub hourly: Option<i64>,
    pub peaks: Vec<crate::rate_card::Peak>,
    /// Pay per parcel by size band; null when the card does not pay by band (absent from a
    /// server or an export older than bands).
    #[serde(default)]
    #[schema(default = json!(null))]
    pub band_rates: Option<crate::size_bands::BandRates>,
}

pub type RateCardData = Stamped<RateCardContent>;

/// A deduction (`kind: "deduction"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeductionContent {
    pub courier_id: String,
    pub label: String,
    /// Pence.
    pub amount: i64,
    pub repeat: crate::deduction::Repeat,
    #[schema(format = Date)]
    pub from: String,
    #[schema(format = Date)]
    pub to: Option<String>,
    /// What it is for (an expense category); null when not said (absent from a server or an
    /// export older than it).
    #[schema(default = json!(null))]
    pub purpose: Option<crate::expense::ExpenseCategory>,
    /// The vehicle a vehicle cost is for.
    #[schema(default = json!(null))]
    pub vehicle_id: Option<String>,
}

pub type DeductionData = Stamped<DeductionContent>;

/// An expense (`kind: "expense"`). Money in pence; null = not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExpenseContent {
    #[schema(format = Date)]
    pub date: String,
    /// Pence, per occurrence.
    pub amount: i64,
    pub category: crate::expense::ExpenseCategory,
    pub note: String,
    pub courier_id: Option<String>,
    pub vehicle_id: Option<String>,
    pub repeat: crate::deduction::Repeat,
    #[schema(format = Date)]
    pub repeat_until: Option<String>,
    /// Receipt photo ids (`/api/v1/receipts/{id}`).
    pub receipts: Vec<String>,
}

pub type ExpenseData = Stamped<ExpenseContent>;

/// A vehicle (`kind: "vehicle"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VehicleContent {
    pub name: String,
    #[serde(rename = "type")]
    pub vehicle_type: crate::vehicle::VehicleType,
    pub method: crate::vehicle::VehicleMethod,
    /// Home to depot, one way, whole miles (migration 0020 gave every earlier vehicle 0).
    #[serde(default)]
    #[schema(default = 0)]
    pub commute_miles: u32,
}

pub type VehicleData = Stamped<VehicleContent>;

/// A mileage record (`kind: "mileage"`), in whole miles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MileageContent {
    #[schema(format = Date)]
    pub date: String,
    pub vehicle_id: String,
    pub courier_id: Option<String>,
    pub odometer_start: Option<u32>,
    pub odometer_end: Option<u32>,
    pub business_miles: u32,
    pub commute_miles: u32,
    pub note: String,
}

pub type MileageData = Stamped<MileageContent>;

/// A fuel fill (`kind: "fuelFill"`): a log of fuel or charge, never an expense.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FuelFillContent {
    #[schema(format = Date)]
    pub date: String,
    pub vehicle_id: String,
    pub unit: crate::fuel_fill::FuelUnit,
    /// Millilitres (litres) or watt-hours (kWh).
    pub quantity: u32,
    /// Pence.
    pub cost: i64,
    /// Whole miles, null when not read.
    pub odometer: Option<u32>,
    /// Filled to full: only full fills measure economy.
    pub full: bool,
    pub note: String,
}

pub type FuelFillData = Stamped<FuelFillContent>;

/// A statement line (`kind: "statementLine"`): one line of a statement check. Money in pence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatementLineContent {
    pub invoice_id: String,
    pub courier_id: String,
    pub line_key: String,
    #[schema(format = Date)]
    pub date: String,
    pub line_type: crate::statement_line::LineType,
    pub band: Option<crate::statement_line::SizeBand>,
    pub quantity: u32,
    pub rate: Option<i64>,
    pub amount: i64,
    pub reference: String,
}

pub type StatementLineData = Stamped<StatementLineContent>;

/// How a courier's statement file reads (`kind: "statementFormat"`): the saved column mapping.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatementFormatContent {
    pub courier_id: String,
    pub source: crate::statement_format::FormatSource,
    pub date_column: String,
    pub date_order: crate::statement_format::DateOrder,
    pub amount_column: String,
    pub type_column: Option<String>,
    pub band_column: Option<String>,
    pub quantity_column: Option<String>,
    pub rate_column: Option<String>,
    pub reference_column: Option<String>,
    pub default_type: crate::statement_line::LineType,
    pub deductions_positive: bool,
    pub type_words: Vec<crate::statement_format::TypeWord>,
}

pub type StatementFormatData = Stamped<StatementFormatContent>;

/// A sent quarterly update (`kind: "sentUpdate"`): never changed once stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentUpdateContent {
    pub tax_year: String,
    pub quarter: u8,
    pub quarters: crate::profile::MtdQuarters,
    #[schema(format = Date)]
    pub period_start: String,
    #[schema(format = Date)]
    pub period_end: String,
    pub shape: crate::sent_update::ExpensesShape,
    pub file: String,
    pub sha256: String,
    #[schema(format = Date)]
    pub sent_on: String,
    pub product: String,
    pub reference: String,
    pub supersedes: Option<String>,
}

pub type SentUpdateData = Stamped<SentUpdateContent>;

/// A query to a courier about a statement check (`kind: "statementQuery"`): its frozen items
/// with their hash chain, and the tracking. Money in pence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatementQueryContent {
    pub statement_check_id: String,
    #[schema(format = Date)]
    pub made_on: String,
    pub items_version: i64,
    pub items: Vec<crate::statement_query::QueryItem>,
    pub total: i64,
    #[schema(format = Date)]
    pub sent_on: Option<String>,
    #[schema(format = Date)]
    pub answered_on: Option<String>,
    pub paid_back_amount: Option<i64>,
    #[schema(format = Date)]
    pub paid_back_on: Option<String>,
    pub paid_back_check_id: Option<String>,
    #[schema(format = Date)]
    pub closed_on: Option<String>,
    pub note: String,
}

pub type StatementQueryData = Stamped<StatementQueryContent>;

/// An evidence item kept at the time (`kind: "evidence"`): what it belongs to (exactly one of
/// a day, a statement line, a statement query), what it records, when the device recorded it
/// (`recordedAt`) and, as `createdAt`, when the server first stored it (set by the server on the
/// first put; later edits keep it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EvidenceContent {
    pub entry_id: Option<String>,
    pub statement_line_id: Option<String>,
    pub statement_query_id: Option<String>,
    #[serde(rename = "type")]
    pub evidence_type: crate::evidence::EvidenceType,
    pub recorded_at: String,
    pub text: String,
    pub photo_id: Option<String>,
    pub purpose: Option<crate::evidence::PhotoPurpose>,
    pub minutes: Option<u16>,
    pub place: String,
    pub from_whom: String,
}

pub type EvidenceData = Stamped<EvidenceContent>;

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
    pub tax_region: crate::profile::TaxRegion,
    /// Added after `taxRegion`: a server or file older than it sends none, meaning standard.
    #[serde(default)]
    #[schema(default = "standard")]
    pub quarters: crate::profile::MtdQuarters,
    /// Added after `quarters` (issue 28): days a sent statement query may go unanswered before
    /// the reminder; a server or file older than it sends none, meaning 14.
    #[serde(default = "default_query_reminder_days")]
    #[schema(default = 14)]
    pub query_reminder_days: u8,
    pub updated_at: String,
}

fn default_query_reminder_days() -> u8 {
    crate::profile::DEFAULT_QUERY_REMINDER_DAYS
}

/// A record kind's pulled `data`: its content (what the server stores) and the server's two
/// timestamps after it. The content is declared once, as `<Kind>Content`; on the wire the
/// timestamps follow its fields in the same object (flattened), so the bytes are those of one
/// flat struct with `createdAt` and `updatedAt` last. Derefs to the content, so its fields read
/// directly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stamped<C> {
    #[serde(flatten)]
    pub content: C,
    pub created_at: String,
    pub updated_at: String,
}

impl<C> std::ops::Deref for Stamped<C> {
    type Target = C;

    fn deref(&self) -> &C {
        &self.content
    }
}

/// The content's schema with the two timestamps added as required strings, so the OpenAPI
/// document (and the contract the web is generated from) reads as one flat object.
impl<C: ToSchema> utoipa::PartialSchema for Stamped<C> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::{
            RefOr,
            schema::{ObjectBuilder, Schema, Type},
        };
        let mut schema = C::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            for stamp in ["createdAt", "updatedAt"] {
                object.properties.insert(
                    stamp.to_owned(),
                    ObjectBuilder::new().schema_type(Type::String).into(),
                );
                object.required.push(stamp.to_owned());
            }
        }
        schema
    }
}

/// Named `<Kind>Data` (`FuelFillContent` → `FuelFillData`), the name the API always had.
impl<C: ToSchema> ToSchema for Stamped<C> {
    fn name() -> std::borrow::Cow<'static, str> {
        let content = C::name();
        let kind = content.strip_suffix("Content").unwrap_or(&content);
        format!("{kind}Data").into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        C::schemas(schemas);
    }
}

/// What a record kind stores (`<Kind>Content`): with the server's timestamps it is the kind's
/// pulled `data`, a [`ChangeData`] variant. Every content listed in `change_data!` is one.
pub trait KindContent: Serialize + serde::de::DeserializeOwned + ToSchema + Sized {
    /// The pulled `data` of a record holding this content.
    fn pulled(self, created_at: String, updated_at: String) -> ChangeData;
}

impl<C> KindContent for C
where
    C: Serialize + serde::de::DeserializeOwned + ToSchema,
    Stamped<C>: Into<ChangeData>,
{
    fn pulled(self, created_at: String, updated_at: String) -> ChangeData {
        Stamped {
            content: self,
            created_at,
            updated_at,
        }
        .into()
    }
}

/// Declares [`ChangeData`] from one list: each variant, its data and the `kind` it is sent
/// under, so the enum, `From` for each data, [`ChangeData::kind`] and [`ChangeData::read`]
/// cannot disagree. A new record kind is one line here.
macro_rules! change_data {
    ($(#[$meta:meta])* pub enum ChangeData { $($variant:ident($data:ty) = $kind:literal,)* }) => {
        $(#[$meta])*
        pub enum ChangeData {
            $($variant($data),)*
        }

        $(impl From<$data> for ChangeData {
            fn from(data: $data) -> Self {
                ChangeData::$variant(data)
            }
        })*

        impl ChangeData {
            /// The `kind` a change carrying this data has on the wire.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(ChangeData::$variant(_) => $kind,)*
                }
            }

            /// Reads a pulled `data` as the kind `kind` names ([`ChangeData::kind`] the other
            /// way).
            pub fn read(kind: &str, data: serde_json::Value) -> serde_json::Result<ChangeData> {
                use serde::de::Error;
                Ok(match kind {
                    $($kind => ChangeData::$variant(serde_json::from_value(data)?),)*
                    other => {
                        return Err(serde_json::Error::custom(format!("unknown kind `{other}`")));
                    }
                })
            }
        }
    };
}

change_data! {
    /// A pulled record's `data`. On the wire it is the kind's data alone (serialised untagged): the
    /// change's `kind` is the tag, and reading goes by it ([`ChangeData::read`], which
    /// `Change`'s reader uses), so kinds may share any fields.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
    #[serde(untagged)]
    pub enum ChangeData {
        Entry(EntryData) = "entry",
        StatementCheck(StatementCheckData) = "invoice",
        Profile(ProfileData) = "profile",
        Settings(SettingsData) = "settings",
        Courier(CourierData) = "courier",
        RateCard(RateCardData) = "rateCard",
        Deduction(DeductionData) = "deduction",
        Expense(ExpenseData) = "expense",
        Vehicle(VehicleData) = "vehicle",
        Mileage(MileageData) = "mileage",
        StatementLine(StatementLineData) = "statementLine",
        StatementFormat(StatementFormatData) = "statementFormat",
        SentUpdate(SentUpdateData) = "sentUpdate",
        FuelFill(FuelFillData) = "fuelFill",
        StatementQuery(StatementQueryData) = "statementQuery",
        Evidence(EvidenceData) = "evidence",
    }
}

/// One changed record. `data` is absent on tombstones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// A record kind (the contract's `kinds`: `entry`, `invoice`, `courier`, …), `profile`
    /// or `settings`.
    pub kind: String,
    pub id: String,
    /// The user's change sequence number at this write; pull cursors are these.
    pub version: i64,
    pub deleted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<ChangeData>,
}

/// `kind` is the tag of `data`: a change is read as it was written, whatever fields kinds share.
impl<'de> Deserialize<'de> for Change {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire {
            kind: String,
            id: String,
            version: i64,
            deleted: bool,
            #[serde(default)]
            data: Option<serde_json::Value>,
        }
        let wire = Wire::deserialize(deserializer)?;
        let data = wire
            .data
            .map(|data| ChangeData::read(&wire.kind, data))
            .transpose()
            .map_err(serde::de::Error::custom)?;
        Ok(Change {
            kind: wire.kind,
            id: wire.id,
            version: wire.version,
            deleted: wire.deleted,
            data,
        })
    }
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

    /// Through a whole change, as a pull sends and a reader reads it.
    fn round_trip(data: ChangeData) -> ChangeData {
        let change = Change {
            kind: data.kind().into(),
            id: "0190a6e2-7c1d-7000-8000-000000000001".into(),
            version: 1,
            deleted: false,
            data: Some(data),
        };
        let read: Change = serde_json::from_str(&serde_json::to_string(&change).unwrap()).unwrap();
        assert_eq!(read.kind, change.kind);
        read.data.unwrap()
    }

    #[test]
    fn change_data_reads_back_as_the_kind_its_change_names() {
        let entry = ChangeData::Entry(Stamped {
            content: EntryContent {
                date: "2025-03-21".into(),
                stops: 120,
                extra: 500,
                notes: "".into(),
                total: 24_000,
                courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
                rate_card_id: None,
                parcels: Some(150),
                collections: None,
                failed: Some(0),
                start_time: Some("07:30".into()),
                finish_time: Some("16:00".into()),
                separate_shift: true,
                bands: Some(crate::size_bands::BandCounts {
                    packet: 100,
                    small: 40,
                    medium: 0,
                    large: 10,
                    extra_large: 0,
                }),
            },
            created_at: "2025-03-21T18:00:00Z".into(),
            updated_at: "2025-03-21T18:00:00Z".into(),
        });
        let invoice = ChangeData::StatementCheck(Stamped {
            content: StatementCheckContent {
                period_start: "2025-03-17".into(),
                period_end: "2025-03-23".into(),
                paid: 123_456,
                stops: None,
                reference: "".into(),
                courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
                parcels: None,
                collections: Some(3),
                deductions: Some(19_500),
                status: crate::statement_check::CheckStatus::Disputed,
                note: "".into(),
            },
            created_at: "2025-03-24T09:00:00Z".into(),
            updated_at: "2025-03-24T09:00:00Z".into(),
        });
        let profile = ChangeData::Profile(ProfileData {
            display_name: "Sam".into(),
            email: None,
            bio: "".into(),
            photo_url: None,
            role: crate::Role::Free,
            is_anonymous: true,
            payment_config: PaymentConfig {
                tiers: crate::PayTiers::default().tiers().to_vec(),
            },
            created_at: "2025-03-24T09:00:00Z".into(),
            updated_at: "2025-03-24T09:00:00Z".into(),
        });
        let courier = ChangeData::Courier(Stamped {
            content: CourierContent {
                name: "DPD".into(),
                colour: "#dc0032".into(),
                period_kind: crate::courier::PeriodKind::FourFourFive,
                period_anchor: "2025-01-05".into(),
                arrears_weeks: 2,
            },
            created_at: "2025-03-24T09:00:00Z".into(),
            updated_at: "2025-03-24T09:00:00Z".into(),
        });
        let bare_card = Stamped {
            content: RateCardContent {
                courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
                valid_from: "2025-09-01".into(),
                label: "".into(),
                per_stop: None,
                per_parcel: None,
                parcel_cap_per_stop: None,
                per_collection: None,
                per_failed: None,
                day_rate: Some(12_000),
                hourly: None,
                peaks: Vec::new(),
                band_rates: None,
            },
            created_at: "2025-03-24T09:00:00Z".into(),
            updated_at: "2025-03-24T09:00:00Z".into(),
        };
        let full_card = Stamped {
            content: RateCardContent {
                per_stop: Some(crate::PayTiers::default().tiers().to_vec()),
                per_parcel: Some(40),
                parcel_cap_per_stop: Some(3),
                per_collection: Some(50),
                per_failed: Some(0),
                hourly: Some(1_250),
                peaks: vec![crate::rate_card::Peak {
                    from: "2025-12-01".into(),
                    to: "2025-12-24".into(),
                    extra_per_stop: Some(20),
                    multiplier_percent: None,
                }],
                band_rates: Some(crate::size_bands::BandRates {
                    packet: Some(35),
                    small: None,
                    medium: Some(75),
                    large: Some(120),
                    extra_large: None,
                }),
                ..bare_card.clone().content
            },
            ..bare_card.clone()
        };
        let deduction = |to: Option<&str>, vehicle: Option<&str>| {
            ChangeData::Deduction(Stamped {
                content: DeductionContent {
                    courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
                    label: "Van hire".into(),
                    amount: 19_500,
                    repeat: crate::deduction::Repeat::Weekly,
                    from: "2025-03-03".into(),
                    to: to.map(Into::into),
                    purpose: vehicle.map(|_| crate::expense::ExpenseCategory::VehicleHire),
                    vehicle_id: vehicle.map(Into::into),
                },
                created_at: "2025-03-24T09:00:00Z".into(),
                updated_at: "2025-03-24T09:00:00Z".into(),
            })
        };
        let settings = ChangeData::Settings(SettingsData {
            theme: crate::profile::Theme::Light,
            tax_region: crate::profile::TaxRegion::Scotland,
            quarters: crate::profile::MtdQuarters::Calendar,
            query_reminder_days: 30,
            updated_at: "2025-03-24T09:00:00Z".into(),
        });
        let expense = |courier: Option<&str>, vehicle: Option<&str>, receipts: &[&str]| {
            ChangeData::Expense(Stamped {
                content: ExpenseContent {
                    date: "2025-04-06".into(),
                    amount: 4_599,
                    category: crate::expense::ExpenseCategory::Fuel,
                    note: "".into(),
                    courier_id: courier.map(Into::into),
                    vehicle_id: vehicle.map(Into::into),
                    repeat: crate::deduction::Repeat::Once,
                    repeat_until: None,
                    receipts: receipts.iter().map(|r| (*r).to_owned()).collect(),
                },
                created_at: "2025-04-06T09:00:00Z".into(),
                updated_at: "2025-04-06T09:00:00Z".into(),
            })
        };
        let vehicle = ChangeData::Vehicle(Stamped {
            content: VehicleContent {
                name: "Transit".into(),
                vehicle_type: crate::vehicle::VehicleType::CarVan,
                method: crate::vehicle::VehicleMethod::FlatRate,
                commute_miles: 6,
            },
            created_at: "2025-04-06T09:00:00Z".into(),
            updated_at: "2025-04-06T09:00:00Z".into(),
        });
        let mileage = |odometer: Option<(u32, u32)>, courier: Option<&str>| {
            ChangeData::Mileage(Stamped {
                content: MileageContent {
                    date: "2025-04-06".into(),
                    vehicle_id: "0190a6e2-7c1d-7000-8000-0000000000f1".into(),
                    courier_id: courier.map(Into::into),
                    odometer_start: odometer.map(|o| o.0),
                    odometer_end: odometer.map(|o| o.1),
                    business_miles: 100,
                    commute_miles: 10,
                    note: "".into(),
                },
                created_at: "2025-04-06T09:00:00Z".into(),
                updated_at: "2025-04-06T09:00:00Z".into(),
            })
        };
        let courier_id = "0190a6e2-7c1d-7000-8000-0000000000c1";
        let statement_line = ChangeData::StatementLine(Stamped {
            content: StatementLineContent {
                invoice_id: "0190a6e2-7c1d-7000-8000-000000000201".into(),
                courier_id: courier_id.into(),
                line_key: "csv:0a1b:0".into(),
                date: "2025-04-06".into(),
                line_type: crate::statement_line::LineType::Deduction,
                band: None,
                quantity: 1,
                rate: None,
                amount: -2_500,
                reference: "".into(),
            },
            created_at: "2025-04-06T09:00:00Z".into(),
            updated_at: "2025-04-06T09:00:00Z".into(),
        });
        let statement_format = ChangeData::StatementFormat(Stamped {
            content: StatementFormatContent {
                courier_id: courier_id.into(),
                source: crate::statement_format::FormatSource::Csv,
                date_column: "Date".into(),
                date_order: crate::statement_format::DateOrder::DayMonthYear,
                amount_column: "Amount".into(),
                type_column: None,
                band_column: None,
                quantity_column: None,
                rate_column: None,
                reference_column: None,
                default_type: crate::statement_line::LineType::Stop,
                deductions_positive: false,
                type_words: Vec::new(),
            },
            created_at: "2025-04-06T09:00:00Z".into(),
            updated_at: "2025-04-06T09:00:00Z".into(),
        });
        for data in [
            entry,
            invoice,
            profile,
            settings,
            courier,
            ChangeData::RateCard(bare_card),
            ChangeData::RateCard(full_card),
            deduction(None, None),
            deduction(
                Some("2025-12-31"),
                Some("0190a6e2-7c1d-7000-8000-0000000000f1"),
            ),
            expense(None, None, &[]),
            expense(
                Some(courier_id),
                Some("0190a6e2-7c1d-7000-8000-0000000000f1"),
                &["0190a6e2-7c1d-7000-8000-0000000000a1"],
            ),
            vehicle,
            mileage(None, None),
            mileage(Some((42_000, 42_130)), Some(courier_id)),
            statement_line,
            statement_format,
            ChangeData::SentUpdate(Stamped {
                content: SentUpdateContent {
                    tax_year: "2026-27".into(),
                    quarter: 1,
                    quarters: crate::profile::MtdQuarters::Standard,
                    period_start: "2026-04-06".into(),
                    period_end: "2026-07-05".into(),
                    shape: crate::sent_update::ExpensesShape::Itemised,
                    file: "{}".into(),
                    sha256: "0".repeat(64),
                    sent_on: "2026-08-01".into(),
                    product: "Bridger".into(),
                    reference: "".into(),
                    supersedes: None,
                },
                created_at: "2026-08-01T09:00:00Z".into(),
                updated_at: "2026-08-01T09:00:00Z".into(),
            }),
            ChangeData::FuelFill(Stamped {
                content: FuelFillContent {
                    date: "2026-08-01".into(),
                    vehicle_id: "0190a6e2-7c1d-7000-8000-0000000000f1".into(),
                    unit: crate::fuel_fill::FuelUnit::KWh,
                    quantity: 41_500,
                    cost: 1_245,
                    odometer: None,
                    full: true,
                    note: "".into(),
                },
                created_at: "2026-08-01T09:00:00Z".into(),
                updated_at: "2026-08-01T09:00:00Z".into(),
            }),
            ChangeData::Evidence(Stamped {
                content: EvidenceContent {
                    entry_id: None,
                    statement_line_id: Some("0190a6e2-7c1d-7000-8000-000000000301".into()),
                    statement_query_id: None,
                    evidence_type: crate::evidence::EvidenceType::Waiting,
                    recorded_at: "2026-08-01T06:40:12.345Z".into(),
                    text: "".into(),
                    photo_id: None,
                    purpose: None,
                    minutes: Some(55),
                    place: "Depot".into(),
                    from_whom: "".into(),
                },
                created_at: "2026-08-01T09:00:00Z".into(),
                updated_at: "2026-08-01T09:00:00Z".into(),
            }),
        ] {
            assert_eq!(round_trip(data.clone()), data);
        }
    }

    /// The kind decides: an entry's data sent under another kind is refused, not misread as an
    /// entry, and a kind nobody knows is named in the error.
    #[test]
    fn a_change_is_read_by_its_kind_never_by_its_fields() {
        let entry = serde_json::to_value(round_trip(ChangeData::Settings(SettingsData {
            theme: crate::profile::Theme::Light,
            tax_region: crate::profile::TaxRegion::Uk,
            quarters: crate::profile::MtdQuarters::Standard,
            query_reminder_days: 14,
            updated_at: "2025-03-21T10:00:00Z".into(),
        })))
        .unwrap();
        let change = |kind: &str| serde_json::json!({"kind": kind, "id": "x", "version": 2, "deleted": false, "data": entry});
        assert!(serde_json::from_value::<Change>(change("settings")).is_ok());
        assert!(serde_json::from_value::<Change>(change("profile")).is_err());
        let unknown = serde_json::from_value::<Change>(change("toll")).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown kind `toll`"),
            "{unknown}"
        );
        let tombstone: Change = serde_json::from_value(
            serde_json::json!({"kind": "entry", "id": "x", "version": 3, "deleted": true}),
        )
        .unwrap();
        assert_eq!((tombstone.deleted, tombstone.data), (true, None));
    }
}
