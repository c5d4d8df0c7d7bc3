-- Deploy voyager:function_mark_capture to pg
BEGIN;
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
