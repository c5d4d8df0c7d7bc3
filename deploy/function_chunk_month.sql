-- Deploy voyager:function_chunk_month to pg
BEGIN;
-- The partition month of a release's chunk: its posting month in UTC (whatever the
-- session's TimeZone), 1970-01 when the date is unknown. A chunk is found by
-- (chunk_month(posted_at), release_id), so a lookup touches one partition.
CREATE FUNCTION voyager.chunk_month(p_posted_at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(date_trunc('month', p_posted_at AT TIME ZONE 'UTC')::date, date '1970-01-01')
$$;
COMMIT;
