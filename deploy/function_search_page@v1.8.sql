-- Deploy voyager:function_search_page to pg: the page's end in 64 bits
-- The one search planner: a search's total and page from its query (a jsonb
-- of what the web parsed), the way to them decided here and nothing written.
--   words alone (nothing asked of the release row): search_words_page;
--   categories alone, or nothing: search_newest_page;
--   anything else: its total known (p_total), or the first page collected
--   with up to p_probe (500) matches (a total past that is counted apart: a common
--   word), or shared by the web's processes (kept_search_total under
--   p_shared, the query's hash, at p_state), or counted; its page from the
--   matches or walked newest first (search_walk_pays).
-- Whole words that match nothing are asked again as substrings (the trigram
-- index: `harb` finds Harbor), with p_substring_total and p_substring_shared.
-- `substrings`: the answer is the substrings'. `kept` tells the web how it came by a total it may keep: 'probed' and
-- 'shared' (its process's cache), 'counted' (that and the shared one, at
-- `state`): keeping is the web's call of its own. `promote`: the word is
-- common now (voyager.ask_search_promotion). p_plan forces a way (the tests'
-- agreement of the plans): 'first', 'count', 'matches', 'walk', 'months', 'days'.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_page(p_query jsonb, p_limit integer, p_offset integer,
                                    p_total bigint DEFAULT NULL, p_shared bytea DEFAULT NULL,
                                    p_substring_total bigint DEFAULT NULL, p_substring_shared bytea DEFAULT NULL,
                                    p_state bigint DEFAULT NULL, p_plan text DEFAULT NULL,
                                    p_probe integer DEFAULT NULL, p_releases bigint DEFAULT NULL)
