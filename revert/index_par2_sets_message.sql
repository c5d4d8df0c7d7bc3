-- Revert voyager:index_par2_sets_message from pg
BEGIN;
DROP INDEX voyager.par2_sets_message_idx;
COMMIT;
