-- Revert voyager:function_merge_releases from pg (the merges' lock spelled in place)
BEGIN;
-- Applies the finders' proposals (survivor, merged, via, par2 set), in one
-- transaction: a merged release points at the survivor's root (a survivor
-- merged into another hands its members on, so there is never a chain), its
-- row and chunk stay, it is hidden (verdict merged: out of every listing,
-- search and total through the hidden path), release_merges says what went
-- where, and the roots' heads are settled again (merge_settle). A proposal
-- whose merged release is already merged, is its survivor's root, or is not
-- settled changes nothing: a redo is idempotent. Merges take turns (one
-- transaction-long lock, `voyager.merges`, also unmerge_releases'): which
-- rows a merge touches depends on merges before it, so no row order alone
-- could keep two from waiting on each other; then every release it touches
-- is locked, by id, against the other writers of releases.
-- What a merge writes, for merge_releases' plain proposals at once and its
-- others one at a time: each root's own head kept before its first member
-- joins, each merged release pointed at its root, release_merges saying so.
CREATE OR REPLACE FUNCTION voyager.merge_record(p_merged bigint[], p_roots bigint[], p_via text[], p_set bytea[])
RETURNS void
LANGUAGE sql AS $$
INSERT INTO voyager.release_own_totals (release_id, posted_at, last_posted_at, first_article, last_article,
                                        segments, bytes, files, complete, has_par2, source, name,
                                        password_status, password, password_source)
SELECT r.id, r.posted_at, r.last_posted_at, r.first_article, r.last_article, r.segments, r.bytes,
       r.files, r.complete, r.has_par2, r.source, r.name, pw.status, pw.password, pw.source
  FROM (SELECT DISTINCT unnest(p_roots)) i(id)
  JOIN voyager.releases r ON r.id = i.id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id
    ON CONFLICT (release_id) DO NOTHING;
UPDATE voyager.releases m SET merged_into = x.root
  FROM unnest(p_merged, p_roots) x(merged, root) WHERE m.id = x.merged;
INSERT INTO voyager.release_merges (merged_id, survivor_id, via, set_id)
SELECT x.merged, x.root, x.via, x.set_id FROM unnest(p_merged, p_roots, p_via, p_set) x(merged, root, via, set_id)
    ON CONFLICT (merged_id) DO UPDATE
   SET survivor_id = excluded.survivor_id, via = excluded.via, set_id = excluded.set_id, merged_at = now();
$$;
COMMENT ON FUNCTION voyager.merge_record(bigint[], bigint[], text[], bytea[]) IS
    'merge_releases'' writes: the roots'' own heads kept, the merged releases pointed at their roots, release_merges';

CREATE OR REPLACE FUNCTION voyager.merge_releases(p_survivor bigint[], p_merged bigint[], p_via text[], p_set bytea[])
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_p record;
    v_root bigint;
    v_roots bigint[] := '{}';
    v_merged integer := 0;
    v_plain bigint[];
    v_via text[];
    v_set bytea[];
BEGIN
    IF cardinality(p_survivor) IS DISTINCT FROM cardinality(p_merged)
       OR cardinality(p_survivor) IS DISTINCT FROM cardinality(p_via)
       OR cardinality(p_survivor) IS DISTINCT FROM cardinality(p_set) THEN
        RAISE EXCEPTION 'merges refused: the arrays differ in length' USING ERRCODE = '22023';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('voyager.merges'));
    -- (each set by an index: the releases given, their roots, the members of those merged; and
    -- they by id: joined, a thousand ids were planned as a scan of every release)
    PERFORM 1 FROM voyager.releases r
     WHERE r.id = ANY (ARRAY(SELECT i FROM unnest(p_survivor || p_merged) i
                             UNION
                             SELECT x.merged_into FROM unnest(p_survivor || p_merged) i JOIN voyager.releases x ON x.id = i
                              WHERE x.merged_into IS NOT NULL
                             UNION
                             SELECT x.id FROM unnest(p_merged) i JOIN voyager.releases x ON x.merged_into = i))
     ORDER BY r.id FOR UPDATE;

    -- the plain proposals at once (nearly all of them): the survivor's root and the merged
    -- release settled, the merged one on its own (no members, merged nowhere), no root of
    -- another proposal, and the root merged by none; the first proposal of a release wins
    WITH p AS (
        SELECT DISTINCT ON (x.merged) x.merged, x.via, x.set_id, coalesce(s.merged_into, s.id) AS root
          FROM unnest(p_survivor, p_merged, p_via, p_set) WITH ORDINALITY AS x(survivor, merged, via, set_id, ord)
          JOIN voyager.releases s ON s.id = x.survivor AND s.settled_at IS NOT NULL
         ORDER BY x.merged, x.ord
    )
    SELECT coalesce(array_agg(p.merged), '{}'), coalesce(array_agg(p.root), '{}'),
           coalesce(array_agg(p.via), '{}'), coalesce(array_agg(p.set_id), '{}')
      INTO v_plain, v_roots, v_via, v_set
      FROM p JOIN voyager.releases m ON m.id = p.merged AND m.merged_into IS NULL AND m.settled_at IS NOT NULL
     WHERE p.root <> p.merged
       AND NOT EXISTS (SELECT FROM voyager.releases x WHERE x.merged_into = p.merged)
       AND p.merged NOT IN (SELECT q.root FROM p q)
       AND p.root NOT IN (SELECT q.merged FROM p q);
    PERFORM voyager.merge_record(v_plain, v_roots, v_via, v_set);
    v_merged := cardinality(v_plain);

    -- the rest one at a time, in order: chains within the batch, survivors merged in
    FOR v_p IN SELECT x.* FROM unnest(p_survivor, p_merged, p_via, p_set) WITH ORDINALITY AS x(survivor, merged, via, set_id, ord)
                  LEFT JOIN unnest(v_plain) y(merged) ON y.merged = x.merged
                WHERE y.merged IS NULL
                ORDER BY x.ord LOOP
        SELECT coalesce(s.merged_into, s.id) INTO v_root
          FROM voyager.releases s WHERE s.id = v_p.survivor AND s.settled_at IS NOT NULL;
        CONTINUE WHEN v_root IS NULL OR v_root = v_p.merged
             OR NOT EXISTS (SELECT FROM voyager.releases m
                             WHERE m.id = v_p.merged AND m.merged_into IS NULL AND m.settled_at IS NOT NULL);
        -- a survivor merged in: its members go to the root, its own head comes back
        IF EXISTS (SELECT FROM voyager.releases x WHERE x.merged_into = v_p.merged) THEN
            UPDATE voyager.releases x SET merged_into = v_root WHERE x.merged_into = v_p.merged;
            UPDATE voyager.release_merges rm SET survivor_id = v_root WHERE rm.survivor_id = v_p.merged;
            PERFORM voyager.merge_settle(ARRAY[v_p.merged]);
        END IF;
        PERFORM voyager.merge_record(ARRAY[v_p.merged], ARRAY[v_root], ARRAY[v_p.via], ARRAY[v_p.set_id]);
        v_roots := v_roots || v_root;
        v_merged := v_merged + 1;
    END LOOP;

    INSERT INTO voyager.release_judgements AS j (release_id, hidden, verdict)   -- (in id order, as the judge)
    SELECT x.id, true, 'merged' FROM voyager.releases x WHERE x.merged_into = ANY (v_roots) ORDER BY x.id
        ON CONFLICT (release_id) DO UPDATE SET hidden = true, verdict = 'merged', judged_at = now()
     WHERE j.verdict <> 'merged' OR NOT j.hidden;
    IF cardinality(v_roots) > 0 THEN
        PERFORM voyager.merge_settle(ARRAY(SELECT DISTINCT unnest(v_roots)));
    END IF;
    RETURN jsonb_build_object('proposed', coalesce(cardinality(p_merged), 0), 'merged', v_merged,
                              'survivors', (SELECT count(DISTINCT x) FROM unnest(v_roots) x));
