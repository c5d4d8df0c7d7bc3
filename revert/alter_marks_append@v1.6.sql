-- Revert voyager:alter_marks_append from pg: the markers' plans kept a session again
BEGIN;
CREATE OR REPLACE FUNCTION voyager.judge_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    INSERT INTO voyager.judge_queue (release_id)
    SELECT DISTINCT x FROM unnest(p_ids) x
     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.judge_queue q WHERE q.release_id = x);
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;

CREATE OR REPLACE FUNCTION voyager.recategorize_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    INSERT INTO voyager.recategorize_queue (release_id)
    SELECT DISTINCT x FROM unnest(p_ids) x
     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.recategorize_queue q WHERE q.release_id = x);
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;

CREATE OR REPLACE FUNCTION voyager.merge_settle_mark(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_marked integer;
BEGIN
    INSERT INTO voyager.merge_settle_queue (survivor_id)
    SELECT DISTINCT x FROM unnest(p_ids) x
     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.merge_settle_queue q WHERE q.survivor_id = x);
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $$;
COMMIT;
