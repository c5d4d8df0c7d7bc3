-- Verify voyager:function_jobs on pg
SELECT has_function_privilege('voyager.claim_due_job(text, text[], text[])', 'execute');
SELECT has_function_privilege('voyager.run_sql_job(text)', 'execute');
SELECT has_function_privilege('voyager.finish_job(text, uuid, jsonb, text)', 'execute');
SELECT 1 / (count(*) = 3)::integer FROM voyager.jobs WHERE name IN ('tail_plan', 'settle', 'chunk_partitions');
