-- Verify voyager:function_search_text_deltas on pg
SELECT 'voyager.search_text_deltas(bigint[], text[], bigint[], text[])'::regprocedure;
