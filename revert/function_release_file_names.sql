-- Revert voyager:function_release_file_names from pg
BEGIN;
DROP FUNCTION voyager.release_file_names(bigint, timestamptz);
COMMIT;
