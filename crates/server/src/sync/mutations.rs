//! Turns pushed mutations into store actions. Parsing and validation need no database, so
//! they happen here, before the transaction; a refused mutation is still recorded by the
//! store so a replay gets the same answer.

use domain::{
    fields::FieldErrors,
    profile::{ProfileUpdateInput, SettingsInput},
    sync::Mutation,
};
use serde::Deserialize;
use uuid::Uuid;

use crate::{
    records::Kind,
    registry,
    store::{MutationAction, PreparedMutation},
};

pub const MAX_MUTATION_ID_CHARS: usize = 64;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteArgs {
    id: String,
}

/// `<kind>.put` and `<kind>.delete` for every record kind, and the two singletons (profile
/// and settings are columns of the user, not records). `user_id` is the pushing user's: an
/// old app's day or statement check belongs to their default courier, which has their id.
pub fn prepare(mutation: Mutation, user_id: Uuid) -> PreparedMutation {
    let action = match mutation.name.as_str() {
        "profile.update" => update_profile(mutation.args),
        "settings.put" => put_settings(mutation.args),
        name => match name
            .split_once('.')
            .and_then(|(kind, op)| Some((registry::find(kind)?, op)))
        {
            Some((kind, "put")) => put(kind, mutation.args, user_id),
            Some((kind, "delete")) => delete(kind, mutation.args),
            _ => reject(
                "unknown-mutation",
                format!("Unknown mutation '{}'", truncate(name)),
            ),
        },
    };
    PreparedMutation {
        id: mutation.id,
        action,
    }
}

fn put(kind: &Kind, args: serde_json::Value, user_id: Uuid) -> MutationAction {
    match kind.parse_put(args, user_id) {
        Ok(record) => MutationAction::Put {
            kind: kind.name,
            record,
        },
        Err(refusal) => MutationAction::Reject {
            code: "validation",
            message: refusal.message,
            fields: refusal.fields,
        },
    }
}

fn delete(kind: &Kind, args: serde_json::Value) -> MutationAction {
    let id = serde_json::from_value::<DeleteArgs>(args)
        .ok()
        .and_then(|a| domain::fields::parse_id(&a.id));
    match id {
        Some(id) => MutationAction::Delete {
            kind: kind.name,
            id,
            write_once: kind.write_once,
        },
        None => {
            let message = format!("{0}.delete needs {{\"id\": <{0} UUID>}}", kind.name);
            MutationAction::Reject {
                code: "validation",
                fields: Some(FieldErrors::from([(
                    "id".to_owned(),
                    vec![message.clone()],
                )])),
                message,
            }
        }
    }
}

fn update_profile(args: serde_json::Value) -> MutationAction {
    match serde_json::from_value::<ProfileUpdateInput>(args) {
        Ok(input) => match input.validate() {
            Ok(update) => MutationAction::UpdateProfile(update),
            Err(message) => reject("validation", message),
        },
        Err(err) => reject("validation", format!("Invalid profile update: {err}")),
    }
}

fn put_settings(args: serde_json::Value) -> MutationAction {
    match serde_json::from_value::<SettingsInput>(args) {
        Ok(input) => match input.validate() {
            Ok(update) => MutationAction::PutSettings(update),
            Err(message) => reject("validation", message),
        },
        Err(err) => reject("validation", format!("Invalid settings: {err}")),
    }
}

fn reject(code: &'static str, message: impl Into<String>) -> MutationAction {
    MutationAction::Reject {
        code,
        message: message.into(),
        fields: None,
    }
}

fn truncate(name: &str) -> String {
    name.chars().take(40).collect()
}

