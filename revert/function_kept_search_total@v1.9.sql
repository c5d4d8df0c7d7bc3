-- Revert voyager:function_kept_search_total from pg
BEGIN;
DROP FUNCTION voyager.kept_search_total(bytea, bigint);
COMMIT;
