-- Deploy voyager:function_set_aside_ranges to pg
-- A replay of part of a corpus: the planned ranges wholly outside its articles
-- are set aside as ancient (never leased). Returns how many.
BEGIN;

CREATE FUNCTION voyager.set_aside_ranges(p_first bigint, p_last bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE v_n integer;
BEGIN
    UPDATE voyager.ranges SET status = 'ancient'
     WHERE status = 'planned' AND (end_article < p_first OR start_article > p_last);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.set_aside_ranges(bigint, bigint)
    IS 'Sets the planned ranges wholly outside first..last aside as ancient (a replay of part of a corpus)';
COMMIT;
