-- Revert voyager:function_search_text_deltas from pg
BEGIN;
DROP FUNCTION voyager.search_text_deltas(bigint[], text[], bigint[], text[]);
COMMIT;
