//! Turns pushed mutations into store actions. Parsing and validation need no database, so
//! they happen here, before the transaction; a refused mutation is still recorded by the
//! store so a replay gets the same answer.

use domain::{
    profile::{ProfileUpdateInput, SettingsInput},
    sync::Mutation,
};
use serde::Deserialize;
use uuid::Uuid;

use crate::{
    records::{self, Kind},
    store::{MutationAction, PreparedMutation},
};

pub const MAX_MUTATION_ID_CHARS: usize = 64;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteArgs {
    id: String,
}

/// `<kind>.put` and `<kind>.delete` for every record kind, and the two singletons (profile
/// and settings are columns of the user, not records).
pub fn prepare(mutation: Mutation) -> PreparedMutation {
    let action = match mutation.name.as_str() {
        "profile.update" => update_profile(mutation.args),
        "settings.put" => put_settings(mutation.args),
        name => match name
            .split_once('.')
            .and_then(|(kind, op)| Some((records::find(kind)?, op)))
        {
            Some((kind, "put")) => put(kind, mutation.args),
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

fn put(kind: &Kind, args: serde_json::Value) -> MutationAction {
    match kind.parse_put(args) {
        Ok(record) => MutationAction::Put {
            kind: kind.name,
            record,
        },
        Err(message) => reject("validation", message),
    }
}

fn delete(kind: &Kind, args: serde_json::Value) -> MutationAction {
    let id = serde_json::from_value::<DeleteArgs>(args)
        .ok()
        .and_then(|a| Uuid::parse_str(&a.id).ok());
    match id {
        Some(id) => MutationAction::Delete {
            kind: kind.name,
            id,
        },
        None => reject(
            "validation",
            format!("{0}.delete needs {{\"id\": <{0} UUID>}}", kind.name),
        ),
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
        Ok(settings) => MutationAction::PutSettings(settings.theme),
        Err(err) => reject("validation", format!("Invalid settings: {err}")),
    }
}

fn reject(code: &'static str, message: impl Into<String>) -> MutationAction {
    MutationAction::Reject {
        code,
        message: message.into(),
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
    }

    #[test]
    fn a_valid_invoice_put_and_delete_become_invoice_actions() {
        let id = "0190a6e2-7c1d-7000-8000-0000000000a1";
        let put = prepare(mutation(
            "invoice.put",
            json!({"id": id, "periodStart": "2025-03-17", "periodEnd": "2025-03-23", "paid": 100, "reference": " INV-1 "}),
        ));
        let content = put_content(put.action, "invoice");
        assert!(content["reference"] == "INV-1" && content["stops"].is_null());
        let delete = prepare(mutation("invoice.delete", json!({"id": id})));
        assert!(
            matches!(delete.action, MutationAction::Delete { kind: "invoice", id: d } if d.to_string() == id)
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
