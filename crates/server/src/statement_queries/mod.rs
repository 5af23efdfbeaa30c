//! A query to a courier about a statement (`kind: "statementQuery"`, issue 28): the differences
//! a statement check named, frozen with their total and a hash chain the day "Query this" made
//! it, then tracked (sent, answered, paid back, closed). Its rules are
//! `domain::statement_query`; here the server also checks the chain is SHA-256 over the items
//! as sent, and keeps the frozen part as first stored: an update (the tracking) takes the
//! stored items, chain, total, day and statement check, whatever it carries, so what was
//! recorded when the query was made is what every device reads. It points at the statement
//! check queried and at the later one that carries the money paid back.

use domain::{
    entry::{FieldProblems, format_date},
    statement_query::{StatementQuery, StatementQueryInput, first_broken_link},
    sync::StatementQueryContent,
};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::{
    records::{RecordKind, Reference, Words},
    statement_checks::StatementChecks,
};

pub struct StatementQueries;

/// What "Query this" recorded: never changed by a later put of the same query.
const FROZEN: &[&str] = &[
    "statementCheckId",
    "madeOn",
    "itemsVersion",
    "items",
    "total",
];

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

impl RecordKind for StatementQueries {
    const NAME: &'static str = "statementQuery";
    const WORDS: Words = Words::new("statement query", "statement queries");
    type Input = StatementQueryInput;
    type Record = StatementQuery;
    type Content = StatementQueryContent;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<StatementChecks>("statementCheckId"),
        Reference::to::<StatementChecks>("paidBackCheckId"),
    ];

    fn validate(
        input: &StatementQueryInput,
        _user_id: Uuid,
    ) -> Result<StatementQuery, FieldProblems> {
        let query = input.validate()?;
        // The chain is the driver's proof of what was queried: it must be the items' own.
        if let Some(index) = first_broken_link(&query.items, sha256_hex) {
            return Err(vec![(
                "items",
                format!(
                    "Item {}: its hash is not the chain's: the item changed after it was hashed",
                    index + 1
                ),
            )]);
        }
        Ok(query)
    }

    /// Not only an older app's missing fields: the frozen part is always the stored one (an
    /// update is tracking), so a put cannot rewrite what the chain recorded.
    fn kept_when_absent(_input: &StatementQueryInput) -> &'static [&'static str] {
        FROZEN
    }

    fn bounds() -> serde_json::Value {
        use domain::statement_query as rules;
        serde_json::json!({
            "itemsVersion": rules::ITEMS_VERSION,
            "maxItems": rules::MAX_ITEMS,
            "maxKindChars": rules::MAX_KIND_CHARS,
            "maxWordsChars": rules::MAX_WORDS_CHARS,
            "maxFigureChars": rules::MAX_FIGURE_CHARS,
            "maxCardRatePence": rules::MAX_CARD_RATE_PENCE,
            "maxAmountPence": rules::MAX_AMOUNT_PENCE,
            "maxNoteChars": rules::MAX_NOTE_CHARS,
        })
    }

    fn id(query: &StatementQuery) -> Uuid {
        query.id
    }

    fn content(q: &StatementQuery) -> StatementQueryContent {
        StatementQueryContent {
            statement_check_id: q.statement_check_id.to_string(),
            made_on: format_date(q.made_on),
            items_version: q.items_version,
            items: q.items.clone(),
            total: q.total,
            sent_on: q.sent_on.map(format_date),
            answered_on: q.answered_on.map(format_date),
            paid_back_amount: q.paid_back_amount,
            paid_back_on: q.paid_back_on.map(format_date),
            paid_back_check_id: q.paid_back_check_id.map(|id| id.to_string()),
            closed_on: q.closed_on.map(format_date),
            note: q.note.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use domain::statement_query::QueryItem;

    use super::*;

    /// The device's chain (web/src/core/statement-queries/chain.test.ts) gives the same hash for
    /// the same item: one vector, checked on both sides.
    #[test]
    fn the_chain_is_sha256_over_the_previous_hash_and_the_canonical_item() {
        let item = QueryItem {
            date: Some("2026-03-02".into()),
            kind: "fewerStops".into(),
            words: "3 stops logged but not paid".into(),
            logged: "121 stops".into(),
            paid: "118 stops".into(),
            card_rate: Some(150),
            amount: 450,
            hash: String::new(),
        };
        let hash = sha256_hex(
            format!(
                "{}{}",
                domain::statement_query::CHAIN_START,
                domain::statement_query::canonical_item(&item)
            )
            .as_bytes(),
        );
        assert_eq!(hash, CROSS_CHECK_VECTOR);
        let items = vec![QueryItem { hash, ..item }];
        assert_eq!(first_broken_link(&items, sha256_hex), None);
    }

    const CROSS_CHECK_VECTOR: &str =
        "4d1e19a97fbac8782f38d20c29818c06118af28ab6cc45f73d33b5775ca6313b";
}
