-- Revert voyager:index_par2_sets_found from pg
BEGIN;
DROP INDEX voyager.par2_sets_found_brin;
COMMIT;
