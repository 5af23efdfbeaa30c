-- Issue 30: replay records (applied_mutations) keyed by mutation id first, then user.
--
-- Keyed by user first, every push wrote a page of its own: the leaf holding that user's
-- replay records, a different one for each user in a group commit. Mutation ids are
-- time-ordered (UUIDv7) from the web app, so keyed by mutation id first, the pushes of one
-- commit all land on the same last leaf: measured, 0.92x the server's CPU per push at 16
-- connections. A push still finds a replay by (mutation id, user), so another account's id
-- never answers for this one.
--
-- Without the user first, ON DELETE CASCADE would scan the whole table for every deleted
-- account, so the key to users goes. When an account goes, its refused answers (the only
-- ones holding any text: an error code and message) go with it, by the trigger below and
-- the partial index it reads. Its plain "applied" records hold nothing but two random ids
-- and a time; the pruning sweep removes them by age like every other (90 days by default).
--
-- PostgreSQL keeps its key (its 0024 changes nothing): its goal was met without this.
CREATE TABLE applied_mutations_by_mutation (
    user_id     TEXT NOT NULL,
    mutation_id TEXT NOT NULL,
    result      TEXT NOT NULL,
    applied_at  INTEGER NOT NULL,
    PRIMARY KEY (mutation_id, user_id)
) STRICT, WITHOUT ROWID;

INSERT INTO applied_mutations_by_mutation (user_id, mutation_id, result, applied_at)
SELECT user_id, mutation_id, result, applied_at FROM applied_mutations;

DROP TABLE applied_mutations;
ALTER TABLE applied_mutations_by_mutation RENAME TO applied_mutations;

-- The pruning sweep removes replay records by age.
CREATE INDEX applied_mutations_by_time ON applied_mutations (applied_at);

-- A refused answer is rare, so this index costs a push almost nothing.
CREATE INDEX applied_mutations_refused_by_user ON applied_mutations (user_id)
    WHERE result <> '';

CREATE TRIGGER users_delete_refused_answers AFTER DELETE ON users
BEGIN
    DELETE FROM applied_mutations WHERE user_id = OLD.id AND result <> '';
END;
