//! The push protocol for one mutation, as a pure plan. The store reads what the plan needs
//! (the answer recorded for the mutation id, who holds the record, the user's counters), the
//! plan decides, and the store carries the plan out. Both backends run this one rule.

use crate::{
    merge::{Decision, Existing, Op, decide},
    sync::MutationResult,
};

/// The error code of a mutation refused because its user holds the most records allowed.
pub const QUOTA_EXCEEDED: &str = "quota-exceeded";
/// The error code of a put whose record points at a record that does not exist (yet).
pub const MISSING_REFERENCE: &str = "missing-reference";
/// The error code of a put whose record points at a record that does not go with it (a day
/// priced with another courier's rate card).
pub const MISMATCHED_REFERENCE: &str = "mismatched-reference";

/// The answer for a mutation that targets another user's record.
pub fn not_owner(mutation_id: &str) -> MutationResult {
    MutationResult::rejected(
        mutation_id,
        "not-owner",
        "This record belongs to another account",
    )
}

/// Whether a mutation's answer is worth keeping for replays. A quota, missing-reference or
/// mismatched-reference refusal is not: it changed nothing, and the same mutation sent again
/// (the driver's Retry after making room, or once the referenced courier has arrived or the
/// card been moved) must be looked at afresh.
pub fn is_recorded(result: &MutationResult) -> bool {
    !matches!(
        result.code.as_deref(),
        Some(QUOTA_EXCEEDED | MISSING_REFERENCE | MISMATCHED_REFERENCE)
    )
}

/// One record a put's content points at (`kind`, as the store found it). `mismatch` says why
/// it does not go with the put, when the kind asks for a field of it (a day's card must be a
/// card of the day's courier) and the user's live record holds another value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference<'a> {
    pub kind: &'a str,
    pub state: Existing,
    pub mismatch: Option<&'a str>,
}

/// Whether a put may point where it does: never at another account's record (`not-owner`),
/// never at nothing (`missing-reference`); the user's own deleted record is fine, so a day
/// logged offline for a courier deleted on another device is never lost.
pub fn check_references(
    mutation_id: &str,
    references: &[Reference<'_>],
) -> Result<(), MutationResult> {
    if references.iter().any(|r| r.state == Existing::OtherOwner) {
        return Err(not_owner(mutation_id));
    }
    if let Some(missing) = references.iter().find(|r| r.state == Existing::Absent) {
        return Err(MutationResult::rejected(
            mutation_id,
            MISSING_REFERENCE,
            format!(
                "This record points at {} that does not exist (yet). Nothing was saved.",
                with_article(missing.kind)
            ),
        ));
    }
    match references.iter().find_map(|r| r.mismatch) {
        Some(why) => Err(MutationResult::rejected(
            mutation_id,
            MISMATCHED_REFERENCE,
            format!("{why} Nothing was saved."),
        )),
        None => Ok(()),
    }
}

/// "a vehicle", "an entry", "an evidence item": the kinds' words all start with a letter
/// whose sound its vowel-ness predicts (no "a unit"/"an hour" cases among them).
fn with_article(word: &str) -> String {
    let vowel = word.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// The records quota during one push: the record rows (tombstones included) the user holds,
/// and the most they may hold. Only a mutation that adds a row takes from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordBudget {
    pub held: i64,
    pub max: i64,
}

impl RecordBudget {
    /// Counts one new row, or answers the mutation with `quota-exceeded` when none is left.
    pub fn take(&mut self, mutation_id: &str) -> Result<(), MutationResult> {
        if self.held >= self.max {
            return Err(MutationResult::rejected(
                mutation_id,
                QUOTA_EXCEEDED,
                format!(
                    "This account holds the most records allowed ({}). Nothing was saved.",
                    self.max
                ),
            ));
        }
        self.held += 1;
        Ok(())
    }
}

/// The replay records quota during one push: the answers kept for replays
/// (`applied_mutations`) the user holds, and the most they may hold. Every mutation that is not
/// a replay keeps its answer, so with none left a mutation is refused before it changes
/// anything: a change the server could not recognise when it is resent is not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayBudget {
    pub held: i64,
    pub max: i64,
}

impl ReplayBudget {
    fn refusal(&self, mutation_id: &str) -> Option<MutationResult> {
        (self.held >= self.max).then(|| {
            MutationResult::rejected(
                mutation_id,
                QUOTA_EXCEEDED,
                format!(
                    "This account has sent more changes recently than this server keeps track \
                     of ({}). Nothing was saved: try again in a few days, as older ones are \
                     forgotten.",
                    self.max
                ),
            )
        })
    }
}

