-- Deploy voyager:function_ranges_ahead to pg
-- What a holder may fetch ahead: the planned ranges after its cursor range
-- that next_range would hand it next (its lease's band), in article order.
-- Nothing is leased or locked; no row when the token is not current.
BEGIN;

CREATE FUNCTION voyager.ranges_ahead(p_token uuid, p_count integer DEFAULT 2)
RETURNS TABLE (range_id bigint, start_article bigint, end_article bigint, next_article bigint)
LANGUAGE sql STABLE AS $$
    SELECT x.id, x.start_article, x.end_article, x.next_article
      FROM voyager.group_leases v
      JOIN voyager.ranges c ON c.id = v.range_id
      JOIN voyager.ranges x ON x.group_id = v.group_id
     WHERE v.token = p_token
       AND x.status = 'planned' AND x.start_article > c.end_article
       AND x.priority BETWEEN v.min_priority AND v.max_priority
       AND (NOT v.capture_only OR x.capture)
     ORDER BY x.start_article
     LIMIT p_count
$$;
COMMENT ON FUNCTION voyager.ranges_ahead(uuid, integer)
    IS 'The planned ranges next_range would hand the lease after its cursor range, in article order (to fetch ahead)';
COMMIT;
