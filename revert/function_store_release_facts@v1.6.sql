-- Revert voyager:function_store_release_facts from pg: the marks under their unique key again
BEGIN;
-- What probed articles read whole give catalog releases (p_known: a jsonb
-- array of {release_id, message_id, facts}): the NFO whole (the shortest, the
-- first kept), the media ids it links to, the surest password status and the
-- first password, and the texts (probe_texts' lines merged into what the
-- release had of a kind, its old lines first, 20 a kind at most).
-- store_probes calls it for what a batch read, store_named for a pending
-- release moved into the catalog. A release merged away keeps its facts and
-- queues its survivor to be settled again (merge_settle_queue), so the
-- survivor's texts and password learn them too. Returns the rows written by kind.
CREATE OR REPLACE FUNCTION voyager.store_release_facts(p_known jsonb)
RETURNS jsonb
LANGUAGE sql AS $$
    WITH known AS (
        SELECT * FROM jsonb_to_recordset(p_known) AS k(release_id bigint, message_id text, facts jsonb)
    ), nfos AS (
        INSERT INTO voyager.release_nfos (release_id, message_id, text)
        SELECT DISTINCT ON (k.release_id) k.release_id, k.message_id, k.facts -> 'nfo' ->> 'text'
          FROM known k JOIN voyager.releases r ON r.id = k.release_id
         WHERE k.facts -> 'nfo' ->> 'text' IS NOT NULL
         ORDER BY k.release_id, length(k.facts -> 'nfo' ->> 'text')
            ON CONFLICT (release_id) DO NOTHING
        RETURNING 1
    ), ids AS (
        INSERT INTO voyager.release_media_ids (kind, value, release_id)
        SELECT DISTINCT m ->> 'site', CASE WHEN m ->> 'site' = 'imdb' THEN regexp_replace(m ->> 'id', '^tt', '') ELSE m ->> 'id' END,
               k.release_id
          FROM known k JOIN voyager.releases r ON r.id = k.release_id
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(k.facts -> 'nfo' -> 'media_ids') = 'array'
                                                      THEN k.facts -> 'nfo' -> 'media_ids' ELSE '[]' END) m
         WHERE m ->> 'site' IN ('tvdb', 'tvmaze', 'imdb', 'tmdb') AND m ->> 'id' ~ '^(tt)?[0-9]{1,12}$'
            ON CONFLICT DO NOTHING
        RETURNING 1
    ), locks AS (                             -- per release: the surest status, the first password
        SELECT k.release_id,
               CASE WHEN bool_or(coalesce((k.facts -> 'archive' ->> 'encrypted_headers')::boolean, false)
                                 OR coalesce((k.facts -> 'archive' ->> 'encrypted_files')::boolean, false)) THEN 1
                    ELSE 2 END::smallint AS status,
               (array_agg(left(coalesce(k.facts -> 'password' ->> 'value', k.facts -> 'nfo' ->> 'password'), 255))
                 FILTER (WHERE coalesce(k.facts -> 'password' ->> 'value', k.facts -> 'nfo' ->> 'password') IS NOT NULL))[1]
                 AS password
          FROM known k JOIN voyager.releases r ON r.id = k.release_id
         GROUP BY k.release_id
    ), passwords AS (
        INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
        SELECT l.release_id, l.status, l.password, CASE WHEN l.password IS NOT NULL THEN 'nfo' ELSE 'archive' END
          FROM locks l
         WHERE l.status = 1 OR l.password IS NOT NULL
            ON CONFLICT (release_id) DO UPDATE
           SET status = CASE WHEN pw.status = 1 OR excluded.status = 1 THEN 1
                             WHEN pw.status = 2 OR excluded.status = 2 THEN 2 ELSE 0 END,
               password = coalesce(pw.password, excluded.password),
               source = CASE WHEN pw.password IS NULL AND excluded.password IS NOT NULL THEN excluded.source
                             ELSE coalesce(pw.source, excluded.source) END,
               found_at = now()
        RETURNING 1
    ), resettle AS (                          -- a member that learnt late: its survivor settled again
        INSERT INTO voyager.merge_settle_queue (survivor_id)
        SELECT DISTINCT r.merged_into
          FROM known k JOIN voyager.releases r ON r.id = k.release_id
         WHERE r.merged_into IS NOT NULL
            ON CONFLICT (survivor_id) DO NOTHING
        RETURNING 1
    ), lines AS (                             -- what the facts give each release to search by
        SELECT k.release_id, t.kind, t.line, t.n
          FROM known k JOIN voyager.releases r ON r.id = k.release_id
         CROSS JOIN LATERAL voyager.probe_texts(k.facts) t
    ), touched AS (
        SELECT DISTINCT l.release_id, l.kind FROM lines l
    ), old AS (                               -- what a release had of a kind: kept first
        DELETE FROM voyager.release_texts t USING touched
         WHERE t.release_id = touched.release_id AND t.kind = touched.kind
        RETURNING t.release_id, t.kind, t.text
    ), merged AS (
        SELECT m.release_id, m.kind, m.line, min(m.at) AS at
          FROM (SELECT o.release_id, o.kind, x.line, x.n - 1000000 AS at
                  FROM old o CROSS JOIN LATERAL unnest(string_to_array(o.text, E'\n')) WITH ORDINALITY x(line, n)
                 UNION ALL
                SELECT l.release_id, l.kind, l.line, l.n FROM lines l) m
         GROUP BY m.release_id, m.kind, m.line
    ), texts AS (
        INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
        SELECT g.release_id, r.posted_at, g.kind, string_agg(g.line, E'\n' ORDER BY g.at)
          FROM (SELECT m.*, row_number() OVER (PARTITION BY m.release_id, m.kind ORDER BY m.at) AS k FROM merged m) g
          JOIN voyager.releases r ON r.id = g.release_id
         WHERE g.k <= 20
         GROUP BY g.release_id, r.posted_at, g.kind
        RETURNING 1
    )
    SELECT jsonb_build_object('nfos', (SELECT count(*) FROM nfos), 'media_ids', (SELECT count(*) FROM ids),
                              'passwords', (SELECT count(*) FROM passwords), 'texts', (SELECT count(*) FROM texts),
                              'resettle', (SELECT count(*) FROM resettle))
$$;
COMMENT ON FUNCTION voyager.store_release_facts(jsonb)
    IS 'Catalog releases'' NFOs, media ids, passwords and texts from their articles'' facts read whole';
COMMIT;
