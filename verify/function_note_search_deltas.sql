-- Verify voyager:function_note_search_deltas on pg
SELECT 'voyager.note_search_deltas(text[], bigint[])'::regprocedure;
