-- Verify voyager:function_api_use on pg
SELECT 'voyager.api_use(text, text, bigint)'::regprocedure;
