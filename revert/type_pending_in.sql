-- Revert voyager:type_pending_in from pg
BEGIN;
DROP TYPE voyager.pending_in;
COMMIT;
