-- Revert voyager:schema from pg
BEGIN;
DROP SCHEMA voyager;
COMMIT;
