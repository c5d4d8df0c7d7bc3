-- Verify voyager:function_run_sql_job on pg
SELECT 'voyager.run_sql_job(text)'::regprocedure;
