-- Verify voyager:function_merge_settle on pg
SELECT 'voyager.merge_settle(bigint[])'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.merge_settle(bigint[])'::regprocedure
   AND prosrc LIKE '%own AS MATERIALIZED%' AND prosrc LIKE '%SELECT DISTINCT rm.set_id FROM voyager.release_merges rm WHERE rm.survivor_id = t.root%';
