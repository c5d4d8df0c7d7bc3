-- Revert voyager:alter_marks_append from pg: each marker its own statement again
BEGIN;
CREATE OR REPLACE FUNCTION voyager.judge_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    EXECUTE 'INSERT INTO voyager.judge_queue (release_id)
             SELECT DISTINCT x FROM unnest($1) x
              WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.judge_queue q WHERE q.release_id = x)'
      USING p_ids;
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;

CREATE OR REPLACE FUNCTION voyager.recategorize_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    EXECUTE 'INSERT INTO voyager.recategorize_queue (release_id)
             SELECT DISTINCT x FROM unnest($1) x
              WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.recategorize_queue q WHERE q.release_id = x)'
      USING p_ids;
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;

CREATE OR REPLACE FUNCTION voyager.merge_settle_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    EXECUTE 'INSERT INTO voyager.merge_settle_queue (survivor_id)
             SELECT DISTINCT x FROM unnest($1) x
              WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.merge_settle_queue q WHERE q.survivor_id = x)'
      USING p_ids;
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;
DROP FUNCTION voyager.queue_mark(text, text, bigint[]);
COMMIT;
