-- Verify voyager:function_console_category on pg
SELECT 'voyager.console_category(text)'::regprocedure;
