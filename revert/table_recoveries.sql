-- Revert voyager:table_recoveries from pg
BEGIN;
DROP TABLE voyager.recoveries;
COMMIT;
