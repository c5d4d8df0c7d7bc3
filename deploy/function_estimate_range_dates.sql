-- Deploy voyager:function_estimate_range_dates to pg
BEGIN;
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
COMMIT;
