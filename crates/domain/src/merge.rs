//! The one conflict rule, applied per record in server order (client clocks are never
//! trusted): the last write to reach the server wins, and a delete wins over any edit that
//! reaches the server after it. The web client mirrors this in `web/src/sync/merge.ts`.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    Absent,
    Live,
    Deleted,
    /// The id is taken by a record of another user.
    OtherOwner,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Put,
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Insert,
    Update,
    /// Record (or create) a tombstone, so a late edit from another device cannot resurrect it.
    Tombstone,
    /// Acknowledge without change: the delete already won.
    NoOp,
    RejectNotOwner,
}

pub fn decide(op: Op, existing: Existing) -> Decision {
    match (op, existing) {
        (_, Existing::OtherOwner) => Decision::RejectNotOwner,
        (Op::Put, Existing::Absent) => Decision::Insert,
        (Op::Put, Existing::Live) => Decision::Update,
        (Op::Put, Existing::Deleted) => Decision::NoOp,
        (Op::Delete, Existing::Absent | Existing::Live) => Decision::Tombstone,
        (Op::Delete, Existing::Deleted) => Decision::NoOp,
    }
}

#[cfg(test)]
mod tests {
    use super::{Decision::*, Existing::*, Op::*, *};

    #[test]
    fn decision_table() {
        let table = [
            (Put, Absent, Insert),
            (Put, Live, Update),
            (Put, Deleted, NoOp),
            (Put, OtherOwner, RejectNotOwner),
            (Delete, Absent, Tombstone),
            (Delete, Live, Tombstone),
            (Delete, Deleted, NoOp),
            (Delete, OtherOwner, RejectNotOwner),
        ];
        for (op, existing, expected) in table {
            assert_eq!(decide(op, existing), expected, "{op:?} on {existing:?}");
        }
    }
}