/// The user's counters as a push goes: the change sequence (every write takes the next
/// number, which becomes the written record's version), the records budget and the replay
/// records budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    pub seq: i64,
    pub budget: RecordBudget,
    pub replays: ReplayBudget,
}

/// What a parsed mutation asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent<'a> {
    /// A put or delete of one record of a synced kind.
    Record(Op),
    /// A write to one of the user's singleton records (profile, settings): always applies.
    /// It takes `versions` numbers of the change sequence, one per record it rewrites (a
    /// profile update with pay tiers also rewrites the user's first rate card).
    Singleton { versions: i64 },
    /// Refused before reaching the data (unknown or invalid).
    Refused {
        code: &'a str,
        message: &'a str,
        fields: Option<&'a crate::fields::FieldErrors>,
    },
}

/// The one write a mutation makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    None,
    /// A new record row with content.
    Insert,
    /// New content for the user's live record.
    Update,
    /// A contentless row claiming an id deleted before this server saw it, so a late put
    /// cannot bring it back.
    InsertTombstone,
    /// The user's live record becomes a contentless tombstone.
    Tombstone,
    /// The singleton record the mutation names (and the records it carries into, see
    /// `Intent::Singleton`), at the versions up to `counters.seq`.
    Singleton,
}

/// What to do with one mutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub answer: MutationResult,
    pub write: Write,
    /// Whether `answer` is stored under the mutation id, so a replay gets it back.
    pub record_answer: bool,
    /// The counters after this mutation; `counters.seq` is the version of what it writes.
    pub counters: Counters,
}

