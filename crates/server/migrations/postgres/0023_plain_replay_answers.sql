-- Issue 30: a replay record keeps a plain "applied" answer as an empty string (store/sync.rs):
-- its JSON only repeated the mutation id the row is keyed by, and without it the row is about
-- 40 % smaller, so a push writes fewer pages. Answers already stored that way are shortened
-- here too; any other answer stays as its JSON. The schema is the same, but a release from
-- before this could not read the new rows: the version is what stops it opening this database.
UPDATE applied_mutations SET result = ''
WHERE result = '{"id":' || to_json(mutation_id)::text || ',"status":"applied"}';
