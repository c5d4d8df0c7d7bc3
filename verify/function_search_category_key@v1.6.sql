-- Verify voyager:function_search_category_key on pg
SELECT 1/(voyager.search_category_key(NULL) = 'c:8010' AND voyager.search_category_key(5040) = 'c:5040')::int;
