-- Verify voyager:function_search_terms on pg
SELECT 'voyager.search_terms(text, timestamp with time zone)'::regprocedure;
