-- Issue 29: the quarters a driver's Making Tax Digital updates follow, a synced setting beside
-- the tax region: 'standard' (ending 5 July, 5 October, 5 January, 5 April) or 'calendar'
-- (ending 30 June, 30 September, 31 December, 31 March).
ALTER TABLE users ADD COLUMN mtd_quarters TEXT NOT NULL DEFAULT 'standard';
