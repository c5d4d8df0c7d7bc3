-- Verify voyager:function_check_listing on pg
SELECT 'voyager.check_listing(jsonb)'::regprocedure;
