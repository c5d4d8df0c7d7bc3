-- Verify voyager:function_ask_search_promotion on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.ask_search_promotion(text)'::regprocedure;
