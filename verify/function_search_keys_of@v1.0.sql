-- Verify voyager:function_search_keys_of on pg
SELECT 'voyager.search_keys_of(bigint[], boolean)'::regprocedure;
