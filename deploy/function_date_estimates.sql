-- Deploy voyager:function_date_estimates to pg
-- When were a group's articles posted? Workers sample a few Date headers per
-- slice of a group (record_group_dates); the curve through the samples, kept
-- monotone, gives every range an estimated posting time (estimate_range_dates);
-- a window of posting time can then be marked for capture (mark_capture).
BEGIN;
CREATE FUNCTION voyager.record_group_dates(p_group text, p_samples jsonb) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_group integer;
    v_n integer;
BEGIN
    SELECT id INTO v_group FROM voyager.groups WHERE name = p_group;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_group USING ERRCODE = '22023';
    END IF;
    IF p_samples IS NULL OR jsonb_typeof(p_samples) <> 'array' THEN
        RAISE EXCEPTION 'samples must be a JSON array of {"article", "posted_at"}' USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_samples) e
                WHERE jsonb_typeof(e -> 'article') IS DISTINCT FROM 'number'
                   OR (e ->> 'article')::numeric < 1
                   OR jsonb_typeof(e -> 'posted_at') IS DISTINCT FROM 'string') THEN
        RAISE EXCEPTION 'samples must be {"article": n >= 1, "posted_at": "<timestamp>"}' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.group_dates AS d (group_id, article, posted_at)
    SELECT v_group, (e ->> 'article')::bigint, (e ->> 'posted_at')::timestamptz
      FROM jsonb_array_elements(p_samples) e
        ON CONFLICT (group_id, article) DO UPDATE SET posted_at = excluded.posted_at, sampled_at = now();
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.record_group_dates(text, jsonb) IS 'Records sampled posting dates of a group''s articles';

CREATE FUNCTION voyager.estimate_range_dates(p_group text DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE v_n integer;
BEGIN
    WITH curve AS (
        SELECT d.group_id, array_agg(d.article ORDER BY d.article) AS articles,
               array_agg(extract(epoch FROM d.posted_at)::double precision ORDER BY d.article) AS epochs
          FROM voyager.group_dates d JOIN voyager.groups g ON g.id = d.group_id
         WHERE p_group IS NULL OR g.name = p_group
         GROUP BY d.group_id
    ), spans AS (
        SELECT r.group_id, array_agg(r.id ORDER BY r.start_article) AS ids,
               array_agg(r.start_article ORDER BY r.start_article) AS starts
          FROM voyager.ranges r WHERE r.group_id IN (SELECT group_id FROM curve)
         GROUP BY r.group_id
    ), est AS (
        SELECT unnest(s.ids) AS id,
               unnest(voyager.date_curve_interpolate(c.articles, c.epochs, s.starts)) AS epoch
          FROM spans s JOIN curve c USING (group_id)
    )
    UPDATE voyager.ranges r SET est_date = to_timestamp(est.epoch)
      FROM est WHERE r.id = est.id AND r.est_date IS DISTINCT FROM to_timestamp(est.epoch);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.estimate_range_dates(text) IS 'Sets ranges.est_date from the sampled curve; returns the ranges changed';

-- Marks the ranges posted in [p_from, p_to) for capture: planned ones not
-- started get p_priority too, others only the mark (fetched again into the
-- corpus). A range counts when its posting span (its start's estimate to the
-- next range's) overlaps the window. Tail ranges keep the tail's priority.
CREATE FUNCTION voyager.mark_capture(p_from timestamptz, p_to timestamptz, p_priority integer DEFAULT 0,
                                     p_group text DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_tail integer := voyager.setting_int('tail_priority');
    v_n integer;
BEGIN
    IF p_from IS NULL OR p_to IS NULL OR p_from >= p_to THEN
        RAISE EXCEPTION 'capture window % .. % is empty', p_from, p_to USING ERRCODE = '22023';
    END IF;
    IF p_priority <= v_tail THEN
        RAISE EXCEPTION 'capture priority % would put history in the tail lane (tail priority %)', p_priority, v_tail
            USING ERRCODE = '22023';
    END IF;
    WITH spans AS (
        SELECT r.id, r.est_date AS s,
               coalesce(lead(r.est_date) OVER (PARTITION BY r.group_id ORDER BY r.start_article), r.est_date) AS e
          FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id
         WHERE r.est_date IS NOT NULL AND (p_group IS NULL OR g.name = p_group)
    )
    UPDATE voyager.ranges r
       SET capture = true,
           priority = CASE WHEN r.status = 'planned' AND r.next_article = r.start_article AND r.priority > v_tail
                           THEN p_priority ELSE r.priority END
      FROM spans
     WHERE r.id = spans.id AND r.status <> 'ancient' AND spans.s < p_to AND spans.e >= p_from;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.mark_capture(timestamptz, timestamptz, integer, text)
    IS 'Marks ranges posted within a window for capture into the corpus; returns how many';
COMMIT;
