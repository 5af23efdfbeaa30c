-- Couriers, rate cards and deductions (issue 12) are record kinds: they need no table. This
-- gives every existing user what a new account starts with (domain::defaults, spelled here
-- as literals because a migration cannot call it: keep the two in step): the default
-- courier and its first rate card holding the user's tiers (or the spec's default), both
-- with the user's id as their id, at the user's next two versions. Every existing day and
-- statement check then points at that courier (and days at that card), with the new fields
-- empty. Totals and versions stay as they are: a day already paid is never re-priced.
INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at)
SELECT 'courier', id, id, change_seq + 1, FALSE,
       json_build_object('name', 'My courier', 'colour', '#2f6fde', 'periodKind', 'weekly',
                         'periodAnchor', '2000-01-02', 'arrearsWeeks', 0)::text,
       (extract(epoch FROM now()) * 1000)::bigint,
       (extract(epoch FROM now()) * 1000)::bigint
FROM users;

INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at)
SELECT 'rateCard', id, id, change_seq + 2, FALSE,
       json_build_object('courierId', id, 'validFrom', '2000-01-01', 'label', '',
                         'perStop', COALESCE(payment_tiers,
                                             '[{"stopCount":110,"rate":198},{"rate":148}]')::json,
                         'perParcel', NULL, 'parcelCapPerStop', NULL, 'perCollection', NULL,
                         'perFailed', NULL, 'dayRate', NULL, 'hourly', NULL,
                         'peaks', '[]'::json)::text,
       (extract(epoch FROM now()) * 1000)::bigint,
       (extract(epoch FROM now()) * 1000)::bigint
FROM users;

UPDATE users SET change_seq = change_seq + 2, record_count = record_count + 2;

UPDATE records
SET content = (content::jsonb
               || jsonb_build_object('courierId', user_id, 'rateCardId', user_id,
                                     'parcels', NULL, 'collections', NULL, 'failed', NULL,
                                     'startTime', NULL, 'finishTime', NULL))::text
WHERE kind = 'entry' AND NOT deleted;

UPDATE records
SET content = (content::jsonb
               || jsonb_build_object('courierId', user_id, 'parcels', NULL,
                                     'collections', NULL, 'deductions', NULL,
                                     'status', 'unchecked', 'note', ''))::text
WHERE kind = 'invoice' AND NOT deleted;
