-- Revert voyager:function_jobs from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name IN ('tail_plan', 'settle', 'chunk_partitions');
DROP FUNCTION voyager.finish_job(text, uuid, jsonb, text);
DROP FUNCTION voyager.run_sql_job(text);
DROP FUNCTION voyager.claim_due_job(text, text[], text[]);
COMMIT;
