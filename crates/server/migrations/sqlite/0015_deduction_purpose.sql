-- Issue 25. A deduction says what it is for (an expense category: van hire is a vehicle cost,
-- claimed once with its vehicle) and which vehicle. Deductions saved before could not say:
-- they get null for both ("not said"), which the tax year counts as before (other business
-- costs) and asks the driver about. Nothing is guessed from a label. The pulled data is the
-- same as the server gave them already (missing fields read as null), so versions stay.
UPDATE records
SET content = json_set(content, '$.purpose', NULL, '$.vehicleId', NULL)
WHERE kind = 'deduction' AND NOT deleted;
