-- Deploy voyager:function_advance_range to pg: the lease's expires_at moved on
BEGIN;
-- Moves a range's resume point by one stored batch. Refused unless the lease is
-- current, the range is its cursor and the batch starts exactly at the resume
-- point: a batch sent twice or late changes nothing (SQLSTATE VY003).
-- The batch store calls it in the transaction that writes the batch.
CREATE OR REPLACE FUNCTION voyager.advance_range(p_token uuid, p_range_id bigint, p_first_article bigint,
                                      p_next_article bigint, p_headers bigint DEFAULT 0)
RETURNS voyager.ranges
LANGUAGE plpgsql AS $$
DECLARE
    v voyager.group_leases;
    r voyager.ranges;
BEGIN
    v := voyager.lease_of(p_token);
    SELECT * INTO r FROM voyager.ranges WHERE id = p_range_id FOR UPDATE;
    IF NOT FOUND OR v.range_id IS DISTINCT FROM r.id OR r.status <> 'leased' THEN
        RAISE EXCEPTION 'range % is not the cursor of this lease (group %, %)', p_range_id, v.group_id, v.lane
            USING ERRCODE = 'VY002';
    END IF;
    IF p_first_article IS DISTINCT FROM r.next_article THEN
        RAISE EXCEPTION 'batch refused: it starts at article % but range % resumes at % (sent twice or late)',
            p_first_article, r.id, r.next_article USING ERRCODE = 'VY003';
    END IF;
    IF p_next_article IS NULL OR p_next_article <= p_first_article OR p_next_article > r.end_article + 1 THEN
        RAISE EXCEPTION 'batch refused: resume point % is outside % .. %', p_next_article, p_first_article + 1,
            r.end_article + 1 USING ERRCODE = '22023';
    END IF;
    IF p_headers IS NULL OR p_headers < 0 THEN
        RAISE EXCEPTION 'batch refused: headers must be >= 0' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.range_batches (range_id, first_article, next_article, headers)
    VALUES (r.id, p_first_article, p_next_article, p_headers);
    UPDATE voyager.ranges
       SET next_article = p_next_article,
           headers = headers + p_headers,
           status = CASE WHEN p_next_article > end_article THEN 'done'::voyager.range_status ELSE status END,
           done_at = CASE WHEN p_next_article > end_article THEN now() END
     WHERE id = r.id
    RETURNING * INTO r;
    UPDATE voyager.group_leases SET heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN r;
END $$;
COMMENT ON FUNCTION voyager.advance_range(uuid, bigint, bigint, bigint, bigint)
    IS 'Moves the cursor range''s resume point by one batch; refuses a batch not starting at it (VY003)';
COMMIT;