RETURNS TABLE (total bigint, kept text, state bigint, plan text, substrings boolean, promote boolean,
               release_id bigint, posted_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_words text[] := ARRAY(SELECT jsonb_array_elements_text(coalesce(p_query -> 'words', '[]')));
    v_cats integer[] := ARRAY(SELECT c::integer FROM jsonb_array_elements_text(coalesce(p_query -> 'cats', '[]')) c
                               ORDER BY 1);
    v_excluded text[];
    v_groups text[];
    v_ep_likes text[];
    v_ep_regex text := p_query ->> 'episode_regex';
    v_judged boolean := coalesce((p_query ->> 'judged')::boolean, false);
    v_substring boolean := coalesce((p_query ->> 'substring')::boolean, false);
    v_episode boolean := p_query ->> 'episode_regex' IS NOT NULL;
    v_conds text[];
    v_hidden_only integer;
    v_text text[];
    v_probe text[];
    v_indexed boolean;
    v_where text;
    v_tm text;
    v_total bigint;
    v_kept text;
    v_shared bytea;
    v_state bigint;
    v_plan text;
    v_promote boolean := false;
    v_probed bigint;
    v_probe_max integer := coalesce(p_probe, 500);    -- a first page's matches at most
    v_ids bigint[];
    v_at timestamptz[];
    v_m jsonb;
    v_r record;
    i integer;
BEGIN
    IF p_plan IS NULL AND NOT v_substring AND NOT v_episode AND p_query ->> 'maxage_days' IS NULL
       AND p_query ->> 'minsize' IS NULL AND p_query ->> 'maxsize' IS NULL AND coalesce(p_query ->> 'poster', '') = ''
       AND p_query ->> 'complete' IS NULL AND p_query ->> 'passworded' IS NULL
       AND coalesce(p_query -> 'groups', '[]') = '[]' AND coalesce(p_query -> 'media_ids', '[]') = '[]'
       AND coalesce(p_query -> 'excluded', '[]') = '[]' THEN
        -- nothing asked of the release row but (for the newest) its categories:
        -- decided first, the clients' word searches and polls
        IF cardinality(v_words) > 0 AND cardinality(v_cats) = 0 THEN
            -- words alone: the texts find and order the matches
            FOR v_r IN SELECT * FROM voyager.search_words_page(array_to_string(v_words, ' '), p_limit, p_offset, v_judged) LOOP
                EXIT WHEN v_r.total = 0;
                total := v_r.total; plan := 'words'; substrings := false; promote := v_r.promote;
                release_id := v_r.release_id; posted_at := v_r.posted_at;
                RETURN NEXT;
            END LOOP;
            IF total IS NOT NULL THEN
                RETURN;
            END IF;
            v_substring := true;            -- no whole word matched: the words as substrings, below
        ELSIF cardinality(v_words) = 0 AND NOT v_judged THEN
            -- categories alone, or nothing: the newest
            RETURN QUERY SELECT n.total, NULL::text, NULL::bigint, 'newest'::text, false, false, n.release_id, n.posted_at
                           FROM voyager.search_newest_page(nullif(v_cats, '{}'), p_limit, p_offset) n;
            RETURN;
        END IF;
    END IF;
    v_excluded := ARRAY(SELECT jsonb_array_elements_text(coalesce(p_query -> 'excluded', '[]')));
    v_groups := ARRAY(SELECT jsonb_array_elements_text(coalesce(p_query -> 'groups', '[]')));
    v_ep_likes := ARRAY(SELECT jsonb_array_elements_text(coalesce(p_query -> 'episode_likes', '[]')));
    LOOP
        v_total := NULL; v_kept := NULL; v_state := NULL; v_plan := NULL; v_promote := false;
        v_ids := '{}'; v_at := '{}';
        -- what is asked of the release row
        v_conds := '{}';
        IF NOT v_judged THEN
            v_conds := v_conds || 'NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)'::text;
        END IF;
        v_hidden_only := cardinality(v_conds);
        IF cardinality(v_cats) > 0 THEN
            -- a release not categorised yet is found under search_category's
            v_conds := v_conds || CASE WHEN voyager.search_category(NULL) = ANY (v_cats)
                THEN format('(r.category = ANY(%L::integer[]) OR r.category IS NULL)', v_cats)
                ELSE format('r.category = ANY(%L::integer[])', v_cats) END;
        END IF;
        IF p_query ->> 'maxage_days' IS NOT NULL THEN
            v_conds := v_conds || format('r.posted_at >= now() - make_interval(days => %L)', (p_query ->> 'maxage_days')::integer);
        END IF;
        IF p_query ->> 'minsize' IS NOT NULL THEN
            v_conds := v_conds || format('r.bytes >= %L', (p_query ->> 'minsize')::bigint);
        END IF;
        IF p_query ->> 'maxsize' IS NOT NULL THEN
            v_conds := v_conds || format('r.bytes <= %L', (p_query ->> 'maxsize')::bigint);
        END IF;
        IF cardinality(v_groups) > 0 THEN
            v_conds := v_conds || format('r.group_set_id = ANY (ARRAY(SELECT gs.id FROM voyager.group_sets gs WHERE gs.groups && %L::text[]))', v_groups);
        END IF;
        IF coalesce(p_query ->> 'poster', '') <> '' THEN
            v_conds := v_conds || format('r.poster_id = ANY (ARRAY(SELECT po.id FROM voyager.posters po WHERE po.poster ILIKE %L))',
                                         voyager.search_like(p_query ->> 'poster'));
        END IF;
        IF p_query ->> 'complete' IS NOT NULL THEN
            v_conds := v_conds || format('r.complete = %L', (p_query ->> 'complete')::boolean);
        END IF;
        IF (p_query ->> 'passworded')::boolean THEN
            v_conds := v_conds || 'EXISTS (SELECT 1 FROM voyager.release_passwords pw WHERE pw.release_id = r.id AND pw.status > 0)'::text;
        ELSIF NOT (p_query ->> 'passworded')::boolean THEN
            v_conds := v_conds || 'NOT EXISTS (SELECT 1 FROM voyager.release_passwords pw WHERE pw.release_id = r.id AND pw.status > 0)'::text;
        END IF;
        FOR v_m IN SELECT * FROM jsonb_array_elements(coalesce(p_query -> 'media_ids', '[]')) LOOP
            v_conds := v_conds || format('r.id IN (SELECT m.release_id FROM voyager.release_media_ids m WHERE m.kind = %L AND m.value = %L)',
                                         v_m ->> 0, v_m ->> 1);
        END LOOP;
        IF cardinality(v_excluded) > 0 THEN
            IF v_substring THEN
                v_conds := v_conds || ARRAY(SELECT format('r.name NOT ILIKE %L', voyager.search_like(x))
                                              FROM unnest(v_excluded) WITH ORDINALITY x(x, n) ORDER BY n);
            ELSE
                v_conds := v_conds || format('NOT voyager.search_words(r.name) && voyager.search_words(%L)',
                                             array_to_string(v_excluded, ' '));
            END IF;
        END IF;
        IF v_episode THEN
            v_conds := v_conds || format('r.name ~* %L', v_ep_regex);
        END IF;
        -- what is asked of the texts (`t`), and the walk's probe of one release's
        v_text := '{}'; v_probe := '{}';
        IF cardinality(v_words) > 0 AND NOT v_substring THEN
            -- none of the words as search_words splits them would match every text: none
            v_text := v_text || format('voyager.search_terms(t.text, t.posted_at) @> voyager.search_words(%1$L) '
                                       'AND cardinality(voyager.search_words(%1$L)) > 0', array_to_string(v_words, ' '));
            -- a cheap substring test first where it is sound (letters and digits
            -- as search_words keeps them), so a text's words are split only for
            -- the texts that may match
            v_probe := ARRAY(SELECT format('t.text ILIKE %L', voyager.search_like(w))
                               FROM unnest(v_words) WITH ORDINALITY x(w, n) WHERE w ~ '^[a-z0-9]{1,64}$' ORDER BY n);
        END IF;
        IF v_substring THEN
            -- short words have no trigram: kept out of the index's reach (a
            -- trigram-less pattern would make the index read everything), checked
            -- on the rows found
            v_text := v_text || ARRAY(SELECT format(CASE WHEN length(w) >= 3 THEN 't.text ILIKE %L'
                                                         ELSE '(t.text || '''') ILIKE %L' END, voyager.search_like(w))
                                        FROM unnest(v_words) WITH ORDINALITY x(w, n) ORDER BY n);
        END IF;
        v_indexed := EXISTS (SELECT 1 FROM unnest(v_words) w WHERE NOT v_substring OR length(w) >= 3);
        IF v_episode AND NOT v_indexed THEN
            v_text := v_text || format('t.text ILIKE ANY(%L::text[])', v_ep_likes);
        END IF;

        IF cardinality(v_words) > 0 AND NOT v_substring AND NOT v_episode AND cardinality(v_conds) = v_hidden_only
           AND (p_plan IS NULL OR p_plan IN ('matches', 'months', 'days')) THEN
            -- words alone: the texts find and order the matches
            v_plan := coalesce(p_plan, 'words');
            SELECT min(w.total), coalesce(bool_or(w.promote), false),
                   coalesce(array_agg(w.release_id ORDER BY w.posted_at DESC, w.release_id DESC)
                                FILTER (WHERE w.release_id IS NOT NULL), '{}'),
                   coalesce(array_agg(w.posted_at ORDER BY w.posted_at DESC, w.release_id DESC)
                                FILTER (WHERE w.release_id IS NOT NULL), '{}')
              INTO v_total, v_promote, v_ids, v_at
              FROM voyager.search_words_page(array_to_string(v_words, ' '), p_limit, p_offset, v_judged, p_plan) w;
        ELSIF cardinality(v_words) = 0 AND NOT v_judged AND NOT v_substring AND p_plan IS NULL
              AND cardinality(v_conds) = 1 + (cardinality(v_cats) > 0)::integer THEN
            -- categories alone, or nothing: the newest
            v_plan := 'newest';
            SELECT min(n.total),
                   coalesce(array_agg(n.release_id ORDER BY n.posted_at DESC, n.release_id DESC)
                                FILTER (WHERE n.release_id IS NOT NULL), '{}'),
                   coalesce(array_agg(n.posted_at ORDER BY n.posted_at DESC, n.release_id DESC)
                                FILTER (WHERE n.release_id IS NOT NULL), '{}')
              INTO v_total, v_ids, v_at
              FROM voyager.search_newest_page(nullif(v_cats, '{}'), p_limit, p_offset) n;
        ELSE
            v_total := CASE WHEN p_plan IS NULL THEN CASE WHEN v_substring THEN p_substring_total ELSE p_total END END;
            IF v_total IS NULL AND cardinality(v_text) > 0 AND (p_plan IS NULL OR p_plan = 'first') THEN
                -- a total not known yet: up to p_probe matches collected once for
                -- both the total and the page; the texts' matches read from the
                -- index lazily, each probing its release
                v_where := array_to_string('r.id = tm.release_id'::text || v_conds, ' AND ');
                EXECUTE format($q$
                    WITH tm AS MATERIALIZED (SELECT t.release_id FROM voyager.release_texts t WHERE %s),
                         m0 AS MATERIALIZED (SELECT x.id, x.posted_at FROM tm, LATERAL (
                             SELECT r.id, r.posted_at FROM voyager.releases r WHERE %s) x LIMIT %s),
                         m AS MATERIALIZED (SELECT DISTINCT id, posted_at FROM m0),
                         page AS MATERIALIZED (SELECT id, posted_at FROM m ORDER BY posted_at DESC, id DESC
                                                LIMIT %s OFFSET %s)
                    SELECT (SELECT count(*) FROM m), (SELECT count(*) FROM m0), voyager.catalog_state(),
                           coalesce((SELECT array_agg(id ORDER BY posted_at DESC, id DESC) FROM page), '{}'),
                           coalesce((SELECT array_agg(posted_at ORDER BY posted_at DESC, id DESC) FROM page), '{}')$q$,
                    array_to_string(v_text, ' AND '), v_where, v_probe_max + 1, greatest(p_limit, 0), greatest(p_offset, 0))
                  INTO v_total, v_probed, v_state, v_ids, v_at;
                IF v_probed <= v_probe_max OR p_plan = 'first' THEN
                    v_plan := 'first'; v_kept := 'probed';
                ELSE
                    v_total := NULL; v_state := NULL; v_ids := '{}'; v_at := '{}';
                END IF;
            ELSIF v_total IS NULL AND cardinality(v_text) = 0 AND p_plan = 'first' THEN
                v_where := array_to_string(v_conds, ' AND ');
                EXECUTE format($q$
                    WITH m0 AS MATERIALIZED (SELECT r.id, r.posted_at FROM voyager.releases r WHERE %s LIMIT %s),
                         m AS MATERIALIZED (SELECT DISTINCT id, posted_at FROM m0),
                         page AS MATERIALIZED (SELECT id, posted_at FROM m ORDER BY posted_at DESC, id DESC
                                                LIMIT %s OFFSET %s)
                    SELECT (SELECT count(*) FROM m), voyager.catalog_state(),
                           coalesce((SELECT array_agg(id ORDER BY posted_at DESC, id DESC) FROM page), '{}'),
                           coalesce((SELECT array_agg(posted_at ORDER BY posted_at DESC, id DESC) FROM page), '{}')$q$,
                    coalesce(nullif(v_where, ''), 'true'), v_probe_max + 1, greatest(p_limit, 0), greatest(p_offset, 0))
                  INTO v_total, v_state, v_ids, v_at;
                v_plan := 'first'; v_kept := 'probed';
            END IF;
            IF v_plan IS NULL THEN
                v_shared := CASE WHEN v_substring THEN p_substring_shared ELSE p_shared END;
                IF v_total IS NULL AND p_plan IS NULL AND p_state IS NOT NULL AND v_shared IS NOT NULL THEN
                    v_total := voyager.kept_search_total(v_shared, p_state);
                    IF v_total IS NOT NULL THEN
                        v_kept := 'shared';
                    END IF;
                END IF;
                IF v_total IS NULL THEN
                    IF cardinality(v_text) > 0 AND cardinality(v_conds) = v_hidden_only THEN
                        -- words and nothing on the release row: the texts alone (every
                        -- text's release exists), no probe into releases per match
                        EXECUTE format('SELECT (SELECT count(DISTINCT t.release_id) FROM voyager.release_texts t WHERE %s%s), '
                                       'voyager.catalog_state()', array_to_string(v_text, ' AND '),
                                       CASE WHEN v_judged THEN '' ELSE ' AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j '
                                                                      'WHERE j.release_id = t.release_id AND j.hidden)' END)
                          INTO v_total, v_state;
                    ELSE
                        v_where := array_to_string(v_conds || CASE WHEN cardinality(v_text) > 0 THEN
                            ARRAY[format('r.id IN (SELECT t.release_id FROM voyager.release_texts t WHERE %s)',
                                         array_to_string(v_text, ' AND '))] ELSE '{}'::text[] END, ' AND ');
                        EXECUTE format('SELECT (SELECT count(*) FROM voyager.releases r WHERE %s), voyager.catalog_state()',
                                       coalesce(nullif(v_where, ''), 'true'))
                          INTO v_total, v_state;
                    END IF;
                    v_kept := 'counted';
                END IF;
                v_plan := CASE WHEN p_plan IN ('matches', 'walk') THEN p_plan
                               WHEN voyager.search_walk_pays(v_total, greatest(p_offset, 0)::bigint + greatest(p_limit, 0),
                                                             cardinality(v_text) > 0, v_indexed OR v_episode, p_releases)
                               THEN 'walk' ELSE 'matches' END;
                IF p_offset < v_total AND p_limit > 0 THEN
                    IF v_plan = 'matches' AND cardinality(v_text) > 0 THEN
                        -- every match from the index, each probing its release (the
                        -- planner, misjudging a word as common, would walk a million rows)
                        EXECUTE format($q$
                            WITH tm AS MATERIALIZED (SELECT DISTINCT t.release_id FROM voyager.release_texts t WHERE %s),
                                 page AS MATERIALIZED (
                                SELECT x.id, x.posted_at FROM tm, LATERAL (SELECT r.id, r.posted_at FROM voyager.releases r WHERE %s) x
                                 ORDER BY x.posted_at DESC, x.id DESC LIMIT %s OFFSET %s)
                            SELECT coalesce(array_agg(id ORDER BY posted_at DESC, id DESC), '{}'),
                                   coalesce(array_agg(posted_at ORDER BY posted_at DESC, id DESC), '{}') FROM page$q$,
                            array_to_string(v_text, ' AND '), array_to_string('r.id = tm.release_id'::text || v_conds, ' AND '),
                            p_limit, p_offset)
                          INTO v_ids, v_at;
                    ELSE
                        v_tm := 'voyager.releases r';
                        v_where := array_to_string(v_conds, ' AND ');
                        IF v_plan = 'walk' AND cardinality(v_text) > 0 THEN
                            -- OFFSET 0: kept a probe per release (as a semi-join, misjudging
                            -- how common the words are, the planner would read every match first)
                            v_where := array_to_string(v_conds || format(
                                'EXISTS (SELECT 1 FROM voyager.release_texts t WHERE t.release_id = r.id AND %s OFFSET 0)',
                                array_to_string(v_probe || v_text, ' AND ')), ' AND ');
                            v_tm := '(SELECT * FROM voyager.releases ORDER BY posted_at DESC OFFSET 0) r';
                        END IF;
                        EXECUTE format($q$
                            WITH page AS MATERIALIZED (
                                SELECT r.id, r.posted_at FROM %s WHERE %s
                                 ORDER BY r.posted_at DESC, r.id DESC LIMIT %s OFFSET %s)
                            SELECT coalesce(array_agg(id ORDER BY posted_at DESC, id DESC), '{}'),
                                   coalesce(array_agg(posted_at ORDER BY posted_at DESC, id DESC), '{}') FROM page$q$,
                            v_tm, coalesce(nullif(v_where, ''), 'true'), p_limit, p_offset)
                          INTO v_ids, v_at;
                    END IF;
                END IF;
            END IF;
        END IF;
        -- no whole word matched: the words as substrings
        EXIT WHEN v_total <> 0 OR cardinality(v_words) = 0 OR v_substring OR p_plan IS NOT NULL;
        v_substring := true;
    END LOOP;
    IF cardinality(v_ids) = 0 THEN
        RETURN QUERY SELECT v_total, v_kept, v_state, v_plan, v_substring, v_promote, NULL::bigint, NULL::timestamptz;
    ELSE
        RETURN QUERY SELECT v_total, v_kept, v_state, v_plan, v_substring, v_promote, x.i, x.a
                       FROM unnest(v_ids, v_at) x(i, a);
    END IF;
END $$;
ALTER FUNCTION voyager.search_page(jsonb, integer, integer, bigint, bytea, bigint, bytea, bigint, text, integer, bigint) ROWS 100;
COMMENT ON FUNCTION voyager.search_page(jsonb, integer, integer, bigint, bytea, bigint, bytea, bigint, text, integer, bigint)
    IS 'A search''s total and page, the way to them decided here (words, categories, filters, walk or matches, substrings); writes nothing';
COMMIT;
