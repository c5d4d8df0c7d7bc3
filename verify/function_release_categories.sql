-- Verify voyager:function_release_categories on pg
SELECT 'voyager.release_categories(bigint[])'::regprocedure;
