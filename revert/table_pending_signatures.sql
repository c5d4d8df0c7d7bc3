-- Revert voyager:table_pending_signatures from pg
BEGIN;
DROP TABLE voyager.pending_signatures;
COMMIT;
