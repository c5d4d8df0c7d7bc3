-- Verify voyager:function_search_like on pg
SELECT 1/(voyager.search_like('a_b%c\d') = '%a\_b\%c\\d%')::int;
