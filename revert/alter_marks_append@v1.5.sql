-- Revert voyager:alter_marks_append from pg: one row a release again
BEGIN;
DROP FUNCTION voyager.judge_mark(bigint[]);
DROP FUNCTION voyager.recategorize_mark(bigint[]);
DROP FUNCTION voyager.merge_settle_mark(bigint[]);
LOCK TABLE voyager.judge_queue, voyager.recategorize_queue, voyager.merge_settle_queue IN EXCLUSIVE MODE;
DELETE FROM voyager.judge_queue a USING voyager.judge_queue b
 WHERE a.release_id = b.release_id AND a.ctid > b.ctid;
DELETE FROM voyager.recategorize_queue a USING voyager.recategorize_queue b
 WHERE a.release_id = b.release_id AND a.ctid > b.ctid;
DELETE FROM voyager.merge_settle_queue a USING voyager.merge_settle_queue b
 WHERE a.survivor_id = b.survivor_id AND a.ctid > b.ctid;
DROP INDEX voyager.judge_queue_release_idx;
DROP INDEX voyager.recategorize_queue_release_idx;
DROP INDEX voyager.merge_settle_queue_survivor_idx;
ALTER TABLE voyager.judge_queue ADD PRIMARY KEY (release_id);
ALTER TABLE voyager.recategorize_queue ADD PRIMARY KEY (release_id);
ALTER TABLE voyager.merge_settle_queue ADD PRIMARY KEY (survivor_id);
COMMIT;