/// Plans one mutation. `recorded` is the answer already stored for its id (a replay changes
/// nothing and gets that answer again). Any other mutation is refused (`quota-exceeded`, not
/// kept) when the user holds the most replay records allowed, and otherwise counts one more
/// when its answer is kept. `existing` is who holds the targeted record and
/// `references` what a put's content points at; they are looked at only for a record put or
/// delete that is not a replay, so the store reads them only then. References matter only
/// to a put that writes (a put on a tombstone changes nothing, wherever it points).
pub fn plan(
    mutation_id: &str,
    recorded: Option<MutationResult>,
    intent: Intent<'_>,
    existing: Existing,
    references: &[Reference<'_>],
    counters: Counters,
) -> Plan {
    if recorded.is_none()
        && let Some(refused) = counters.replays.refusal(mutation_id)
    {
        return Plan {
            answer: refused,
            write: Write::None,
            record_answer: false,
            counters,
        };
    }
    counted(plan_within_quota(
        mutation_id,
        recorded,
        intent,
        existing,
        references,
        counters,
    ))
}

/// `plan` with the kept answer counted in the replay budget.
fn counted(mut plan: Plan) -> Plan {
    if plan.record_answer {
        plan.counters.replays.held += 1;
    }
    plan
}

fn plan_within_quota(
    mutation_id: &str,
    recorded: Option<MutationResult>,
    intent: Intent<'_>,
    existing: Existing,
    references: &[Reference<'_>],
    counters: Counters,
) -> Plan {
    let unchanged = |answer: MutationResult, record_answer| Plan {
        answer,
        write: Write::None,
        record_answer,
        counters,
    };
    if let Some(answer) = recorded {
        return unchanged(answer, false);
    }
    let op = match intent {
        Intent::Refused {
            code,
            message,
            fields,
        } => {
            let answer = MutationResult::rejected(mutation_id, code, message);
            return unchanged(answer.with_fields(fields.cloned()), true);
        }
        Intent::Singleton { versions } => {
            let mut after = counters;
            after.seq += versions - 1;
            return applied(mutation_id, Write::Singleton, after);
        }
        Intent::Record(op) => op,
    };
    let decision = decide(op, existing);
    if op == Op::Put
        && matches!(decision, Decision::Update | Decision::Insert)
        && let Err(refused) = check_references(mutation_id, references)
    {
        let record_answer = is_recorded(&refused);
        return unchanged(refused, record_answer);
    }
    match decision {
        Decision::RejectNotOwner => unchanged(not_owner(mutation_id), true),
        Decision::NoOp => unchanged(MutationResult::applied(mutation_id), true),
        Decision::Update => applied(mutation_id, Write::Update, counters),
        Decision::Tombstone if existing == Existing::Live => {
            applied(mutation_id, Write::Tombstone, counters)
        }
        Decision::Insert | Decision::Tombstone => {
            let write = if op == Op::Put {
                Write::Insert
            } else {
                Write::InsertTombstone
            };
            let mut after = counters;
            match after.budget.take(mutation_id) {
                Ok(()) => applied(mutation_id, write, after),
                Err(refused) => {
                    let record_answer = is_recorded(&refused);
                    unchanged(refused, record_answer)
                }
            }
        }
    }
}

/// The plan when a planned insert found the id claimed meanwhile by another account (it
/// looked absent to both, and the other committed first): the other's row wins and this
/// mutation is answered like any other account's id, with `counters` as they were before it.
pub fn claimed_meanwhile(mutation_id: &str, counters: Counters) -> Plan {
    counted(Plan {
        answer: not_owner(mutation_id),
        write: Write::None,
        record_answer: true,
        counters,
    })
}

fn applied(mutation_id: &str, write: Write, mut counters: Counters) -> Plan {
    counters.seq += 1;
    Plan {
        answer: MutationResult::applied(mutation_id),
        write,
        record_answer: true,
        counters,
    }
}

#[cfg(test)]
mod tests {
    use super::{Existing::*, Op::*, *};

    const ROOM: ReplayBudget = ReplayBudget {
        held: 10,
        max: 1_000,
    };
    const START: Counters = Counters {
        seq: 7,
        budget: RecordBudget { held: 2, max: 3 },
        replays: ROOM,
    };
    const FULL: Counters = Counters {
        seq: 7,
        budget: RecordBudget { held: 3, max: 3 },
        replays: ROOM,
    };

    const OTHERS: Reference<'static> = Reference {
        kind: "courier",
        state: OtherOwner,
        mismatch: None,
    };

    fn code(plan: &Plan) -> Option<&str> {
        plan.answer.code.as_deref()
    }

    /// Every record intent on every state, with room and without: the answer's code, the
    /// write, whether the answer is kept, the sequence and the rows held afterwards.
    #[test]
    fn decision_table() {
        type Row = (
            Op,
            Existing,
            Counters,
            Option<&'static str>,
            Write,
            bool,
            i64,
            i64,
        );
        let quota = Some(QUOTA_EXCEEDED);
        let not_owner = Some("not-owner");
        let table: [Row; 16] = [
            (Put, Absent, START, None, Write::Insert, true, 8, 3),
            (Put, Live, START, None, Write::Update, true, 8, 2),
            (Put, Deleted, START, None, Write::None, true, 7, 2),
            (Put, OtherOwner, START, not_owner, Write::None, true, 7, 2),
            (
                Delete,
                Absent,
                START,
                None,
                Write::InsertTombstone,
                true,
                8,
                3,
            ),
            (Delete, Live, START, None, Write::Tombstone, true, 8, 2),
            (Delete, Deleted, START, None, Write::None, true, 7, 2),
            (
                Delete,
                OtherOwner,
                START,
                not_owner,
                Write::None,
                true,
                7,
                2,
            ),
            // No room: only what adds a row is refused, and that refusal is not kept.
            (Put, Absent, FULL, quota, Write::None, false, 7, 3),
            (Put, Live, FULL, None, Write::Update, true, 8, 3),
            (Put, Deleted, FULL, None, Write::None, true, 7, 3),
            (Put, OtherOwner, FULL, not_owner, Write::None, true, 7, 3),
            (Delete, Absent, FULL, quota, Write::None, false, 7, 3),
            (Delete, Live, FULL, None, Write::Tombstone, true, 8, 3),
            (Delete, Deleted, FULL, None, Write::None, true, 7, 3),
            (Delete, OtherOwner, FULL, not_owner, Write::None, true, 7, 3),
        ];
        for (op, existing, counters, answer, write, kept, seq, held) in table {
            let got = plan("m1", None, Intent::Record(op), existing, &[], counters);
            let case = format!("{op:?} on {existing:?} holding {}", counters.budget.held);
            assert_eq!(code(&got), answer, "{case}");
            assert_eq!(got.answer.id, "m1", "{case}");
            assert_eq!(got.write, write, "{case}");
            assert_eq!(got.record_answer, kept, "{case}");
            assert_eq!(
                (got.counters.seq, got.counters.budget.held),
                (seq, held),
                "{case}"
            );
        }
    }

    #[test]
    fn a_replay_gets_its_recorded_answer_and_changes_nothing() {
        let recorded = not_owner("m1");
        for intent in [
            Intent::Record(Put),
            Intent::Record(Delete),
            Intent::Singleton { versions: 1 },
        ] {
            let got = plan(
                "m1",
                Some(recorded.clone()),
                intent,
                Absent,
                &[OTHERS],
                START,
            );
            assert_eq!(
                got,
                Plan {
                    answer: recorded.clone(),
                    write: Write::None,
                    record_answer: false,
                    counters: START,
                }
            );
        }
    }

    #[test]
    fn singletons_always_apply_and_refusals_are_kept() {
        let singleton = plan(
            "m1",
            None,
            Intent::Singleton { versions: 1 },
            OtherOwner,
            &[],
            FULL,
        );
        assert_eq!(
            (
                singleton.write,
                singleton.record_answer,
                singleton.counters.seq
            ),
            (Write::Singleton, true, 8)
        );
        assert_eq!(singleton.counters.budget, FULL.budget);
        let refused = Intent::Refused {
            code: "validation",
            message: "Stops must be a whole number",
            fields: None,
        };
        let got = plan("m1", None, refused, Absent, &[], START);
        assert_eq!(
            (code(&got), got.answer.message.as_deref()),
            (Some("validation"), Some("Stops must be a whole number"))
        );
        assert_eq!(
            (
                got.write,
                got.record_answer,
                got.counters.seq,
                got.counters.budget
            ),
            (Write::None, true, START.seq, START.budget)
        );
    }

    #[test]
    fn a_singleton_write_takes_one_version_per_record_it_rewrites() {
        let got = plan(
            "m1",
            None,
            Intent::Singleton { versions: 2 },
            Absent,
            &[],
            START,
        );
        assert_eq!((got.write, got.counters.seq), (Write::Singleton, 9));
        assert_eq!(got.counters.budget, START.budget);
    }

    #[test]
    fn an_id_claimed_meanwhile_is_another_accounts_and_takes_nothing() {
        let got = claimed_meanwhile("m1", START);
        assert_eq!(
            (code(&got), got.write, got.record_answer),
            (Some("not-owner"), Write::None, true)
        );
        assert_eq!(
            (got.counters.seq, got.counters.budget),
            (START.seq, START.budget)
        );
        assert_eq!(
            got.counters.replays.held,
            START.replays.held + 1,
            "its answer is kept"
        );
    }

    /// Every kept answer counts in the replay budget; with none left, anything but a replay
    /// is refused before it changes anything, and that refusal is not kept.
    #[test]
    fn replay_records_are_counted_and_capped() {
        let intents = [
            Intent::Record(Put),
            Intent::Record(Delete),
            Intent::Singleton { versions: 1 },
            Intent::Refused {
                code: "validation",
                message: "bad",
                fields: None,
            },
        ];
        for intent in intents {
            let got = plan("m1", None, intent, Live, &[], START);
            assert!(got.record_answer, "{intent:?}");
            assert_eq!(got.counters.replays.held, 11, "{intent:?}");
        }
        let full = Counters {
            replays: ReplayBudget { held: 5, max: 5 },
            ..START
        };
        for intent in intents {
            let got = plan("m1", None, intent, Live, &[], full);
            assert_eq!(code(&got), Some(QUOTA_EXCEEDED), "{intent:?}");
            assert_eq!(
                (got.write, got.record_answer, got.counters),
                (Write::None, false, full),
                "{intent:?}"
            );
            assert!(got.answer.message.unwrap().contains("(5)"));
        }
        // A replay is still answered: it needs no new record.
        let replay = plan(
            "m1",
            Some(MutationResult::applied("m1")),
            Intent::Record(Put),
            Live,
            &[],
            full,
        );
        assert_eq!((code(&replay), replay.counters), (None, full));
        // A refusal that is not kept (records quota) takes no replay record either.
        let no_room = Counters {
            budget: FULL.budget,
            ..START
        };
        let got = plan("m1", None, Intent::Record(Put), Absent, &[], no_room);
        assert_eq!(
            (got.record_answer, got.counters.replays),
            (false, START.replays)
        );
    }

    #[test]
    fn the_quota_message_names_the_limit() {
        let got = plan("m1", None, Intent::Record(Put), Absent, &[], FULL);
        assert!(got.answer.message.unwrap().contains('3'));
    }

    fn courier(state: Existing) -> Reference<'static> {
        Reference {
            kind: "courier",
            state,
            mismatch: None,
        }
    }

    #[test]
    fn a_reference_that_does_not_go_with_the_put_is_refused_and_not_kept() {
        let card = Reference {
            kind: "rateCard",
            state: Live,
            mismatch: Some("This day's rate card is another courier's."),
        };
        let got = plan("m1", None, Intent::Record(Put), Absent, &[card], START);
        assert_eq!(code(&got), Some(MISMATCHED_REFERENCE));
        assert_eq!(
            got.answer.message.as_deref(),
            Some("This day's rate card is another courier's. Nothing was saved.")
        );
        assert_eq!((got.write, got.record_answer), (Write::None, false));
        // A missing or foreign reference is said first.
        let missing = courier(Absent);
        let got = plan(
            "m1",
            None,
            Intent::Record(Put),
            Absent,
            &[card, missing],
            START,
        );
        assert_eq!(code(&got), Some(MISSING_REFERENCE));
    }

    /// A put that writes is checked against what it points at; a put that writes nothing
    /// (onto a tombstone, or another account's id) and a delete are not.
    #[test]
    fn references_decide_only_puts_that_write() {
        type Row = (
            Op,
            Existing,
            Existing,
            Option<&'static str>,
            Write,
            bool,
            i64,
        );
        let missing = Some(MISSING_REFERENCE);
        let not_owner = Some("not-owner");
        let table: [Row; 14] = [
            (Put, Absent, Live, None, Write::Insert, true, 8),
            (Put, Absent, Deleted, None, Write::Insert, true, 8),
            (Put, Absent, OtherOwner, not_owner, Write::None, true, 7),
            (Put, Absent, Absent, missing, Write::None, false, 7),
            (Put, Live, Live, None, Write::Update, true, 8),
            (Put, Live, Deleted, None, Write::Update, true, 8),
            (Put, Live, OtherOwner, not_owner, Write::None, true, 7),
            (Put, Live, Absent, missing, Write::None, false, 7),
            (Put, Deleted, Absent, None, Write::None, true, 7),
            (Put, Deleted, OtherOwner, None, Write::None, true, 7),
            (Put, OtherOwner, Absent, not_owner, Write::None, true, 7),
            (Delete, Live, Absent, None, Write::Tombstone, true, 8),
            (
                Delete,
                Absent,
                OtherOwner,
                None,
                Write::InsertTombstone,
                true,
                8,
            ),
            (Delete, Deleted, Absent, None, Write::None, true, 7),
        ];
        for (op, existing, pointed, answer, write, kept, seq) in table {
            let got = plan(
                "m1",
                None,
                Intent::Record(op),
                existing,
                &[courier(pointed)],
                START,
            );
            let case = format!("{op:?} on {existing:?} pointing at {pointed:?}");
            assert_eq!(code(&got), answer, "{case}");
            assert_eq!(
                (got.write, got.record_answer, got.counters.seq),
                (write, kept, seq),
                "{case}"
            );
            if write == Write::None {
                assert_eq!(got.counters.budget, START.budget, "{case}");
            }
        }
    }

    #[test]
    fn the_missing_kind_is_named_with_its_article() {
        for (kind, words) in [
            ("vehicle", "points at a vehicle that"),
            ("entry", "points at an entry that"),
            ("evidence item", "points at an evidence item that"),
        ] {
            let missing = Reference {
                kind,
                state: Absent,
                mismatch: None,
            };
            let answer = check_references("m1", &[missing]).unwrap_err();
            assert!(answer.message.unwrap().contains(words), "{kind}");
        }
    }

    #[test]
    fn another_accounts_reference_outranks_a_missing_one_and_the_message_names_the_kind() {
        let card = Reference {
            kind: "rateCard",
            state: Absent,
            mismatch: None,
        };
        let both = check_references("m1", &[card, courier(OtherOwner)]).unwrap_err();
        assert_eq!(both.code.as_deref(), Some("not-owner"));
        let missing = check_references("m1", &[courier(Live), card]).unwrap_err();
        assert_eq!(missing.code.as_deref(), Some(MISSING_REFERENCE));
        assert!(missing.message.unwrap().contains("rateCard"));
        assert!(!is_recorded(&MutationResult::rejected(
            "m1",
            MISSING_REFERENCE,
            ""
        )));
        assert_eq!(
            check_references("m1", &[courier(Live), courier(Deleted)]),
            Ok(())
        );
        assert_eq!(check_references("m1", &[]), Ok(()));
    }

    #[test]
    fn a_missing_reference_is_refused_before_the_quota_is_looked_at() {
        let got = plan(
            "m1",
            None,
            Intent::Record(Put),
            Absent,
            &[courier(Absent)],
            FULL,
        );
        assert_eq!(code(&got), Some(MISSING_REFERENCE));
    }
}
