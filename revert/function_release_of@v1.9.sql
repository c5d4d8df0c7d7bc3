-- Revert voyager:function_release_of from pg
BEGIN;
DROP FUNCTION voyager.release_of_guid(bytea);
DROP FUNCTION voyager.release_of_id(bigint);
COMMIT;
