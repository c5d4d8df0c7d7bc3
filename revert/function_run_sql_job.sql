-- Revert voyager:function_run_sql_job from pg
BEGIN;
DROP FUNCTION voyager.run_sql_job(text);
COMMIT;
