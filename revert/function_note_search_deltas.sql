-- Revert voyager:function_note_search_deltas from pg
BEGIN;
DROP FUNCTION voyager.note_search_deltas(text[], bigint[]);
COMMIT;
