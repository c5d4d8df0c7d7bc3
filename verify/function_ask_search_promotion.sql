-- Verify voyager:function_ask_search_promotion on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.ask_search_promotion(text)'::regprocedure AND l.lanname = 'plpgsql';
