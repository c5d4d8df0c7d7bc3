-- Revert voyager:function_keep_search_total from pg
BEGIN;
DROP FUNCTION voyager.keep_search_total(bytea, bigint, bigint);
COMMIT;
