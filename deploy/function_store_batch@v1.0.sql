-- Deploy voyager:function_store_batch to pg
BEGIN;
-- One batch of the window into the catalog, in one transaction, under the
-- group lease: refused unless the lease is current and the batch starts at the
-- range's resume point (advance_range: VY001/VY002/VY003), so a batch sent
-- twice or late changes nothing. Keys are deterministic (a redo after a
-- takeover writes the same ones): a release is inserted once; a provisional
-- one (settled_at null) is finished or rewritten by a later record of its key
-- (its chunk replaced); a finished one sent again stays as it is. Returns what
-- it did, as JSON.
CREATE FUNCTION voyager.store_batch(
    p_token uuid, p_range_id bigint, p_first_article bigint, p_next_article bigint, p_headers bigint,
    p_releases voyager.release_in[] DEFAULT '{}', p_pending voyager.pending_in[] DEFAULT '{}',
    p_counts voyager.count_in[] DEFAULT '{}', p_samples voyager.sample_in[] DEFAULT '{}',
    p_retracted bytea[] DEFAULT '{}')
RETURNS jsonb
LANGUAGE plpgsql
SET jit = off              -- a batch's statements are short: JIT compiling them cost more than running them
AS $$
DECLARE
    v_range voyager.ranges;
    v_releases integer := 0;
    v_finished integer := 0;
    v_pending integer := 0;
    v_retracted integer := 0;
    v_bad text;
    v_count_first bigint;
    v_ids bigint[];
