-- Deploy voyager:function_chunk_partition to pg
BEGIN;
-- release_chunks is partitioned by the posting month. The store writes into
-- whatever partition exists (a month without one lands in the default); this
-- job, run by the scheduler, gives every month seen in the default and the
-- months ahead a partition of their own, on the tablespace `chunks_tablespace`
-- names (empty: the database's), moving the default's rows into it. Chunks are
-- written once and read by NZBs only: a slow, large disk suits them.
CREATE FUNCTION voyager.chunk_partition(p_month date) RETURNS regclass
LANGUAGE plpgsql AS $$
DECLARE
    v_month date := date_trunc('month', p_month)::date;
    v_name text := format('release_chunks_y%sm%s', to_char(v_month, 'YYYY'), to_char(v_month, 'MM'));
    v_space text := (SELECT value FROM voyager.settings WHERE name = 'chunks_tablespace');
    v_rel regclass := to_regclass(format('voyager.%I', v_name));
BEGIN
    IF v_rel IS NOT NULL THEN
        RETURN v_rel;
    END IF;
    EXECUTE format('CREATE TABLE voyager.%I (LIKE voyager.release_chunks INCLUDING ALL)%s', v_name,
                   CASE WHEN coalesce(v_space, '') <> '' THEN format(' TABLESPACE %I', v_space) ELSE '' END);
    -- the month's rows leave the default first, or attaching it would fail
    EXECUTE format('WITH moved AS (DELETE FROM voyager.release_chunks_default WHERE month >= %L AND month < %L '
                   'RETURNING *) INSERT INTO voyager.%I SELECT * FROM moved',
                   v_month, (v_month + interval '1 month')::date, v_name);
    EXECUTE format('ALTER TABLE voyager.release_chunks ATTACH PARTITION voyager.%I FOR VALUES FROM (%L) TO (%L)',
                   v_name, v_month, (v_month + interval '1 month')::date);
    RETURN format('voyager.%I', v_name)::regclass;
END $$;
COMMENT ON FUNCTION voyager.chunk_partition(date)
    IS 'The release_chunks partition of a month, created (on chunks_tablespace) with the default''s rows moved in';
COMMIT;
