-- Revert voyager:table_recategorize_queue from pg
BEGIN;
DROP TABLE voyager.recategorize_queue;
COMMIT;
