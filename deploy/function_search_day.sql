-- Deploy voyager:function_search_day to pg
BEGIN;
CREATE FUNCTION voyager.search_day(p_posted_at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((p_posted_at AT TIME ZONE 'UTC')::date, date '1970-01-01')
$$;
COMMIT;
