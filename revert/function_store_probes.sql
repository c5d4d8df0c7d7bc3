-- Revert voyager:function_store_probes from pg: the texts written inline again
BEGIN;
-- A batch of the prober's results in one call (a jsonb array, one object a
-- claimed target: claim, release_id or pending_key (hex), kind, message_id,
-- status ok | dead | failed | retry | cached, error, bytes, facts as
-- workers/probe.read_article gives them). Only a result under its claim's
-- current token counts: one for a claim taken over (or already answered)
-- changes nothing. `retry` (the fetch failed, not the article) puts the
-- target back after a pause of a minute an attempt; `cached` takes what the
-- probe cache knows. The rest goes into the probe cache by message-id (a
-- reader's error makes it failed, with the reason) and, when read whole, into
-- the facts' tables: file_hashes, par2_sets and par2_files for any release;
-- for a catalog release also its texts (kinds 2 archive entries, 3 the NFO's
-- title, 4 the par2 set's name, 5 the media title; at most 20 lines a kind),
-- its NFO, its media IDs and its password status. A pending release's facts
-- stay in the probe cache until it is named. A malformed batch is refused
-- whole (22023).
CREATE OR REPLACE FUNCTION voyager.store_probes(p_node text, p_results jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
    v_bad text;
    v_live jsonb;
    v_stale integer;
    v_retry integer;
    v_out jsonb;
BEGIN
    IF jsonb_typeof(p_results) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'probes refused: not a jsonb array' USING ERRCODE = '22023';
    END IF;
    SELECT CASE
             WHEN count(*) FILTER (WHERE jsonb_typeof(e) <> 'object') > 0 THEN 'a result is not an object'
             WHEN count(*) FILTER (WHERE e ->> 'claim' IS NULL OR e ->> 'kind' IS NULL) > 0 THEN 'a result without its claim or kind'
             WHEN count(*) FILTER (WHERE (e ->> 'release_id' IS NULL) = (e ->> 'pending_key' IS NULL)) > 0
               THEN 'a result needs a release_id or a pending_key'
             WHEN count(*) FILTER (WHERE coalesce(e ->> 'status', '') NOT IN ('ok', 'dead', 'failed', 'retry', 'cached')) > 0
               THEN 'a status is not ok, dead, failed, retry or cached'
             WHEN count(*) FILTER (WHERE e ->> 'pending_key' !~ '^[0-9a-f]{40}$') > 0 THEN 'a pending_key is not 40 hex'
             WHEN count(*) FILTER (WHERE e ->> 'claim' !~ '^[0-9a-f-]{36}$') > 0 THEN 'a claim is not a uuid'
           END INTO v_bad
      FROM jsonb_array_elements(p_results) e;
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'probes refused: %', v_bad USING ERRCODE = '22023';
    END IF;

    -- the results under their claim's current token, marked: answered, or back after a pause
    WITH r AS (                               -- `cached` without a cache row (it went): fetched again
        SELECT x.claim, x.release_id, decode(x.pending_key, 'hex') AS pending_key, x.kind,
               CASE WHEN x.status = 'cached' AND NOT EXISTS (SELECT 1 FROM voyager.probe_cache c
                                                             WHERE c.message_id = x.message_id)
                    THEN 'retry' ELSE x.status END AS status,
               left(x.error, 200) AS error, x.bytes, x.facts
          FROM jsonb_to_recordset(p_results) AS x(claim uuid, release_id bigint, pending_key text, kind text,
                                                   message_id text, status text, error text, bytes integer,
                                                   facts jsonb)
    ), catalog AS (
        UPDATE voyager.probe_candidates pc
           SET probed_at = CASE WHEN r.status <> 'retry' THEN now() END,
               expires_at = CASE WHEN r.status = 'retry' THEN now() + make_interval(mins => pc.attempts) END
          FROM r
         WHERE r.release_id IS NOT NULL AND pc.release_id = r.release_id AND pc.kind = r.kind
           AND pc.claim = r.claim AND pc.probed_at IS NULL
        RETURNING pc.release_id, pc.pending_key, pc.kind, pc.message_id, pc.file_index, r.status, r.error, r.bytes, r.facts
    ), pending AS (
        UPDATE voyager.probe_candidates pc
           SET probed_at = CASE WHEN r.status <> 'retry' THEN now() END,
               expires_at = CASE WHEN r.status = 'retry' THEN now() + make_interval(mins => pc.attempts) END
          FROM r
         WHERE r.pending_key IS NOT NULL AND pc.pending_key = r.pending_key AND pc.kind = r.kind
           AND pc.claim = r.claim AND pc.probed_at IS NULL
        RETURNING pc.release_id, pc.pending_key, pc.kind, pc.message_id, pc.file_index, r.status, r.error, r.bytes, r.facts
    ), done AS (
        SELECT * FROM catalog UNION ALL SELECT * FROM pending
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'release_id', d.release_id, 'pending_key', encode(d.pending_key, 'hex'), 'kind', d.kind,
               'message_id', d.message_id, 'file_index', d.file_index,
               -- what the article is: a fresh answer (a reader's error fails it), or the cache's
               'fresh', d.status <> 'cached',
               'status', CASE d.status WHEN 'cached' THEN c.status
                                       WHEN 'dead' THEN 1 WHEN 'failed' THEN 2
                                       ELSE CASE WHEN d.facts ->> 'error' IS NULL THEN 0 ELSE 2 END END,
               'error', CASE d.status WHEN 'cached' THEN c.error
                                      ELSE coalesce(d.error, left(d.facts ->> 'error', 200)) END,
               'bytes', CASE WHEN d.status = 'cached' THEN c.bytes ELSE d.bytes END,
               'facts', CASE WHEN d.status = 'cached' THEN c.facts ELSE d.facts END))
             FILTER (WHERE d.status <> 'retry'), '[]'),
           count(*) FILTER (WHERE d.status = 'retry')
      INTO v_live, v_retry
      FROM done d
      LEFT JOIN voyager.probe_cache c ON d.status = 'cached' AND c.message_id = d.message_id;
    v_stale := jsonb_array_length(p_results) - jsonb_array_length(v_live) - v_retry;

    WITH live AS (
        SELECT * FROM jsonb_to_recordset(v_live) AS x(release_id bigint, pending_key text, kind text, message_id text,
                                                      file_index integer, fresh boolean, status smallint, error text,
                                                      bytes integer, facts jsonb)
    ), known AS (                             -- facts of articles read whole
        SELECT l.release_id, decode(l.pending_key, 'hex') AS pending_key, l.kind, l.message_id, l.file_index, l.facts
          FROM live l WHERE l.status = 0 AND jsonb_typeof(l.facts) = 'object'
    ), cache AS (
        INSERT INTO voyager.probe_cache AS c (message_id, kind, status, error, bytes, facts)
        SELECT DISTINCT ON (l.message_id) l.message_id, l.kind, l.status, l.error, l.bytes, l.facts
          FROM live l WHERE l.fresh
         ORDER BY l.message_id, l.status
            ON CONFLICT (message_id) DO UPDATE
           SET kind = excluded.kind, status = excluded.status, error = excluded.error, bytes = excluded.bytes,
               facts = excluded.facts, probed_at = now()
        RETURNING 1
    ), hashes AS (
        INSERT INTO voyager.file_hashes AS h (message_id, md5_16k, size, release_id, pending_key, file_index)
        SELECT DISTINCT ON (k.message_id) k.message_id, decode(k.facts -> 'start' ->> 'md5_16k', 'hex'),
               (k.facts -> 'start' ->> 'size')::bigint, k.release_id, k.pending_key, k.file_index
          FROM known k
         WHERE k.facts -> 'start' ->> 'md5_16k' ~ '^[0-9a-f]{32}$' AND jsonb_typeof(k.facts -> 'start' -> 'size') = 'number'
            ON CONFLICT (message_id) DO UPDATE
           SET release_id = excluded.release_id, pending_key = excluded.pending_key, file_index = excluded.file_index
        RETURNING 1
    ), sets AS (
        SELECT DISTINCT ON (k.facts -> 'par2' ->> 'set_id') decode(k.facts -> 'par2' ->> 'set_id', 'hex') AS set_id,
               k.facts -> 'par2' ->> 'creator' AS creator, k.facts -> 'par2' -> 'files' AS files, k.message_id
          FROM known k
         WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$' AND jsonb_typeof(k.facts -> 'par2' -> 'files') = 'array'
    ), set_rows AS (
        INSERT INTO voyager.par2_sets (set_id, creator, name, files, message_id)
        SELECT s.set_id, left(s.creator, 255),
               (SELECT left(f ->> 'name', 255) FROM jsonb_array_elements(s.files) f
                 ORDER BY (f ->> 'size')::bigint DESC NULLS LAST, f ->> 'name' LIMIT 1),
               jsonb_array_length(s.files), s.message_id
          FROM sets s
            ON CONFLICT (set_id) DO NOTHING
        RETURNING 1
    ), file_rows AS (
        INSERT INTO voyager.par2_files (set_id, file_id, name, size, md5_16k, md5)
        SELECT DISTINCT ON (s.set_id, f ->> 'file_id') s.set_id, decode(f ->> 'file_id', 'hex'), f ->> 'name',
               (f ->> 'size')::bigint, decode(f ->> 'md5_16k', 'hex'), decode(f ->> 'md5', 'hex')
          FROM sets s CROSS JOIN LATERAL jsonb_array_elements(s.files) f
         WHERE f ->> 'file_id' ~ '^[0-9a-f]{32}$' AND f ->> 'md5_16k' ~ '^[0-9a-f]{32}$'
           AND f ->> 'md5' ~ '^[0-9a-f]{32}$' AND f ->> 'name' IS NOT NULL AND jsonb_typeof(f -> 'size') = 'number'
            ON CONFLICT DO NOTHING
        RETURNING 1
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
    ), lines AS (                             -- what the facts give each release to search by
        SELECT k.release_id, t.kind, left(t.line, 255) AS line, t.n
          FROM known k JOIN voyager.releases r ON r.id = k.release_id
         CROSS JOIN LATERAL (
               SELECT 2::smallint, e ->> 'name', n FROM jsonb_array_elements(
                      CASE WHEN jsonb_typeof(k.facts -> 'archive' -> 'entries') = 'array'
                           THEN k.facts -> 'archive' -> 'entries' ELSE '[]' END) WITH ORDINALITY a(e, n)
               UNION ALL SELECT 3::smallint, k.facts -> 'nfo' ->> 'title', 1
               UNION ALL SELECT 4::smallint, (SELECT f ->> 'name' FROM jsonb_array_elements(
                      CASE WHEN jsonb_typeof(k.facts -> 'par2' -> 'files') = 'array'
                           THEN k.facts -> 'par2' -> 'files' ELSE '[]' END) f
                      ORDER BY (f ->> 'size')::bigint DESC NULLS LAST, f ->> 'name' LIMIT 1), 1
               UNION ALL SELECT 5::smallint, k.facts -> 'media' ->> 'title', 1
         ) t(kind, line, n)
         WHERE t.line IS NOT NULL AND btrim(t.line) <> ''
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
    SELECT jsonb_build_object(
               'stored', (SELECT count(*) FROM live), 'stale', v_stale, 'retry', v_retry,
               'read', (SELECT count(*) FROM live WHERE status = 0),
               'dead', (SELECT count(*) FROM live WHERE status = 1),
               'failed', (SELECT count(*) FROM live WHERE status = 2),
               'cached', (SELECT count(*) FROM live WHERE NOT fresh),
               'hashes', (SELECT count(*) FROM hashes), 'par2_sets', (SELECT count(*) FROM set_rows),
               'par2_files', (SELECT count(*) FROM file_rows), 'nfos', (SELECT count(*) FROM nfos),
               'media_ids', (SELECT count(*) FROM ids), 'passwords', (SELECT count(*) FROM passwords),
               'texts', (SELECT count(*) FROM texts), 'cache', (SELECT count(*) FROM cache))
      INTO v_out;
    RETURN v_out;
END $$;
COMMENT ON FUNCTION voyager.store_probes(text, jsonb)
    IS 'Stores a batch of probe results in one call: the claims answered, the probe cache, and what the articles showed';
COMMIT;
