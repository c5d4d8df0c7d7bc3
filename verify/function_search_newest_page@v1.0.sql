-- Verify voyager:function_search_newest_page on pg
SELECT 'voyager.search_newest_page(integer[], integer, integer)'::regprocedure;
