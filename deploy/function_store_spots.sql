-- Deploy voyager:function_store_spots to pg
BEGIN;
-- One batch of the spotter: p_spots an array of read_spot's facts with
-- verify_spot's verdict (article, verified, trusted, reason beside them).
-- Idempotent by message-id. A dispose (facts command 'dispose', target) takes
-- its target back: a trusted one always, a personal one only from the target's
-- own spotter within 5 days of it; a target read after its dispose is stored
-- disposed. The group's place moves to the batch's last article.
CREATE FUNCTION voyager.store_spots(p_group text, p_spots jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_stored   integer;
    v_disposed integer;
    v_last     bigint;
BEGIN
    WITH incoming AS (
        SELECT s, s->>'message_id' AS mid,
               CASE WHEN s->>'created' ~ '^[0-9]{1,12}$' THEN to_timestamp((s->>'created')::bigint)
                    ELSE NULL END AS posted_at
          FROM jsonb_array_elements(p_spots) s
         WHERE coalesce(s->>'message_id', '') <> ''
    ), ins AS (
        INSERT INTO voyager.spots (message_id, article, key_id, verified, trusted, title, category, subcats,
                                   newznab, description, website, size, nzb, spotter_id, posted_at, facts)
        SELECT DISTINCT ON (mid) mid,
               CASE WHEN s->>'article' ~ '^[0-9]{1,18}$' THEN (s->>'article')::bigint END,
               CASE WHEN s->>'key_id' ~ '^[0-9]{1,9}$' THEN (s->>'key_id')::integer END,
               coalesce((s->>'verified')::boolean, false),
               coalesce((s->>'verified')::boolean, false) AND coalesce((s->>'trusted')::boolean, false),
               s->>'title',
               CASE WHEN s->>'category' ~ '^[0-9]{1,9}$' THEN (s->>'category')::integer END,
               coalesce(ARRAY(SELECT jsonb_array_elements_text(
                   CASE WHEN jsonb_typeof(s->'subcats') = 'array' THEN s->'subcats' ELSE '[]' END)), '{}'),
               CASE WHEN s->>'newznab' ~ '^[0-9]{1,9}$' THEN (s->>'newznab')::integer END,
               s->>'description', s->>'website',
               CASE WHEN s->>'size' ~ '^[0-9]{1,18}$' THEN (s->>'size')::bigint END,
               coalesce(ARRAY(SELECT jsonb_array_elements_text(
                   CASE WHEN jsonb_typeof(s->'nzb') = 'array' THEN s->'nzb' ELSE '[]' END)), '{}'),
               s->>'spotter_id', posted_at, s
          FROM incoming
         ORDER BY mid
        ON CONFLICT (message_id) DO NOTHING
        RETURNING 1
    )
    SELECT count(*) INTO v_stored FROM ins;

    -- disposes: every verified dispose this batch or before whose target stands
    WITH d AS (
        UPDATE voyager.spots t SET disposed_at = now()
          FROM voyager.spots x
         WHERE x.facts->>'command' = 'dispose' AND x.verified
           AND t.message_id = x.facts->>'target' AND t.disposed_at IS NULL
           AND (x.trusted AND NOT coalesce((x.facts->>'personal')::boolean, false)
                OR coalesce((x.facts->>'personal')::boolean, false)
                   AND x.spotter_id IS NOT NULL AND x.spotter_id = t.spotter_id
                   AND x.posted_at IS NOT NULL AND t.posted_at IS NOT NULL
                   AND x.posted_at BETWEEN t.posted_at AND t.posted_at + interval '5 days')
           AND (x.message_id IN (SELECT s->>'message_id' FROM jsonb_array_elements(p_spots) s)
                OR t.message_id IN (SELECT s->>'message_id' FROM jsonb_array_elements(p_spots) s))
        RETURNING 1
    )
    SELECT count(*) INTO v_disposed FROM d;

    SELECT max((s->>'article')::bigint) INTO v_last
      FROM jsonb_array_elements(p_spots) s WHERE s->>'article' ~ '^[0-9]{1,18}$';
    IF v_last IS NOT NULL THEN
        INSERT INTO voyager.spot_reads (group_name, last_article) VALUES (p_group, v_last)
        ON CONFLICT (group_name) DO UPDATE
           SET last_article = greatest(voyager.spot_reads.last_article, EXCLUDED.last_article), read_at = now();
    END IF;
    RETURN jsonb_build_object('stored', v_stored, 'disposed', v_disposed, 'last', v_last);
END;
$$;
COMMENT ON FUNCTION voyager.store_spots(text, jsonb) IS 'The spotter''s batch: spots stored once by message-id, disposes honoured, the group''s place moved on';
COMMIT;
