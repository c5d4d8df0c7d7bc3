-- Revert voyager:table_jobs from pg
BEGIN;
DROP TABLE voyager.jobs;
DELETE FROM voyager.settings
 WHERE name IN ('tail_plan_seconds', 'settle_seconds', 'partitions_seconds', 'tail_plan_wildmat');
COMMIT;
