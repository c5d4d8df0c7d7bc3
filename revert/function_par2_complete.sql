-- Revert voyager:function_par2_complete from pg
BEGIN;
DROP FUNCTION voyager.par2_complete(bigint, bytea);
COMMIT;