/// A mutation id must be a sane key: it is stored and compared on every replay.
pub fn valid_mutation_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().count() <= MAX_MUTATION_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const USER: Uuid = Uuid::from_u128(0x0190a6e2_7c1d_7000_8000_00000000f001);

    fn prepare(mutation: Mutation) -> PreparedMutation {
        super::prepare(mutation, USER)
    }

    fn mutation(name: &str, args: serde_json::Value) -> Mutation {
        Mutation {
            id: "m1".into(),
            name: name.into(),
            args,
        }
    }

    /// The stored content of a put of `kind`.
    fn put_content(action: MutationAction, kind: &str) -> serde_json::Value {
        match action {
            MutationAction::Put { kind: got, record } if got == kind => {
                serde_json::from_str(&record.content).unwrap()
            }
            other => panic!("expected a {kind} put, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_put_becomes_an_entry() {
        let prepared = prepare(mutation(
            "entry.put",
            json!({"id": "0190a6e2-7c1d-7000-8000-000000000001", "date": "2025-03-21", "stops": 10, "extra": 0, "notes": "", "total": 1980}),
        ));
        let content = put_content(prepared.action, "entry");
        assert_eq!(content["stops"], 10);
        // An old app's day: the user's default courier and card, every new field null.
        assert_eq!(content["courierId"], USER.to_string());
        assert_eq!(content["rateCardId"], USER.to_string());
        for field in [
            "parcels",
            "collections",
            "failed",
            "startTime",
            "finishTime",
        ] {
            assert!(content[field].is_null(), "{field}");
        }
    }

    #[test]
    fn a_put_carries_what_its_record_points_at() {
        let courier = "0190a6e2-7c1d-7000-8000-0000000000c1";
        let card = "0190a6e2-7c1d-7000-8000-0000000000d1";
        let references = |name: &str, args| match prepare(mutation(name, args)).action {
            MutationAction::Put { record, .. } => record
                .references
                .iter()
                .map(|(kind, id)| (*kind, id.to_string()))
                .collect::<Vec<_>>(),
            other => panic!("{name}: expected a put, got {other:?}"),
        };
        let day = json!({"id": "0190a6e2-7c1d-7000-8000-000000000001", "date": "2025-03-21", "stops": 1, "total": 198, "courierId": courier, "rateCardId": card});
        assert_eq!(
            references("entry.put", day),
            [
                ("courier", courier.to_owned()),
                ("rateCard", card.to_owned())
            ]
        );
        let no_card = json!({"id": "0190a6e2-7c1d-7000-8000-000000000001", "date": "2025-03-21", "stops": 0, "total": 0, "courierId": courier, "rateCardId": null});
        assert_eq!(
            references("entry.put", no_card),
            [("courier", courier.to_owned())]
        );
        let card_put =
            json!({"id": card, "courierId": courier, "validFrom": "2025-09-01", "dayRate": 12000});
        assert_eq!(
            references("rateCard.put", card_put),
            [("courier", courier.to_owned())]
        );
        let deduction = json!({"id": card, "courierId": courier, "label": "Van", "amount": 100, "repeat": "once", "from": "2025-09-01"});
        assert_eq!(
            references("deduction.put", deduction),
            [("courier", courier.to_owned())]
        );
        let check = json!({"id": card, "periodStart": "2025-03-17", "periodEnd": "2025-03-23", "paid": 100});
        assert_eq!(
            references("invoice.put", check),
            [("courier", USER.to_string())]
        );
        let courier_put = json!({"id": courier, "name": "DPD", "colour": "#000000", "periodKind": "weekly", "periodAnchor": "2025-01-05", "arrearsWeeks": 0});
        assert!(references("courier.put", courier_put).is_empty());
    }

    #[test]
    fn a_valid_statement_check_put_and_delete_become_invoice_actions() {
        let id = "0190a6e2-7c1d-7000-8000-0000000000a1";
        let put = prepare(mutation(
            "invoice.put",
            json!({"id": id, "periodStart": "2025-03-17", "periodEnd": "2025-03-23", "paid": 100, "reference": " INV-1 "}),
        ));
        let content = put_content(put.action, "invoice");
        assert!(content["reference"] == "INV-1" && content["stops"].is_null());
        let delete = prepare(mutation("invoice.delete", json!({"id": id})));
        assert!(
            matches!(delete.action, MutationAction::Delete { kind: "invoice", id: d, .. } if d.to_string() == id)
        );
    }

    #[test]
    fn bad_mutations_are_rejected_with_a_reason() {
        for (name, args, code) in [
            ("entry.put", json!({"id": "x"}), "validation"),
            (
                "entry.put",
                json!({"id": "0190a6e2-7c1d-7000-8000-000000000001", "date": "2025-03-21", "stops": 5000, "total": 0}),
                "validation",
            ),
            ("entry.delete", json!({"id": 7}), "validation"),
            ("invoice.put", json!({"id": "x"}), "validation"),
            (
                "invoice.put",
                json!({"id": "0190a6e2-7c1d-7000-8000-0000000000a1", "periodStart": "2025-03-23", "periodEnd": "2025-03-17", "paid": 1}),
                "validation",
            ),
            ("invoice.delete", json!({"id": "not-a-uuid"}), "validation"),
            ("courier.put", json!({"id": "x"}), "validation"),
            ("rateCard.put", json!({"id": "x"}), "validation"),
            ("deduction.put", json!({"id": "x"}), "validation"),
            ("deduction.delete", json!({"id": "x"}), "validation"),
            ("rate_card.put", json!({}), "unknown-mutation"),
            (
                "invoice.delete",
                json!({"id": "0190a6e2-7c1d-7000-8000-0000000000a1", "extra": 1}),
                "validation",
            ),
            ("entry.explode", json!({}), "unknown-mutation"),
            ("profile.update", json!({"displayName": ""}), "validation"),
            (
                "profile.update",
                json!({"email": "x@example.com"}),
                "validation",
            ),
            ("settings.put", json!({"theme": "neon"}), "validation"),
        ] {
            match prepare(mutation(name, args)).action {
                MutationAction::Reject { code: got, .. } => assert_eq!(got, code, "{name}"),
                other => panic!("{name}: expected a rejection, got {other:?}"),
            }
        }
    }

    #[test]
    fn mutation_ids_are_bounded_keys() {
        assert!(valid_mutation_id("0190a6e2-7c1d-7000-8000-000000000001"));
        assert!(!valid_mutation_id(""));
        assert!(!valid_mutation_id(&"a".repeat(65)));
        assert!(!valid_mutation_id("a b"));
    }
}
