//! A query to a courier about a statement (`kind: "statementQuery"`, issue 28): "Query this" on a
//! statement check freezes each difference the device named (date, kind, words, what was logged,
//! what was paid, the card's rate, the amount in pence) with their total and a hash chain over
//! them, dated the day it was made. The items never change after that (an update keeps the
//! stored ones, see `server::statement_queries`); what changes is the tracking: sent on,
//! answered on, paid back (amount, day, the later statement check that carries it), closed on
//! and a note.
//!
//! The chain: each item's `hash` is the SHA-256 (lowercase hex) of the previous item's hash (64
//! zeros before the first) followed by the item's canonical JSON ([`canonical_item`]), so a later
//! change to any item, or to the order, is visible from that item on. `itemsVersion` names this
//! item layout, so a later version can chain more (evidence items) without reading old queries
//! differently.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

/// The item layout and chain rule above, as new queries are made: version 2 (issue 28's
/// evidence) may also chain evidence items ([`EVIDENCE_ITEM_KIND`]); version 1 lists
/// differences only and is still accepted, so queries made before keep verifying.
pub const ITEMS_VERSION: i64 = 2;
/// The first item layout: differences only.
pub const FIRST_ITEMS_VERSION: i64 = 1;
/// The `kind` of an item that records an evidence item as it was when the query was made:
/// `logged` is the evidence item's id, `paid` the SHA-256 of its canonical JSON (the device's
/// `core/evidence`), `words` what it is, no card rate and no amount. A later change to the
/// evidence item no longer matches `paid`; the item itself, in the chain, cannot change.
pub const EVIDENCE_ITEM_KIND: &str = "evidence";
/// A statement check names a difference per day and reason; a busy four weeks is well under this.
pub const MAX_ITEMS: usize = 200;
pub const MAX_KIND_CHARS: usize = 40;
pub const MAX_WORDS_CHARS: usize = 300;
/// "What was logged" and "what was paid", in words ("121 stops").
pub const MAX_FIGURE_CHARS: usize = 100;
/// Per item, as a statement line's rate.
pub const MAX_CARD_RATE_PENCE: i64 = crate::statement_line::MAX_RATE_PENCE;
/// Either way, for an item and for the total: what a whole statement may say.
pub const MAX_AMOUNT_PENCE: i64 = crate::statement_check::MAX_PAID_PENCE;
pub const MAX_NOTE_CHARS: usize = 2_000;
/// The hash before the first item.
pub const CHAIN_START: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One frozen difference, as `statementQuery.put` carries it and as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryItem {
    /// The day it is about; null for the statement as a whole.
    pub date: Option<String>,
    /// The device's name for the reason (`fewerStops`, `lowerBand`…).
    pub kind: String,
    pub words: String,
    pub logged: String,
    pub paid: String,
    /// Pence; null when no card rate applies.
    pub card_rate: Option<i64>,
    /// Pence owed to the driver (below zero: paid more than logged).
    pub amount: i64,
    /// SHA-256 of the previous hash and this item's canonical JSON, lowercase hex.
    pub hash: String,
}

/// The bytes an item's hash covers after the previous hash: its fields but `hash`, in this
/// order, as compact JSON (serde_json and the device's JSON.stringify write the same text).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CanonicalItem<'a> {
    date: &'a Option<String>,
    kind: &'a str,
    words: &'a str,
    logged: &'a str,
    paid: &'a str,
    card_rate: Option<i64>,
    amount: i64,
}

/// The item's canonical JSON (what its hash covers, after the previous hash).
pub fn canonical_item(item: &QueryItem) -> String {
    serde_json::to_string(&CanonicalItem {
        date: &item.date,
        kind: &item.kind,
        words: &item.words,
        logged: &item.logged,
        paid: &item.paid,
        card_rate: item.card_rate,
        amount: item.amount,
    })
    .unwrap_or_default()
}

/// The index of the first item whose hash is not the chain's (`sha256_hex` of the previous hash
/// and its canonical JSON), or None when the whole chain holds.
pub fn first_broken_link(
    items: &[QueryItem],
    sha256_hex: impl Fn(&[u8]) -> String,
) -> Option<usize> {
    let mut previous = CHAIN_START.to_owned();
    for (index, item) in items.iter().enumerate() {
        let expected = sha256_hex(format!("{previous}{}", canonical_item(item)).as_bytes());
        if expected != item.hash {
            return Some(index);
        }
        previous = expected;
    }
    None
}

