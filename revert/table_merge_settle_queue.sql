-- Revert voyager:table_merge_settle_queue from pg
BEGIN;
DROP TABLE voyager.merge_settle_queue;
COMMIT;
