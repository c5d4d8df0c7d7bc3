-- Revert voyager:function_search_page from pg
BEGIN;
DROP FUNCTION voyager.search_page(jsonb, integer, integer, bigint, bytea, bigint, bytea, bigint, text, integer, bigint);
COMMIT;
