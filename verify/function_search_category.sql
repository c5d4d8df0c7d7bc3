-- Verify voyager:function_search_category on pg
SELECT 1/(voyager.search_category(NULL) = 8010 AND voyager.search_category(5040) = 5040)::int;
