-- Deploy voyager:function_date_samples_due to pg
BEGIN;
-- The groups whose posting dates the tick samples next: active groups with
-- articles on the server (the last LIST ACTIVE's watermarks), never sampled
-- first, then the longest ago; each with its number of slices, one every
-- 500 M articles, 16 at least and 1,000 at most.
CREATE FUNCTION voyager.date_samples_due(p_limit integer)
RETURNS TABLE (group_name text, low bigint, high bigint, samples integer)
LANGUAGE sql STABLE AS $$
    SELECT g.name, greatest(g.low, 1), g.high,
           least(1000, greatest(16, ceil((g.high - greatest(g.low, 1) + 1) / 500e6)))::integer
      FROM voyager.groups g
      LEFT JOIN LATERAL (SELECT max(d.sampled_at) AS at FROM voyager.group_dates d WHERE d.group_id = g.id) s ON true
     WHERE g.active AND g.high >= greatest(g.low, 1)
     ORDER BY s.at ASC NULLS FIRST, g.priority
     LIMIT greatest(p_limit, 0)
$$;
COMMENT ON FUNCTION voyager.date_samples_due(integer)
    IS 'The active groups whose posting dates are sampled next (never, then longest ago first), with their slice counts';
COMMIT;
