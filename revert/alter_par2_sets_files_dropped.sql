-- Revert voyager:alter_par2_sets_files_dropped from pg
BEGIN;
ALTER TABLE voyager.par2_sets DROP COLUMN files_dropped_at;
COMMIT;
