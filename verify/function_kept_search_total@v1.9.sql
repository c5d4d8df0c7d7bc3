-- Verify voyager:function_kept_search_total on pg
SELECT voyager.kept_search_total('\x0000000000000000000000000000000000000000', 0) WHERE false;
