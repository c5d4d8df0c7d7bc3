-- Deploy voyager:function_maintain_chunk_partitions to pg
BEGIN;
CREATE FUNCTION voyager.maintain_chunk_partitions(p_ahead_months integer DEFAULT 1) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_month date;
    v_made integer := 0;
    v_before integer := (SELECT count(*) FROM pg_inherits WHERE inhparent = 'voyager.release_chunks'::regclass);
BEGIN
    FOR v_month IN
        SELECT DISTINCT c.month FROM voyager.release_chunks_default c
        UNION
        SELECT (date_trunc('month', now()) + make_interval(months => k))::date
          FROM generate_series(0, p_ahead_months) k
        ORDER BY 1
    LOOP
        PERFORM voyager.chunk_partition(v_month);
    END LOOP;
    v_made := (SELECT count(*) FROM pg_inherits WHERE inhparent = 'voyager.release_chunks'::regclass) - v_before;
    RETURN v_made;
END $$;
COMMENT ON FUNCTION voyager.maintain_chunk_partitions(integer)
    IS 'Partitions for every month in the default partition and the months ahead; returns how many were made';
COMMIT;
