-- Deploy voyager:function_store_named to pg
BEGIN;
-- The namer's move: a named pending release under its claim's current token
-- into the catalog as the window read it again (p_release: its segments'
-- chunk, files, counts), under the pending release's key and the name the
-- ladder decided (source: how). Its texts are the name and what its probes
-- read, with its NFO, media ids and password (store_release_facts, as
-- store_probes gives a catalog release), its category release_categories', its probe targets
-- and file hashes now the catalog release's. The pending row stays, named
-- and in the catalog, with the release's id. p_release NULL (the re-read
-- found none of its articles: expired) ends it exhausted. Its posting span
-- is the pending row's: the first pass read it with the group's frontier,
-- which stands in for impossible Dates that a re-read of the span alone keeps.
-- Returns the release's id; NULL when the claim is not current (taken over, or done).
CREATE FUNCTION voyager.store_named(p_claim uuid, p_release voyager.release_in)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v voyager.pending_releases;
    v_id bigint;
    v_posted timestamptz;
BEGIN
    SELECT * INTO v FROM voyager.pending_releases p WHERE p.claim = p_claim AND p.status = 5 FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF p_release IS NULL OR p_release.chunk IS NULL THEN
        UPDATE voyager.pending_releases p
           SET status = 3, claim = NULL, taken_by = NULL, expires_at = NULL, decided_at = now()
         WHERE p.release_key = v.release_key;
        RETURN NULL;
    END IF;
    IF p_release.release_key IS DISTINCT FROM v.release_key THEN
        RAISE EXCEPTION 'move refused: the release read again is not the pending release claimed'
            USING ERRCODE = '22023';
    END IF;
    IF p_release.poster IS NULL OR cardinality(p_release.groups) IS NOT DISTINCT FROM 0
       OR coalesce(p_release.files, 0) < 1 THEN
        RAISE EXCEPTION 'move refused: a release needs a poster, groups and files' USING ERRCODE = '22023';
    END IF;

    v_posted := coalesce(v.posted_at, to_timestamp(p_release.posted_at));
    INSERT INTO voyager.posters (poster) VALUES (p_release.poster) ON CONFLICT (poster) DO NOTHING;
    INSERT INTO voyager.group_sets (groups) VALUES (p_release.groups) ON CONFLICT (groups) DO NOTHING;
    INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                                  settled_at, group_id, group_set_id, poster_id, file_total, files, source,
                                  complete, has_par2, edge, release_key, identity_key, name, category, readable)
    SELECT v_posted, coalesce(v.last_posted_at, to_timestamp(p_release.last_posted_at)), p_release.first_article,
           p_release.last_article, p_release.segments, p_release.bytes, now(), v.group_id, gs.id, po.id,
           p_release.file_total, p_release.files, v.name_source, p_release.complete, p_release.has_par2, false,
           v.release_key, p_release.identity_key, v.named, voyager.category_of(v.named, p_release.groups), true
      FROM voyager.posters po, voyager.group_sets gs
     WHERE po.poster = p_release.poster AND gs.groups = p_release.groups
    RETURNING id INTO v_id;

    INSERT INTO voyager.release_chunks (release_id, month, chunk)
    VALUES (v_id, voyager.chunk_month(v_posted), p_release.chunk);

    -- the name, then what its probes read: texts, NFO, media ids, password
    INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
    VALUES (v_id, v_posted, 1, left(v.named, 255));
    PERFORM voyager.store_release_facts(coalesce(jsonb_agg(jsonb_build_object(
                'release_id', v_id, 'message_id', c.message_id, 'facts', c.facts)), '[]'))
       FROM voyager.probe_candidates pc
       JOIN voyager.probe_cache c ON c.message_id = pc.message_id AND c.status = 0
      WHERE pc.pending_key = v.release_key AND jsonb_typeof(c.facts) = 'object';

    UPDATE voyager.releases r SET category = c.category
      FROM voyager.release_categories(ARRAY[v_id]) c
     WHERE r.id = c.id AND r.category IS DISTINCT FROM c.category;
    UPDATE voyager.probe_candidates pc SET release_id = v_id, pending_key = NULL WHERE pc.pending_key = v.release_key;
    UPDATE voyager.file_hashes h SET release_id = v_id, pending_key = NULL WHERE h.pending_key = v.release_key;
    UPDATE voyager.pending_releases p
       SET status = 1, release_id = v_id, claim = NULL, taken_by = NULL, expires_at = NULL
     WHERE p.release_key = v.release_key;
    RETURN v_id;
END $$;
COMMENT ON FUNCTION voyager.store_named(uuid, voyager.release_in)
    IS 'The namer''s move: a claimed named pending release into the catalog as read again (row, chunk, texts, category); returns its id';
COMMIT;
