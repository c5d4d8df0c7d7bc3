-- Verify voyager:function_search_walk_pays on pg
SELECT 1/(voyager.search_walk_pays(900, 1, true, true, 1000) AND NOT voyager.search_walk_pays(10, 1, true, true, 1000))::int;
SELECT 1/(NOT voyager.search_walk_pays(10, 1, false, false) AND voyager.search_walk_pays(10, 1, true, false, 1000))::int;