/// `statementQuery.put` args.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatementQueryInput {
    pub id: String,
    /// The statement check queried.
    pub statement_check_id: String,
    pub made_on: String,
    pub items_version: i64,
    pub items: Vec<QueryItem>,
    /// Pence: the items' amounts added up.
    pub total: i64,
    #[serde(default)]
    pub sent_on: Option<String>,
    #[serde(default)]
    pub answered_on: Option<String>,
    /// Pence paid back, with its day; both or neither.
    #[serde(default)]
    pub paid_back_amount: Option<i64>,
    #[serde(default)]
    pub paid_back_on: Option<String>,
    /// The later statement check that carries the money paid back, when the driver has it.
    #[serde(default)]
    pub paid_back_check_id: Option<String>,
    #[serde(default)]
    pub closed_on: Option<String>,
    #[serde(default)]
    pub note: String,
}

/// A validated query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementQuery {
    pub id: Uuid,
    pub statement_check_id: Uuid,
    pub made_on: Date,
    pub items_version: i64,
    pub items: Vec<QueryItem>,
    pub total: i64,
    pub sent_on: Option<Date>,
    pub answered_on: Option<Date>,
    pub paid_back_amount: Option<i64>,
    pub paid_back_on: Option<Date>,
    pub paid_back_check_id: Option<Uuid>,
    pub closed_on: Option<Date>,
    pub note: String,
}

fn is_kind_word(raw: &str) -> bool {
    (1..=MAX_KIND_CHARS).contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_alphabetic())
}

