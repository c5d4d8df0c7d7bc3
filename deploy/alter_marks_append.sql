-- Deploy voyager:alter_marks_append to pg: one marker for the three queues
BEGIN;
-- queue_mark appends a mark a release to a dirty queue (its table and its
-- release column) unless a committed mark is there: a read, never a wait on
-- another writer. Its statement is planned each call (EXECUTE): a plan kept
-- for the session was made while the queue was small, and kept reading all
-- of it once a burst of marks had grown it. Planned for the queue as it is,
-- a few marks look a release up by the queue's index and thousands are
-- checked against it in one pass. judge_mark, recategorize_mark and
-- merge_settle_mark name its three queues.
CREATE FUNCTION voyager.queue_mark(p_queue text, p_column text, p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    EXECUTE format('INSERT INTO voyager.%1$I (%2$I)
                    SELECT DISTINCT x FROM unnest($1) x
                     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.%1$I q WHERE q.%2$I = x)',
                   p_queue, p_column)
      USING p_ids;
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;
COMMENT ON FUNCTION voyager.queue_mark(text, text, bigint[]) IS
    'Appends a dirty mark a release to a queue (never waiting on another writer); returns the marks written';

CREATE OR REPLACE FUNCTION voyager.judge_mark(p_ids bigint[]) RETURNS integer
LANGUAGE sql AS $$ SELECT voyager.queue_mark('judge_queue', 'release_id', p_ids) $$;
CREATE OR REPLACE FUNCTION voyager.recategorize_mark(p_ids bigint[]) RETURNS integer
LANGUAGE sql AS $$ SELECT voyager.queue_mark('recategorize_queue', 'release_id', p_ids) $$;
CREATE OR REPLACE FUNCTION voyager.merge_settle_mark(p_ids bigint[]) RETURNS integer
LANGUAGE sql AS $$ SELECT voyager.queue_mark('merge_settle_queue', 'survivor_id', p_ids) $$;
COMMIT;
