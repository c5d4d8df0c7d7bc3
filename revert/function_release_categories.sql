-- Revert voyager:function_release_categories from pg
BEGIN;
DROP FUNCTION voyager.release_categories(bigint[]);
COMMIT;
