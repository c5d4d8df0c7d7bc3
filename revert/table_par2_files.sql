-- Revert voyager:table_par2_files from pg
BEGIN;
DROP TABLE voyager.par2_files;
COMMIT;
