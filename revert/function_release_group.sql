-- Revert voyager:function_release_group from pg
BEGIN;
DROP FUNCTION voyager.release_group(uuid, bytea, bigint);
COMMIT;