fn is_sha256_hex(raw: &str) -> bool {
    raw.len() == 64 && raw.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// An evidence item's own rules (version 2): it names the evidence item and the hash of what it
/// said, and carries no money.
fn check_evidence_item(item: &QueryItem, version: i64, own: &mut FieldProblems) {
    if version < ITEMS_VERSION {
        own.push((
            "items",
            format!("Evidence items need items version {ITEMS_VERSION}"),
        ));
    }
    if fields::canonical_uuid(&item.logged).is_none() {
        own.push((
            "items",
            "An evidence item's logged must be its evidence id".into(),
        ));
    }
    if !is_sha256_hex(&item.paid) {
        own.push((
            "items",
            "An evidence item's paid must be the SHA-256 of what it said".into(),
        ));
    }
    if item.card_rate.is_some() || item.amount != 0 {
        own.push((
            "items",
            "An evidence item has no card rate and no amount".into(),
        ));
    }
}

/// The items' own problems, each named by its position ("Item 3: …"), all under `items`.
fn check_items(items: &[QueryItem], version: i64, problems: &mut FieldProblems) {
    let differences = items
        .iter()
        .filter(|i| i.kind != EVIDENCE_ITEM_KIND)
        .count();
    if differences == 0 || items.len() > MAX_ITEMS {
        problems.push((
            "items",
            format!("A query lists 1 to {MAX_ITEMS} differences"),
        ));
        return;
    }
    for (index, item) in items.iter().enumerate() {
        let mut own = FieldProblems::new();
        if item.kind == EVIDENCE_ITEM_KIND {
            check_evidence_item(item, version, &mut own);
        }
        fields::optional_date(&item.date, "items", "Date", &mut own);
        if !is_kind_word(&item.kind) {
            own.push((
                "items",
                format!("Kind must be 1 to {MAX_KIND_CHARS} letters"),
            ));
        }
        fields::line(
            &item.words,
            "items",
            "Words",
            (1, MAX_WORDS_CHARS),
            &mut own,
        );
        fields::line(
            &item.logged,
            "items",
            "Logged",
            (0, MAX_FIGURE_CHARS),
            &mut own,
        );
        fields::line(&item.paid, "items", "Paid", (0, MAX_FIGURE_CHARS), &mut own);
        fields::optional_in::<i64>(
            item.card_rate,
            "items",
            || "Card rate must be between £0.00 and £1,000.00, or left empty".into(),
            (0, MAX_CARD_RATE_PENCE),
            &mut own,
        );
        if !(-MAX_AMOUNT_PENCE..=MAX_AMOUNT_PENCE).contains(&item.amount) {
            own.push((
                "items",
                "Amount must be between -£100,000.00 and £100,000.00".into(),
            ));
        }
        if !is_sha256_hex(&item.hash) {
            own.push(("items", "Hash must be 64 lowercase hex digits".into()));
        }
        for (field, message) in own {
            problems.push((field, format!("Item {}: {message}", index + 1)));
        }
    }
}

/// A day that, when given, must not be before `after` (named `after_words`).
fn not_before(
    day: Option<Option<Date>>,
    after: Option<Date>,
    field: &'static str,
    message: &str,
    problems: &mut FieldProblems,
) {
    if let (Some(Some(day)), Some(after)) = (day, after)
        && day < after
    {
        problems.push((field, message.to_owned()));
    }
}

impl StatementQueryInput {
    pub fn validate(&self) -> Result<StatementQuery, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Query id", &mut p);
        let statement_check_id = fields::uuid(
            &self.statement_check_id,
            "statementCheckId",
            "Statement check id",
            &mut p,
        );
        let made_on = fields::date(&self.made_on, "madeOn", "Made on", &mut p);
        if !(FIRST_ITEMS_VERSION..=ITEMS_VERSION).contains(&self.items_version) {
            p.push((
                "itemsVersion",
                format!("Items version must be {FIRST_ITEMS_VERSION} to {ITEMS_VERSION}"),
            ));
        }
        check_items(&self.items, self.items_version, &mut p);
        let items_total = self.items.iter().map(|i| i.amount).sum::<i64>();
        if !(-MAX_AMOUNT_PENCE..=MAX_AMOUNT_PENCE).contains(&self.total) {
            p.push((
                "total",
                "Total must be between -£100,000.00 and £100,000.00".into(),
            ));
        } else if self.total != items_total {
            p.push(("total", "Total must be the items' amounts added up".into()));
        }
        let sent_on = fields::optional_date(&self.sent_on, "sentOn", "Sent on", &mut p);
        let answered_on =
            fields::optional_date(&self.answered_on, "answeredOn", "Answered on", &mut p);
        let paid_back_amount = fields::optional_in::<i64>(
            self.paid_back_amount,
            "paidBackAmount",
            || "Paid back must be between £0.01 and £100,000.00, or left empty".into(),
            (1, MAX_AMOUNT_PENCE),
            &mut p,
        );
        let paid_back_on =
            fields::optional_date(&self.paid_back_on, "paidBackOn", "Paid back on", &mut p);
        if self.paid_back_amount.is_some() != self.paid_back_on.is_some() {
            p.push((
                "paidBackOn",
                "Paid back needs both its amount and its day".into(),
            ));
        }
        let paid_back_check_id = fields::optional_uuid(
            &self.paid_back_check_id,
            "paidBackCheckId",
            "Later statement check id",
            &mut p,
        );
        if self.paid_back_check_id.is_some() && self.paid_back_amount.is_none() {
            p.push((
                "paidBackCheckId",
                "A later statement carries money only once it is paid back".into(),
            ));
        }
        if paid_back_check_id.flatten().is_some()
            && paid_back_check_id.flatten() == statement_check_id
        {
            p.push((
                "paidBackCheckId",
                "Money paid back is carried by a later statement, not the one queried".into(),
            ));
        }
        let closed_on = fields::optional_date(&self.closed_on, "closedOn", "Closed on", &mut p);
        not_before(
            sent_on,
            made_on,
            "sentOn",
            "Sent on must not be before the query was made",
            &mut p,
        );
        not_before(
            answered_on,
            sent_on.flatten().or(made_on),
            "answeredOn",
            "Answered on must not be before the query was sent",
            &mut p,
        );
        not_before(
            paid_back_on,
            made_on,
            "paidBackOn",
            "Paid back on must not be before the query was made",
            &mut p,
        );
        not_before(
            closed_on,
            made_on,
            "closedOn",
            "Closed on must not be before the query was made",
            &mut p,
        );
        let note = fields::multi_line(&self.note, "note", "Note", MAX_NOTE_CHARS, &mut p);
        match (
            id,
            statement_check_id,
            made_on,
            sent_on,
            answered_on,
            paid_back_amount,
            paid_back_on,
            paid_back_check_id,
            closed_on,
            note,
        ) {
            (
                Some(id),
                Some(statement_check_id),
                Some(made_on),
                Some(sent_on),
                Some(answered_on),
                Some(paid_back_amount),
                Some(paid_back_on),
                Some(paid_back_check_id),
                Some(closed_on),
                Some(note),
            ) if p.is_empty() => Ok(StatementQuery {
                id,
                statement_check_id,
                made_on,
                items_version: self.items_version,
                items: self.items.clone(),
                total: self.total,
                sent_on,
                answered_on,
                paid_back_amount,
                paid_back_on,
                paid_back_check_id,
                closed_on,
                note,
            }),
            _ => Err(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Not SHA-256: enough to test the chain's shape here; the server's tests use the real one
    /// against the same vector as the device.
    fn fake_hash(bytes: &[u8]) -> String {
        let sum = bytes.iter().fold(0u64, |acc, b| {
            acc.wrapping_mul(31).wrapping_add(u64::from(*b))
        });
        format!("{sum:064x}")
    }

    fn item(amount: i64) -> QueryItem {
        QueryItem {
            date: Some("2026-03-02".into()),
            kind: "fewerStops".into(),
            words: "3 stops logged but not paid".into(),
            logged: "121 stops".into(),
            paid: "118 stops".into(),
            card_rate: Some(150),
            amount,
            hash: String::new(),
        }
    }

    fn chained(mut items: Vec<QueryItem>, hash: impl Fn(&[u8]) -> String) -> Vec<QueryItem> {
        let mut previous = CHAIN_START.to_owned();
        for item in &mut items {
            item.hash = hash(format!("{previous}{}", canonical_item(item)).as_bytes());
            previous = item.hash.clone();
        }
        items
    }

    fn input() -> StatementQueryInput {
        StatementQueryInput {
            id: "0190a6e2-7c1d-7000-8000-000000000701".into(),
            statement_check_id: "0190a6e2-7c1d-7000-8000-000000000201".into(),
            made_on: "2026-03-20".into(),
            items_version: 1,
            items: chained(vec![item(450), item(-100)], fake_hash),
            total: 350,
            sent_on: None,
            answered_on: None,
            paid_back_amount: None,
            paid_back_on: None,
            paid_back_check_id: None,
            closed_on: None,
            note: String::new(),
        }
    }

    fn fields(bad: &StatementQueryInput) -> Vec<&'static str> {
        bad.validate()
            .err()
            .map(|p| p.iter().map(|(f, _)| *f).collect())
            .unwrap_or_default()
    }

    #[test]
    fn canonical_json_is_the_fields_but_the_hash_in_order() {
        assert_eq!(
            canonical_item(&item(450)),
            r#"{"date":"2026-03-02","kind":"fewerStops","words":"3 stops logged but not paid","logged":"121 stops","paid":"118 stops","cardRate":150,"amount":450}"#
        );
        let whole = QueryItem {
            date: None,
            card_rate: None,
            words: "Lines say \"£1\"".into(),
            ..item(-5)
        };
        assert_eq!(
            canonical_item(&whole),
            r#"{"date":null,"kind":"fewerStops","words":"Lines say \"£1\"","logged":"121 stops","paid":"118 stops","cardRate":null,"amount":-5}"#
        );
    }

    #[test]
    fn the_chain_names_the_first_changed_item() {
        let items = chained(vec![item(1), item(2), item(3)], fake_hash);
        assert_eq!(first_broken_link(&items, fake_hash), None);
        let mut changed = items.clone();
        changed[1].amount = 20;
        assert_eq!(first_broken_link(&changed, fake_hash), Some(1));
        let mut swapped = items.clone();
        swapped.swap(0, 2);
        assert_eq!(first_broken_link(&swapped, fake_hash), Some(0));
    }

    fn evidence_item() -> QueryItem {
        QueryItem {
            date: Some("2026-03-02".into()),
            kind: EVIDENCE_ITEM_KIND.into(),
            words: "Photo (proof of delivery)".into(),
            logged: "0190a6e2-7c1d-7000-8000-000000000d01".into(),
            paid: "ab".repeat(32),
            card_rate: None,
            amount: 0,
            hash: String::new(),
        }
    }

    /// Version 2 chains evidence items after the differences; version 1 (queries made before
    /// evidence) still verifies but may not hold them; an evidence item carries no money and
    /// names its evidence and the hash of what it said; a query is never evidence alone.
    #[test]
    fn evidence_items_are_chained_from_version_2() {
        let with_evidence = |version: i64, evidence: QueryItem| StatementQueryInput {
            items_version: version,
            items: chained(vec![item(450), item(-100), evidence], fake_hash),
            ..input()
        };
        assert!(with_evidence(2, evidence_item()).validate().is_ok());
        assert!(input().validate().is_ok(), "a version 1 query");
        assert_eq!(fields(&with_evidence(1, evidence_item())), ["items"]);
        let bad = QueryItem {
            logged: "121 stops".into(),
            paid: "118 stops".into(),
            card_rate: Some(1),
            amount: 0,
            ..evidence_item()
        };
        let problems = with_evidence(2, bad).validate().unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems
                .iter()
                .all(|(f, m)| *f == "items" && m.starts_with("Item 3: "))
        );
        let alone = StatementQueryInput {
            items_version: 2,
            items: chained(vec![evidence_item()], fake_hash),
            total: 0,
            ..input()
        };
        assert_eq!(fields(&alone), ["items"]);
    }

    #[test]
    fn a_query_with_its_tracking_is_valid() {
        let query = StatementQueryInput {
            sent_on: Some("2026-03-21".into()),
            answered_on: Some("2026-03-30".into()),
            paid_back_amount: Some(350),
            paid_back_on: Some("2026-04-10".into()),
            paid_back_check_id: Some("0190a6e2-7c1d-7000-8000-000000000202".into()),
            closed_on: Some("2026-04-11".into()),
            note: "Agreed on the phone.\nPaid with the next statement.".into(),
            ..input()
        }
        .validate()
        .unwrap();
        assert_eq!(
            (query.total, query.items.len(), query.paid_back_amount),
            (350, 2, Some(350))
        );
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let mut items = input().items;
        items[0].kind = "fewer stops".into();
        items[1].hash = "X".repeat(64);
        let bad = StatementQueryInput {
            id: "1".into(),
            statement_check_id: String::new(),
            made_on: "2026-02-30".into(),
            items_version: 3,
            items,
            total: 1,
            sent_on: Some("21/03/2026".into()),
            paid_back_amount: Some(0),
            paid_back_check_id: Some("x".into()),
            note: "bell\u{7}".into(),
            ..input()
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "statementCheckId",
                "madeOn",
                "itemsVersion",
                "items",
                "items",
                "total",
                "sentOn",
                "paidBackAmount",
                "paidBackOn",
                "paidBackCheckId",
                "note"
            ]
        );
        let messages = bad.validate().unwrap_err();
        assert!(messages[4].1.starts_with("Item 1: Kind"), "{messages:?}");
        assert!(messages[5].1.starts_with("Item 2: Hash"), "{messages:?}");
    }

    #[test]
    fn bounds_and_order_of_days() {
        type Breaker = fn(&mut StatementQueryInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (
                |i| {
                    i.items.clear();
                    i.total = 0;
                },
                "items",
            ),
            (
                |i| {
                    i.items = vec![i.items[0].clone(); MAX_ITEMS + 1];
                    i.total = 450 * 201;
                },
                "items",
            ),
            (
                |i| i.items[0].words = "w".repeat(MAX_WORDS_CHARS + 1),
                "items",
            ),
            (|i| i.items[0].words = "  ".into(), "items"),
            (|i| i.items[0].logged = "a\nb".into(), "items"),
            (|i| i.items[0].card_rate = Some(-1), "items"),
            (|i| i.items[0].date = Some("2026-13-01".into()), "items"),
            (|i| i.total = MAX_AMOUNT_PENCE + 1, "total"),
            (|i| i.sent_on = Some("2026-03-19".into()), "sentOn"),
            (
                |i| {
                    i.sent_on = Some("2026-03-25".into());
                    i.answered_on = Some("2026-03-24".into());
                },
                "answeredOn",
            ),
            (|i| i.closed_on = Some("2026-03-01".into()), "closedOn"),
            (|i| i.paid_back_amount = Some(5), "paidBackOn"),
            (
                |i| {
                    i.paid_back_amount = Some(5);
                    i.paid_back_on = Some("2026-04-01".into());
                    i.paid_back_check_id = Some(i.statement_check_id.clone());
                },
                "paidBackCheckId",
            ),
            (|i| i.note = "n".repeat(MAX_NOTE_CHARS + 1), "note"),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            let mut found = fields(&bad);
            found.dedup();
            assert_eq!(found, vec![field], "{bad:?}");
        }
    }
}
