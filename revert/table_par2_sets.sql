-- Revert voyager:table_par2_sets from pg
BEGIN;
DROP TABLE voyager.par2_sets;
COMMIT;