BEGIN
    -- a malformed batch is refused whole, with the first reason (one pass over the batch)
    SELECT CASE
             WHEN count(*) FILTER (WHERE r.release_key IS NULL OR octet_length(r.release_key) <> 20) > 0
               THEN 'a release key is not 20 bytes'
             WHEN count(*) FILTER (WHERE r.identity_key IS NULL OR octet_length(r.identity_key) <> 20) > 0
               THEN 'an identity key is not 20 bytes'
             WHEN count(*) FILTER (WHERE r.name IS NULL OR r.poster IS NULL) > 0 THEN 'a release has no name or poster'
             WHEN count(*) FILTER (WHERE r.chunk IS NULL) > 0 THEN 'a release has no chunk'
             WHEN count(*) FILTER (WHERE r.files IS NULL OR r.files < 1 OR r.segments IS NULL OR r.segments < 0) > 0
               THEN 'bad file or segment counts'
             WHEN count(*) FILTER (WHERE r.groups IS NULL OR cardinality(r.groups) = 0) > 0 THEN 'a release has no groups'
             WHEN count(*) <> count(DISTINCT r.release_key) THEN 'a release key twice in one batch'
           END INTO v_bad
      FROM unnest(p_releases) r;
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'batch refused: %', v_bad USING ERRCODE = '22023';
    END IF;

    IF p_next_article IS NOT DISTINCT FROM p_first_article THEN
        -- a lease end's provisional records: the lease and the resume point checked, nothing moved
        PERFORM voyager.lease_of(p_token);
        SELECT * INTO v_range FROM voyager.ranges WHERE id = p_range_id;
        IF NOT FOUND OR v_range.next_article IS DISTINCT FROM p_first_article
           OR (SELECT range_id FROM voyager.group_leases WHERE token = p_token) IS DISTINCT FROM p_range_id THEN
            RAISE EXCEPTION 'batch refused: range % does not resume at % under this lease', p_range_id,
                p_first_article USING ERRCODE = 'VY003';
        END IF;
        -- what rules decide then (the end of the data) counts with the range's last batch
        SELECT max(b.first_article) INTO v_count_first FROM voyager.range_batches b WHERE b.range_id = p_range_id;
        IF v_count_first IS NULL AND (cardinality(p_counts) > 0 OR cardinality(p_samples) > 0) THEN
            RAISE EXCEPTION 'batch refused: counts and samples need a stored batch of the range' USING ERRCODE = '22023';
        END IF;
    ELSE
        v_range := voyager.advance_range(p_token, p_range_id, p_first_article, p_next_article, p_headers);
        v_count_first := p_first_article;
    END IF;

    -- posters and group sets by id: what is new is inserted, the rest looked up
    INSERT INTO voyager.posters (poster)
    SELECT DISTINCT r.poster FROM unnest(p_releases) r
        ON CONFLICT (poster) DO NOTHING;
    INSERT INTO voyager.group_sets (groups)
    SELECT DISTINCT r.groups FROM unnest(p_releases) r
        ON CONFLICT (groups) DO NOTHING;

    -- a provisional release written again (finished or rewritten) loses its chunk and texts first
    -- (found among the provisional ones through their partial index)
    SELECT coalesce(array_agg(x.id), '{}') INTO v_ids
      FROM voyager.releases x
     WHERE x.release_key = ANY (ARRAY(SELECT r.release_key FROM unnest(p_releases) r)) AND x.settled_at IS NULL;
    IF cardinality(v_ids) > 0 THEN
        DELETE FROM voyager.release_chunks c USING voyager.releases x
         WHERE x.id = ANY (v_ids) AND c.month = voyager.chunk_month(x.posted_at) AND c.release_id = x.id;
        DELETE FROM voyager.release_texts t WHERE t.release_id = ANY (v_ids) AND t.kind IN (1, 6);
    END IF;

    -- one statement writes the rows, the chunks, the texts and the probe candidates, the batch
    -- unpacked once
    WITH incoming AS MATERIALIZED (
        SELECT r.*, p.id AS poster_id, gs.id AS group_set_id
          FROM unnest(p_releases) r
          JOIN voyager.posters p ON p.poster = r.poster
          JOIN voyager.group_sets gs ON gs.groups = r.groups
    ), rewritten AS (                         -- a provisional release finished or rewritten
        UPDATE voyager.releases x
           SET last_posted_at = to_timestamp(i.last_posted_at), last_article = i.last_article,
               segments = i.segments, bytes = i.bytes, settled_at = CASE WHEN i.finished THEN now() END,
               group_set_id = i.group_set_id, file_total = i.file_total, files = i.files,
               complete = i.complete, has_par2 = i.has_par2, edge = coalesce(i.edge, false)
          FROM incoming i
         WHERE x.id = ANY (v_ids) AND x.release_key = i.release_key   -- a finished release stays as it is
        RETURNING x.id, x.release_key, x.settled_at IS NOT NULL AS finished, x.posted_at AS stored_at
    ), inserted AS (
        INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                                      settled_at, group_id, group_set_id, poster_id, file_total, files, source,
                                      complete, has_par2, edge, release_key, identity_key, name, category)
        SELECT to_timestamp(i.posted_at), to_timestamp(i.last_posted_at), i.first_article, i.last_article,
               i.segments, i.bytes, CASE WHEN i.finished THEN now() END, v_range.group_id, i.group_set_id,
               i.poster_id, i.file_total, i.files, i.source, i.complete, i.has_par2, coalesce(i.edge, false),
               i.release_key, i.identity_key, i.name, voyager.category_of(i.name, i.groups)
          FROM incoming i
         WHERE NOT EXISTS (SELECT 1 FROM voyager.releases x WHERE x.release_key = i.release_key)
        RETURNING id, release_key, settled_at IS NOT NULL AS finished, posted_at AS stored_at
    ), written AS (
        SELECT w.id, w.finished, w.stored_at, i.posted_at, i.chunk, i.name, i.members, i.candidates
          FROM (SELECT * FROM rewritten UNION ALL SELECT * FROM inserted) w
          JOIN incoming i ON i.release_key = w.release_key
    ), chunks AS (
        INSERT INTO voyager.release_chunks (release_id, month, chunk)
        SELECT w.id, voyager.chunk_month(to_timestamp(w.posted_at)), w.chunk
          FROM written w
    ), texts AS (                             -- the name (kind 1) and an album's members (kind 6, a line each)
        INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
        SELECT w.id, w.stored_at, k.kind, k.text
          FROM written w
         CROSS JOIN LATERAL (VALUES (1::smallint, left(w.name, 255)), (6::smallint, left(w.members, 5400))) k(kind, text)
         WHERE k.text <> ''
    ), candidates AS (                        -- (kind, message-id, file index) triples
        INSERT INTO voyager.probe_candidates AS pc (release_id, kind, message_id, file_index)
        SELECT w.id, w.candidates[3 * k + 1], w.candidates[3 * k + 2], w.candidates[3 * k + 3]::integer
          FROM written w
         CROSS JOIN LATERAL generate_series(0, coalesce(array_length(w.candidates, 1), 0) / 3 - 1) k
            ON CONFLICT (release_id, kind) DO UPDATE SET message_id = excluded.message_id,
                                                         file_index = excluded.file_index
    )
    SELECT count(*), count(*) FILTER (WHERE w.finished) INTO v_releases, v_finished FROM written w;

    -- pending releases (decision f): outside the catalog
    INSERT INTO voyager.pending_releases AS x (release_key, identity_key, posted_at, last_posted_at, first_article,
                                               last_article, segments, bytes, group_id, files, file_total, finished,
                                               complete, tool, poster, name, candidates)
    SELECT p.release_key, p.identity_key, to_timestamp(p.posted_at), to_timestamp(p.last_posted_at),
           p.first_article, p.last_article, p.segments, p.bytes, v_range.group_id, p.files, p.file_total,
           p.finished, p.complete, p.tool, p.poster, p.name, p.candidates
      FROM unnest(p_pending) p
        ON CONFLICT (release_key) DO UPDATE
       SET last_posted_at = excluded.last_posted_at, last_article = excluded.last_article,
           segments = excluded.segments, bytes = excluded.bytes, files = excluded.files,
           file_total = excluded.file_total, finished = excluded.finished, complete = excluded.complete,
           candidates = excluded.candidates
     WHERE NOT x.finished;
    GET DIAGNOSTICS v_pending = ROW_COUNT;

    -- what the rules counted and sampled, by this batch
    INSERT INTO voyager.rule_counts AS x (range_id, first_article, rule, key, articles, files, releases)
    SELECT p_range_id, v_count_first, c.rule, c.key, sum(c.articles), sum(c.files), sum(c.releases)
      FROM unnest(p_counts) c GROUP BY c.rule, c.key
        ON CONFLICT (range_id, first_article, rule, key) DO UPDATE
       SET articles = x.articles + excluded.articles, files = x.files + excluded.files,
           releases = x.releases + excluded.releases;
    INSERT INTO voyager.rule_samples (range_id, first_article, release_key, rule, key, sample)
    SELECT p_range_id, v_count_first, s.release_key, s.rule, s.key, s.sample FROM unnest(p_samples) s
        ON CONFLICT DO NOTHING;

    -- a provisional release the rules dropped once it settled: the row and what hangs on it
    WITH gone AS (
        DELETE FROM voyager.releases WHERE release_key = ANY (p_retracted) AND settled_at IS NULL
        RETURNING id, posted_at
    ), chunks AS (
        DELETE FROM voyager.release_chunks c USING gone
         WHERE c.month = voyager.chunk_month(gone.posted_at) AND c.release_id = gone.id
    ), texts AS (
        DELETE FROM voyager.release_texts t USING gone WHERE t.release_id = gone.id
    ), candidates AS (
        DELETE FROM voyager.probe_candidates pc USING gone WHERE pc.release_id = gone.id
    ), pending AS (                           -- a provisional pending release goes the same way
        DELETE FROM voyager.pending_releases p WHERE p.release_key = ANY (p_retracted) AND NOT p.finished
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) + (SELECT count(*) FROM pending) INTO v_retracted;

    RETURN jsonb_build_object('range', v_range.id, 'next_article', v_range.next_article,
                              'status', v_range.status, 'releases', v_releases, 'finished', v_finished,
                              'pending', v_pending, 'retracted', v_retracted);
END $$;
COMMENT ON FUNCTION voyager.store_batch(uuid, bigint, bigint, bigint, bigint, voyager.release_in[],
    voyager.pending_in[], voyager.count_in[], voyager.sample_in[], bytea[])
    IS 'Stores one window batch at the range''s resume point, in one transaction; refuses it otherwise';
COMMIT;
