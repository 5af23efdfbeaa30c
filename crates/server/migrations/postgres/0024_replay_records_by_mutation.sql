-- Issue 30: SQLite's replay records are now keyed by mutation id first (see its 0024). On
-- PostgreSQL they keep their key and their ON DELETE CASCADE: its push figures met their goal
-- without the change, and this migration exists so both backends keep one numbered history.
SELECT 1;