END $$;
COMMENT ON FUNCTION voyager.merge_releases(bigint[], bigint[], text[], bytea[]) IS
    'Applies merge proposals (survivor, merged, via, set): merged releases hidden under their survivor''s root, heads settled; idempotent';

-- Undoes merges: each release given (a merged one, or a survivor: all of its
-- members) stands on its own again, shown again, and the survivors' heads are
-- settled anew. Returns how many releases left a survivor.
CREATE OR REPLACE FUNCTION voyager.unmerge_releases(p_ids bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_out bigint[];
    v_roots bigint[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('voyager.merges'));      -- merges take turns
    PERFORM 1 FROM voyager.releases r                                -- (by id, as merge_releases)
     WHERE r.id = ANY (ARRAY(SELECT i FROM unnest(p_ids) i
                             UNION
                             SELECT x.id FROM unnest(p_ids) i JOIN voyager.releases x ON x.merged_into = i
                             UNION
                             SELECT x.merged_into FROM unnest(p_ids) i JOIN voyager.releases x ON x.id = i
                              WHERE x.merged_into IS NOT NULL))
     ORDER BY r.id FOR UPDATE;
    SELECT coalesce(array_agg(r.id), '{}'), coalesce(array_agg(DISTINCT r.merged_into), '{}')
      INTO v_out, v_roots
      FROM (SELECT x.id, x.merged_into FROM unnest(p_ids) i JOIN voyager.releases x ON x.id = i
             WHERE x.merged_into IS NOT NULL
            UNION
            SELECT x.id, x.merged_into FROM unnest(p_ids) i JOIN voyager.releases x ON x.merged_into = i) r;
    UPDATE voyager.releases r SET merged_into = NULL WHERE r.id = ANY (v_out);
    DELETE FROM voyager.release_merges rm WHERE rm.merged_id = ANY (v_out);
    DELETE FROM voyager.release_judgements j WHERE j.release_id = ANY (v_out) AND j.verdict = 'merged';
    PERFORM voyager.merge_settle(v_roots);
    RETURN cardinality(v_out);
END $$;
COMMENT ON FUNCTION voyager.unmerge_releases(bigint[]) IS
    'Undoes merges of the releases given (or of all members of a survivor given): each on its own and shown again';
COMMIT;
