--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: voyager; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA voyager;


--
-- Name: count_in; Type: TYPE; Schema: voyager; Owner: -
--

CREATE TYPE voyager.count_in AS (
	rule text,
	key text,
	articles bigint,
	files bigint,
	releases bigint
);


--
-- Name: lane; Type: TYPE; Schema: voyager; Owner: -
--

CREATE TYPE voyager.lane AS ENUM (
    'history',
    'tail',
    'recovery'
);


--
-- Name: pending_in; Type: TYPE; Schema: voyager; Owner: -
--

CREATE TYPE voyager.pending_in AS (
	release_key bytea,
	identity_key bytea,
	name text,
	poster text,
	tool text,
	posted_at bigint,
	last_posted_at bigint,
	first_article bigint,
	last_article bigint,
	files integer,
	segments bigint,
	bytes bigint,
	file_total integer,
	complete boolean,
	finished boolean,
	candidates jsonb
);


--
-- Name: range_status; Type: TYPE; Schema: voyager; Owner: -
--

CREATE TYPE voyager.range_status AS ENUM (
    'planned',
    'leased',
    'done',
    'failed',
    'ancient'
);


--
-- Name: release_in; Type: TYPE; Schema: voyager; Owner: -
--

CREATE TYPE voyager.release_in AS (
	release_key bytea,
	identity_key bytea,
	name text,
	source smallint,
	poster text,
	groups text[],
	posted_at bigint,
	last_posted_at bigint,
	first_article bigint,
	last_article bigint,
	files integer,
	segments bigint,
	bytes bigint,
	file_total integer,
	complete boolean,
	has_par2 boolean,
	finished boolean,
	edge boolean,
	chunk bytea,
	members text,
	candidates text[],
	readable boolean
);


--
-- Name: sample_in; Type: TYPE; Schema: voyager; Owner: -
--

CREATE TYPE voyager.sample_in AS (
	release_key bytea,
	rule text,
	key text,
	sample jsonb
);


--
-- Name: add_release_password(bigint, text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.add_release_password(p_release_id bigint, p_password text, p_source text) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_root bigint;
    v_done boolean;
BEGIN
    IF p_source IS NULL OR p_source NOT IN ('nzb', 'subject', 'spot-title', 'spot-text') THEN
        RAISE EXCEPTION 'a password''s source is nzb, subject, spot-title or spot-text, not %', coalesce(p_source, 'null')
            USING ERRCODE = '22023';
    END IF;
    IF coalesce(btrim(p_password), '') = '' THEN
        RAISE EXCEPTION 'a password is not empty' USING ERRCODE = '22023';
    END IF;
    SELECT coalesce(r.merged_into, r.id) INTO v_root FROM voyager.releases r WHERE r.id = p_release_id;
    IF v_root IS NULL THEN
        RETURN false;
    END IF;
    INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
    VALUES (v_root, 1, p_password, p_source)
        ON CONFLICT (release_id) DO UPDATE SET status = 1, password = excluded.password, source = excluded.source
     WHERE pw.password IS NULL;
    v_done := FOUND;
    UPDATE voyager.release_own_totals o
       SET password_status = 1, password = p_password, password_source = p_source
     WHERE o.release_id = v_root AND o.password IS NULL AND v_done;
    RETURN v_done;
END $$;


--
-- Name: add_rule_set(jsonb, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.add_rule_set(p_rules jsonb, p_note text DEFAULT ''::text) RETURNS integer
    LANGUAGE plpgsql
    AS $_$
DECLARE
    v_known jsonb := (SELECT rs.rules FROM voyager.rule_sets rs WHERE rs.version = 1);
    v_key   text;
    v_value jsonb;
    v_item  jsonb;
    v_known_judge jsonb;
    v_judge jsonb;
    v_current jsonb := (voyager.rule_set()).rules;
    v       integer;
BEGIN
    IF p_rules IS NULL OR jsonb_typeof(p_rules) <> 'object' THEN
        RAISE EXCEPTION 'a rule set is a JSON object' USING ERRCODE = '22023';
    END IF;
    FOR v_key, v_value IN SELECT * FROM jsonb_each(p_rules) LOOP
        IF NOT v_known ? v_key THEN
            RAISE EXCEPTION 'rule set: unknown key "%"', v_key
                USING ERRCODE = '22023', HINT = 'The window knows: ' || (SELECT string_agg(k, ', ' ORDER BY k)
                                                                          FROM jsonb_object_keys(v_known) k);
        END IF;
        IF jsonb_typeof(v_value) <> jsonb_typeof(v_known -> v_key) THEN
            RAISE EXCEPTION 'rule set: "%" must be a JSON %, not %', v_key, jsonb_typeof(v_known -> v_key),
                jsonb_typeof(v_value) USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(v_value) = 'number' AND (v_value::numeric < 0 OR v_value::numeric <> trunc(v_value::numeric)
                                                 OR (v_key = 'sample_percent' AND v_value::numeric > 100)) THEN
            RAISE EXCEPTION 'rule set: "%" must be a whole number >= 0%', v_key,
                CASE WHEN v_key = 'sample_percent' THEN ' and <= 100' ELSE '' END USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(v_value) = 'array' THEN
            FOR v_item IN SELECT * FROM jsonb_array_elements(v_value) LOOP
                IF v_key = 'garbage' THEN
                    -- a signature: the upload tool, in one group or every one ("*")
                    IF jsonb_typeof(v_item) IS DISTINCT FROM 'object'
                       OR jsonb_typeof(v_item -> 'tool') IS DISTINCT FROM 'string'
                       OR (v_item ? 'group' AND jsonb_typeof(v_item -> 'group') <> 'string')
                       OR EXISTS (SELECT 1 FROM jsonb_object_keys(v_item) k WHERE k NOT IN ('tool', 'group')) THEN
                        RAISE EXCEPTION 'rule set: a "garbage" signature is {"tool": "...", "group": "..." or "*"}, not %',
                            v_item USING ERRCODE = '22023';
                    END IF;
                ELSIF jsonb_typeof(v_item) <> 'string' THEN
                    RAISE EXCEPTION 'rule set: "%" is a list of strings, not of %', v_key, jsonb_typeof(v_item)
                        USING ERRCODE = '22023';
                END IF;
            END LOOP;
        END IF;
    END LOOP;
    IF p_rules ? 'judge' THEN
        v_known_judge := v_known -> 'judge';
        FOR v_key, v_value IN SELECT * FROM jsonb_each(p_rules -> 'judge') LOOP
            IF NOT v_known_judge ? v_key THEN
                RAISE EXCEPTION 'rule set: unknown judge key "%"', v_key
                    USING ERRCODE = '22023', HINT = 'The judge knows: ' || (SELECT string_agg(k, ', ' ORDER BY k)
                                                                             FROM jsonb_object_keys(v_known_judge) k);
            END IF;
            IF jsonb_typeof(v_value) <> jsonb_typeof(v_known_judge -> v_key) THEN
                RAISE EXCEPTION 'rule set: judge "%" must be a JSON %, not %', v_key, jsonb_typeof(v_known_judge -> v_key),
                    jsonb_typeof(v_value) USING ERRCODE = '22023';
            END IF;
            IF jsonb_typeof(v_value) = 'number' AND (v_value::numeric <> trunc(v_value::numeric)
                    OR v_value::numeric < CASE v_key WHEN 'repeat_releases' THEN 2 ELSE 0 END
                    OR (v_key = 'version' AND v_value::numeric <> 1)) THEN
                RAISE EXCEPTION 'rule set: judge "%" must be %', v_key,
                    CASE v_key WHEN 'repeat_releases' THEN 'a whole number >= 2' WHEN 'version' THEN '1'
                               ELSE 'a whole number >= 0' END USING ERRCODE = '22023';
            END IF;
            IF v_key = 'enabled' AND EXISTS (SELECT FROM jsonb_array_elements(v_value) e
                                              WHERE jsonb_typeof(e) <> 'string'
                                                 OR e #>> '{}' NOT IN ('dead', 'fake', 'repeated', 'locked', 'unusable')) THEN
                RAISE EXCEPTION 'rule set: judge "enabled" lists rules of dead, fake, repeated, locked, unusable, not %', v_value
                    USING ERRCODE = '22023';
            END IF;
            IF v_key = 'program_extensions' AND EXISTS (SELECT FROM jsonb_array_elements(v_value) e
                                                         WHERE jsonb_typeof(e) <> 'string' OR e #>> '{}' !~ '^[a-z0-9]+$') THEN
                RAISE EXCEPTION 'rule set: judge "program_extensions" is a list of lower-case extensions without the dot, not %',
                    v_value USING ERRCODE = '22023';
            END IF;
            IF v_key = 'media_name' THEN
                BEGIN
                    PERFORM '' ~* (v_value #>> '{}');
                EXCEPTION WHEN invalid_regular_expression THEN
                    RAISE EXCEPTION 'rule set: judge "media_name" is not a regular expression: %', SQLERRM
                        USING ERRCODE = '22023';
                END;
            END IF;
        END LOOP;
        -- the judge keys not given are the current section's
        v_judge := coalesce(v_current -> 'judge', v_known_judge) || (p_rules -> 'judge');
        p_rules := jsonb_set(p_rules, '{judge}', v_judge);
    END IF;
    INSERT INTO voyager.rule_sets (rules, note)
    VALUES (v_current || p_rules, coalesce(p_note, ''))
    RETURNING version INTO v;
    IF (v_current -> 'judge') IS DISTINCT FROM ((voyager.rule_set(v)).rules -> 'judge') THEN
        PERFORM voyager.judge_mark(ARRAY(SELECT j.release_id FROM voyager.release_judgements j
                                          WHERE j.verdict IN ('dead', 'fake', 'repeated', 'locked', 'unusable')));
        UPDATE voyager.jobs j SET place = NULL, place_id = NULL, next_run_at = now() WHERE j.name = 'judge_daily';
    END IF;
    RETURN v;
END $_$;


--
-- Name: add_user(text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.add_user(p_name text, p_role text DEFAULT 'user'::text) RETURNS text
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_key text := voyager.new_api_key();
BEGIN
    INSERT INTO voyager.users (name, role, api_key_hash) VALUES (p_name, p_role, voyager.api_key_hash(v_key));
    RETURN v_key;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: ranges; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.ranges (
    id bigint NOT NULL,
    start_article bigint NOT NULL,
    end_article bigint NOT NULL,
    next_article bigint NOT NULL,
    headers bigint DEFAULT 0 NOT NULL,
    est_date timestamp with time zone,
    stored_at timestamp with time zone,
    leased_at timestamp with time zone,
    done_at timestamp with time zone,
    group_id integer NOT NULL,
    priority integer NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    rule_version integer,
    status voyager.range_status DEFAULT 'planned'::voyager.range_status NOT NULL,
    lane voyager.lane,
    capture boolean DEFAULT false NOT NULL,
    error text,
    CONSTRAINT ranges_next_check CHECK (((next_article >= start_article) AND (next_article <= (end_article + 1)))),
    CONSTRAINT ranges_span_check CHECK (((start_article >= 1) AND (end_article >= start_article)))
);


--
-- Name: advance_range(uuid, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.advance_range(p_token uuid, p_range_id bigint, p_first_article bigint, p_next_article bigint, p_headers bigint DEFAULT 0) RETURNS voyager.ranges
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: api_key_hash(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.api_key_hash(p_key text) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    SELECT sha256(convert_to(lower(p_key), 'UTF8'))
$$;


--
-- Name: api_tally(integer[], integer[], integer[], bigint[], integer[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.api_tally(p_users integer[], p_requests integer[], p_downloads integer[], p_releases bigint[], p_grabs integer[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    -- a lost counter on a crash is fine; a flush per call is not
    PERFORM set_config('synchronous_commit', 'off', true);
    INSERT INTO voyager.user_days AS x (user_id, day, requests, downloads)
    SELECT t.user_id, (now() AT TIME ZONE 'UTC')::date, sum(t.requests), sum(t.downloads)
      FROM unnest(p_users, p_requests, p_downloads) t(user_id, requests, downloads)
     WHERE EXISTS (SELECT 1 FROM voyager.users us WHERE us.id = t.user_id)
     GROUP BY t.user_id
     ORDER BY t.user_id                       -- (two webs' calls lock the rows in one order)
        ON CONFLICT ON CONSTRAINT user_days_pkey DO UPDATE
       SET requests = x.requests + excluded.requests, downloads = x.downloads + excluded.downloads;
    INSERT INTO voyager.release_grabs AS g (release_id, grabs)
    SELECT t.release_id, sum(t.grabs)
      FROM unnest(p_releases, p_grabs) t(release_id, grabs)
     WHERE EXISTS (SELECT 1 FROM voyager.releases r WHERE r.id = t.release_id)
     GROUP BY t.release_id
     ORDER BY t.release_id
        ON CONFLICT ON CONSTRAINT release_grabs_pkey DO UPDATE
       SET grabs = g.grabs + excluded.grabs, last_grab_at = now();
END $$;


--
-- Name: api_use(text, text, bigint, integer, integer[], pg_lsn[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.api_use(p_key text, p_kind text DEFAULT 'request'::text, p_release_id bigint DEFAULT NULL::bigint, p_held integer DEFAULT NULL::integer, p_sent integer[] DEFAULT NULL::integer[], p_sent_lsn pg_lsn[] DEFAULT NULL::pg_lsn[]) RETURNS TABLE(code integer, user_id integer, user_name text, role text, admin boolean, requests integer, requests_max integer, downloads integer, downloads_max integer, catalog_state bigint)
    LANGUAGE plpgsql ROWS 1
    AS $$
BEGIN
    RETURN QUERY SELECT * FROM voyager.user_use(
        (SELECT us.id FROM voyager.users us WHERE us.api_key_hash = voyager.api_key_hash(p_key)), p_kind, p_release_id,
        p_held, p_sent, p_sent_lsn);
END $$;


--
-- Name: apply_spot_matches(timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.apply_spot_matches(p_now timestamp with time zone DEFAULT now()) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_applied integer;
BEGIN
    UPDATE voyager.spot_matches m SET release_id = p.release_id
      FROM voyager.pending_releases p
     WHERE m.release_id IS NULL AND p.release_key = m.pending_key AND p.status = 1 AND p.release_id IS NOT NULL;

    CREATE TEMP TABLE IF NOT EXISTS spot_links (spot_id text, release_id bigint, password text, source text,
                                                newznab integer) ON COMMIT DROP;
    TRUNCATE spot_links;
    INSERT INTO spot_links
    SELECT m.spot_id, coalesce(r.merged_into, r.id), nullif(btrim(s.facts #>> '{password,value}'), ''),
           s.facts #>> '{password,source}', s.newznab
      FROM voyager.spot_matches m
      JOIN voyager.spots s ON s.message_id = m.spot_id AND s.disposed_at IS NULL
      JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.applied_at IS NULL
     ORDER BY m.spot_id
       FOR UPDATE OF m;
    GET DIAGNOSTICS v_applied = ROW_COUNT;
    IF v_applied = 0 THEN
        RETURN 0;
    END IF;

    -- what the release had, then the password
    UPDATE voyager.spot_matches m SET prior_status = pw.status, prior_source = pw.source
      FROM spot_links l LEFT JOIN voyager.release_passwords pw ON pw.release_id = l.release_id
     WHERE m.spot_id = l.spot_id;
    UPDATE voyager.spot_matches m
       SET password_set = voyager.add_release_password(l.release_id, l.password,
                              CASE WHEN l.source IN ('spot-title', 'spot-text') THEN l.source ELSE 'spot-text' END)
      FROM spot_links l
     WHERE m.spot_id = l.spot_id AND l.password IS NOT NULL;

    -- the category: category_of's with the spot's (the spot's where the name and
    -- inner name say nothing; release_categories's reading of the inner name)
    WITH c AS (
        SELECT l.spot_id, r.id, r.category AS prior,
               voyager.category_of(r.name, gs.groups, i.inner_name, l.newznab) AS spot_category
          FROM spot_links l
          JOIN voyager.releases r ON r.id = l.release_id
          JOIN voyager.group_sets gs ON gs.id = r.group_set_id
          LEFT JOIN LATERAL (
              SELECT x AS inner_name FROM voyager.release_texts t, string_to_table(t.text, E'\n') x
               WHERE t.release_id = r.id AND t.kind IN (2, 3, 5)
               ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(x) DESC, x
               LIMIT 1) i ON true
         WHERE l.newznab IS NOT NULL
    ), set_it AS (
        UPDATE voyager.releases r SET category = c.spot_category
          FROM c
         WHERE r.id = c.id AND r.category IS DISTINCT FROM c.spot_category
        RETURNING r.id
    )
    UPDATE voyager.spot_matches m SET category_set = true, prior_category = c.prior
      FROM c
     WHERE m.spot_id = c.spot_id AND c.id IN (SELECT id FROM set_it);

    -- the spot's title, searchable on its release
    PERFORM voyager.spot_texts(ARRAY(SELECT DISTINCT l.release_id FROM spot_links l ORDER BY 1));

    UPDATE voyager.spot_matches m SET applied_at = p_now FROM spot_links l WHERE m.spot_id = l.spot_id;
    RETURN v_applied;
END $$;


--
-- Name: ask_search_promotion(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.ask_search_promotion(p_words text) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_key text := voyager.search_word_key(p_words);
BEGIN
    IF v_key IS NOT NULL THEN
        INSERT INTO voyager.search_promotions (key) VALUES (v_key) ON CONFLICT DO NOTHING;
    END IF;
END $$;


--
-- Name: catalog_sizes(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.catalog_sizes() RETURNS TABLE(releases bigint, segments bigint, headers bigint, hot_bytes bigint, chunk_bytes bigint, hot_bytes_per_release numeric, hot_bytes_per_header numeric, chunk_bytes_per_segment numeric, catalog_bytes_per_header numeric, tables jsonb)
    LANGUAGE sql STABLE
    AS $$
    WITH hot AS (
        -- (search_counts and its deltas come with a later change: counted once there)
        SELECT t.name, coalesce(pg_total_relation_size(to_regclass(format('voyager.%I', t.name))), 0) AS bytes
          FROM unnest(ARRAY['releases', 'release_texts', 'posters', 'group_sets', 'rule_counts',
                            'rule_samples', 'search_counts', 'search_count_deltas']) AS t(name)
    ), chunks AS (               -- every partition, its TOAST and indexes
        SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0)::bigint AS bytes
          FROM pg_inherits i WHERE i.inhparent = 'voyager.release_chunks'::regclass
    ), counts AS (
        SELECT count(*) AS releases, coalesce(sum(r.segments), 0)::bigint AS segments FROM voyager.releases r
    ), indexed AS (
        SELECT coalesce(sum(b.headers), 0)::bigint AS headers FROM voyager.range_batches b
    )
    SELECT c.releases, c.segments, ix.headers, (SELECT sum(bytes)::bigint FROM hot), ch.bytes,
           round((SELECT sum(bytes) FROM hot) / nullif(c.releases, 0), 1),
           round((SELECT sum(bytes) FROM hot) / nullif(ix.headers, 0), 2),
           round(ch.bytes::numeric / nullif(c.segments, 0), 2),
           round(((SELECT sum(bytes) FROM hot) + ch.bytes) / nullif(ix.headers, 0), 2),
           (SELECT jsonb_object_agg(name, bytes) FROM hot) || jsonb_build_object('release_chunks', ch.bytes)
      FROM counts c, indexed ix, chunks ch
$$;


--
-- Name: catalog_state(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.catalog_state() RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
BEGIN
    RETURN (SELECT coalesce(sum(weight), 0)::bigint FROM voyager.catalog_changes);
END $$;


--
-- Name: category_bits(text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.category_bits(labels text, map_name text DEFAULT 'name'::text) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
    want  text[] := string_to_array(labels, ' ');
    bits  bigint;
    found integer;
BEGIN
    SELECT bit_or(1::bigint << s.bit_index), count(*) INTO bits, found
      FROM voyager.category_sets() s
     WHERE s.map = map_name AND s.label = ANY (want);
    IF found <> cardinality(want) THEN
        RAISE EXCEPTION 'category_bits: not all of ''%'' are sets of the % map', labels, map_name;
    END IF;
    RETURN bits;
END $$;


--
-- Name: category_map(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.category_map(map_name text) RETURNS jsonb
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    SELECT coalesce(jsonb_object_agg(w, bits::text), '{}')
      FROM (SELECT w, bit_or(1::bigint << s.bit_index) AS bits
              FROM voyager.category_sets() s, unnest(string_to_array(s.words, ' ')) w
             WHERE s.map = map_name AND w <> ''
             GROUP BY w) x
$$;


--
-- Name: category_of(text, text[], text, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.category_of(name text, groups text[], inner_name text DEFAULT NULL::text, spot_category integer DEFAULT NULL::integer) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $_$
DECLARE
    n    text := name;   -- the name being read: the release's, then the inner one
    s    text;           -- n lowercased, each run of other than [a-z0-9] one space, padded: ' show s01e02 1080p '
    s0   text;           -- s of the release's name, for the hash test at the end
    m    bigint;         -- the OR of the masks of the words of s in category_map('name'), later ('group')
    ep   boolean;        -- an episode, season or daily date
    lang boolean;        -- a language tag where scene names put one
    c    integer;
BEGIN
    -- A pass for the name, one for the inner name.
    LOOP
        IF n IS NOT NULL THEN
            -- The words: a name of letters, digits, . _ - and spaces (most) by three
            -- replace(), any other by the regex. (For those characters lower() in "C"
            -- is lower() in the database's locale, but in a Turkish one; the
            -- cluster's is C.UTF-8.)
            s := ' ' || replace(replace(replace(lower(n COLLATE "C"), '.', ' '), '_', ' '), '-', ' ') || ' ';
            ep := s ~ '[^a-z0-9 ]| [se]p?\d|\dx\d';     -- other characters, or maybe an episode
            IF ep THEN
                IF s ~ '[^a-z0-9 ]' THEN
                    s := ' ' || regexp_replace(lower(n), '[^a-z0-9]+', ' ', 'g') || ' ';
                END IF;
                ep := s ~ ' (s\d{1,3}(e\d{1,4})*|\d{1,2}x\d{2,3}|ep?\d{2,4}) ';
            END IF;
            WHILE strpos(s, '  ') > 0 LOOP
                s := replace(s, '  ', ' ');
            END LOOP;
            m := voyager.word_mask(voyager.category_map('name'), s, ' ');
            -- An episode, a season or (below) a daily date; but "Season 1 Soundtrack [FLAC]" is no video.
            ep := (ep OR (m & voyager.category_bits('season') <> 0
                          AND s ~ ' (season|saison|staffel|seizoen|series|episode|folge|temporada|stagione) \d{1,3} |complete (season|series)'))
                  AND NOT (m & voyager.category_bits('ep_audio') <> 0 AND m & voyager.category_bits('ep_video') = 0);
            lang := m & voyager.category_bits('lang') <> 0
                AND (m & voyager.category_bits('lang_sub') <> 0
                     OR s ~ ' ((19|20)\d\d|s\d{1,3}(e\d{1,4})*|\d{3,4}p) (.* )?(german|ger|deutsch|french|vf|vff|vfq|dutch|flemish|nl|spanish|latino|esp|italian|ita|swedish|danish|norwegian|nordic|finnish|polish|pl|russian|rus|czech|hungarian|portuguese|brazilian|turkish|hindi|tamil|telugu|korean|kor|japanese|jap|chinese|chs|cht|mandarin|cantonese|greek|hebrew|arabic|thai|multi\d*) '
                     OR s ~ ' (german|ger|deutsch|french|vf|vff|vfq|dutch|flemish|nl|spanish|latino|esp|italian|ita|swedish|danish|norwegian|nordic|finnish|polish|pl|russian|rus|czech|hungarian|portuguese|brazilian|turkish|hindi|tamil|telugu|korean|kor|japanese|jap|chinese|mandarin|cantonese|greek|hebrew|arabic|thai|multi\d*) (dl|dual|ac3|dts|dubbed|dub|subbed|subs?|\d{3,4}p|web|webrip|webdl|bluray|bdrip|dvdrip|dvdr|xvid|x264|x265|h264|hevc|hdtv|edition|epub|pdf|mobi|ebook|retail|mp3|flac|audiobook|hoerbuch) ');
            -- (split_part(s, ' ', -2) is the last word, -3 the one before it.)
            c := CASE
                -- XXX: its tags or studios, then the format.
                WHEN m & voyager.category_bits('xxx') <> 0 THEN CASE
                    WHEN m & voyager.category_bits('xxx_images') <> 0 THEN 6060
                    WHEN m & voyager.category_bits('xxx_pack') <> 0 THEN 6050
                    WHEN m & voyager.category_bits('uhd') <> 0 THEN 6045
                    WHEN m & voyager.category_bits('web') <> 0 THEN 6090
                    WHEN m & voyager.category_bits('xxx_hd') <> 0 THEN 6040
                    WHEN m & voyager.category_bits('xxx_sd') <> 0 THEN 6030
                    WHEN m & voyager.category_bits('dvd') <> 0 THEN 6010
                    WHEN m & voyager.category_bits('xxx_clip') <> 0 THEN 6020
                    WHEN m & voyager.category_bits('xxx_low') <> 0 THEN 6080
                    ELSE 6070 END

                -- Anime fansubs: "[Group] Title - 12 [1080p]", "[Group] Title [ABCD1234]".
                WHEN n LIKE '[%'
                     AND n ~* '^\[(?!private\])[^]]{2,40}\](([^[]*[ _]-[ _]?(\d{1,3}|1[0-8]\d\d)(v\d)?([ _.[(]|$))|(.*\[[0-9a-f]{8}\]))'
                    THEN 5070

                -- Consoles, by platform tag.
                WHEN m & voyager.category_bits('console') <> 0 AND NOT (strpos(s, ' 3ds ') > 0 AND strpos(s, ' max ') > 0)
                    THEN voyager.console_category(s)

                -- Video: an episode, season or daily date (TV), or a resolution, source or
                -- codec (a movie, unless the date makes it TV).
                WHEN ep OR m & voyager.category_bits('video') <> 0 THEN CASE
                    -- A music video: "Artist-Title-720p-x264-2019-GROUP" (the year after the tags).
                    WHEN NOT ep
                         AND (m & voyager.category_bits('musicvideo') <> 0
                              OR (m & voyager.category_bits('musicvideo_tag') <> 0
                                  AND split_part(s, ' ', -3) LIKE ANY ('{19__,20__}') AND split_part(s, ' ', -3) ~ '^(19|20)\d\d$'
                                  AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -4))
                                      & voyager.category_bits('musicvideo_tag') <> 0)) THEN 3020
                    -- sport, anime, documentaries
                    WHEN m & voyager.category_bits('sports anime docu') <> 0
                         OR (m & voyager.category_bits('phrase') <> 0 AND strpos(s, ' formula 1 ') > 0) THEN CASE
                        WHEN m & voyager.category_bits('sports') <> 0 OR strpos(s, ' formula 1 ') > 0 THEN 5060
                        WHEN m & voyager.category_bits('anime') <> 0 THEN 5070
                        ELSE 5080 END
                    -- TV (a daily date: a year and two words of two digits)
                    WHEN ep OR (m & voyager.category_bits('two_digits') <> 0
                                AND s ~ ' ((19|20)\d\d \d\d \d\d|\d\d \d\d (19|20)\d\d) ') THEN CASE
                        WHEN lang THEN 5020
                        WHEN m & voyager.category_bits('uhd') <> 0 THEN 5045
                        WHEN m & voyager.category_bits('hevc') <> 0 THEN 5090
                        WHEN m & voyager.category_bits('web streamer') <> 0 THEN 5010
                        WHEN m & voyager.category_bits('tv_hd') <> 0 THEN 5040
                        WHEN m & voyager.category_bits('tv_sd') <> 0 THEN 5030
                        ELSE 5050 END
                    -- a movie
                    WHEN lang THEN 2010
                    WHEN m & voyager.category_bits('3d') <> 0 THEN 2060
                    WHEN m & voyager.category_bits('uhd') <> 0 THEN 2045
                    WHEN m & voyager.category_bits('hevc') <> 0 THEN 2090
                    WHEN m & voyager.category_bits('disc') <> 0
                         OR (m & voyager.category_bits('bluray') <> 0   -- a whole disc: AVC, COMPLETE, or "BluRay-GROUP"
                             AND (m & voyager.category_bits('disc_codec') <> 0
                                  OR (voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -3))
                                          & voyager.category_bits('bluray_tag') <> 0
                                      AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -2))
                                          & voyager.category_bits('codec_tag') = 0))) THEN 2050
                    WHEN m & voyager.category_bits('movie_dvd') <> 0 THEN 2070
                    WHEN m & voyager.category_bits('web streamer') <> 0 THEN 2080
                    WHEN m & voyager.category_bits('hd') <> 0 THEN 2040
                    WHEN m & voyager.category_bits('cam') <> 0 THEN 2020
                    WHEN m & voyager.category_bits('movie_sd') <> 0 THEN 2030
                    WHEN m & voyager.category_bits('movie_x264') <> 0 THEN 2040
                    ELSE 2020 END

                -- Audio and books, by format.
                WHEN m & voyager.category_bits('audiobook musicvideo lossless mp3 comics technical magazine ebook') <> 0
                     OR (m & voyager.category_bits('phrase') <> 0
                         AND (strpos(s, ' graphic novel') > 0 OR strpos(s, ' no starch ') > 0
                              OR strpos(s, ' e book ') > 0)) THEN CASE
                    WHEN m & voyager.category_bits('audiobook') <> 0 THEN 3030
                    WHEN m & voyager.category_bits('musicvideo') <> 0 THEN 3020
                    WHEN m & voyager.category_bits('lossless') <> 0 THEN CASE WHEN lang THEN 3060 ELSE 3040 END
                    WHEN m & voyager.category_bits('mp3') <> 0 THEN CASE WHEN lang THEN 3060 ELSE 3010 END
                    WHEN m & voyager.category_bits('comics') <> 0 OR strpos(s, ' graphic novel') > 0
                        THEN CASE WHEN lang THEN 7060 ELSE 7030 END
                    WHEN m & voyager.category_bits('technical') <> 0 OR strpos(s, ' no starch ') > 0
                        THEN CASE WHEN lang THEN 7060 ELSE 7040 END
                    WHEN m & voyager.category_bits('magazine') <> 0
                         OR (m & voyager.category_bits('pdf_epub') <> 0 AND m & voyager.category_bits('month') <> 0
                             AND s ~ ' (january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec) (\d{1,2} )?(19|20)\d\d ')
                        THEN CASE WHEN lang THEN 7060 ELSE 7010 END
                    ELSE CASE WHEN lang THEN 7060 ELSE 7020 END END       -- an e-book

                -- Scene music: "Artist-Album-WEB-2019-GROUP", "Artist-Album-(CDM)-2001-GROUP".
                WHEN m & voyager.category_bits('scene_tag') <> 0
                     AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -4))
                         & voyager.category_bits('scene_tag') <> 0
                     AND split_part(s, ' ', -3) ~ '^(19|20)\d\d$'
                    THEN CASE WHEN lang THEN 3060 ELSE 3010 END

                -- Other music, then software. A PC game group counts as the last word
                -- ("Game.Name-CODEX"): many of them are words too.
                WHEN m & voyager.category_bits('software') <> 0
                     OR (m & voyager.category_bits('pc_group') <> 0
                         AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -2))
                             & voyager.category_bits('pc_group') <> 0)
                     OR left(s, 4) = ' va ' THEN CASE
                    WHEN m & voyager.category_bits('other_music') <> 0 OR left(s, 4) = ' va '
                        THEN CASE WHEN lang THEN 3060 ELSE 3050 END
                    WHEN m & voyager.category_bits('ios') <> 0 THEN 4060
                    WHEN m & voyager.category_bits('android') <> 0 THEN 4070
                    WHEN m & voyager.category_bits('mobile') <> 0 THEN 4040
                    WHEN m & voyager.category_bits('mac') <> 0 THEN 4030
                    WHEN m & voyager.category_bits('pc_game') <> 0
                         OR (m & voyager.category_bits('pc_group') <> 0
                             AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -2))
                                 & voyager.category_bits('pc_group') <> 0) THEN 4050
                    WHEN m & voyager.category_bits('iso') <> 0 THEN 4020
                    ELSE 4010 END

                -- "Tool.v2.1.4-GROUP"
                WHEN (strpos(s, ' v') > 0 OR m & voyager.category_bits('phrase') <> 0)
                     AND s ~ ' (v\d{1,3}( \d{1,4})+|build \d{3,}) ' THEN 4010
                END;
            IF c IS NOT NULL THEN
                RETURN c;
            END IF;
            s0 := coalesce(s0, CASE WHEN name IS NOT NULL THEN s END);   -- s of the release's name, not the inner one
        END IF;
        EXIT WHEN inner_name IS NULL OR n IS NOT DISTINCT FROM inner_name;
        n := inner_name;
    END LOOP;

    -- A spot's category, when it is one of the tree (a subcategory we lack: its
    -- parent). The ids are table_categories' rows; tests/test_categories.py
    -- checks the two agree.
    IF spot_category IS NOT NULL THEN
        IF spot_category = ANY ('{1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070, 1080, 1090, 1110, 1120, 1130, 1140, 1180,
                                 2000, 2010, 2020, 2030, 2040, 2045, 2050, 2060, 2070, 2080, 2090,
                                 3000, 3010, 3020, 3030, 3040, 3050, 3060,
                                 4000, 4010, 4020, 4030, 4040, 4050, 4060, 4070,
                                 5000, 5010, 5020, 5030, 5040, 5045, 5050, 5060, 5070, 5080, 5090,
                                 6000, 6010, 6020, 6030, 6040, 6045, 6050, 6060, 6070, 6080, 6090,
                                 7000, 7010, 7020, 7030, 7040, 7050, 7060,
                                 8000, 8010, 8020}'::integer[]) THEN
            RETURN spot_category;
        ELSIF spot_category BETWEEN 1000 AND 8999 THEN
            RETURN spot_category / 1000 * 1000;
        END IF;
    END IF;

    -- The groups: their names cut into words ("alt.binaries.sounds.mp3.complete_cd").
    IF groups IS NOT NULL THEN
        -- ('alt' and 'binaries', 'a' and 'b' are in no set: fewer words to look up.)
        s := replace(replace('.' || replace(replace(lower(array_to_string(groups, '.')), '-', '.'), '_', '.') || '.',
                             '.alt.binaries.', '.'), '.a.b.', '.');
        WHILE strpos(s, '..') > 0 LOOP
            s := replace(s, '..', '.');
        END LOOP;
        m := voyager.word_mask(voyager.category_map('group'), s, '.');
        c := CASE
            WHEN m & voyager.category_bits('any', 'group') = 0 THEN NULL
            WHEN m & voyager.category_bits('erotica', 'group') <> 0
                THEN CASE WHEN m & voyager.category_bits('pictures', 'group') <> 0 THEN 6060 ELSE 6070 END
            WHEN m & voyager.category_bits('anime', 'group') <> 0 THEN 5070
            WHEN m & voyager.category_bits('audiobook', 'group') <> 0 THEN 3030
            WHEN m & voyager.category_bits('book', 'group') <> 0 THEN CASE
                WHEN m & voyager.category_bits('technical', 'group') <> 0 THEN 7040
                WHEN m & voyager.category_bits('magazine', 'group') <> 0 THEN 7010
                WHEN m & voyager.category_bits('comics', 'group') <> 0 THEN 7030
                ELSE 7020 END
            WHEN m & voyager.category_bits('comics', 'group') <> 0 THEN 7030
            WHEN m & voyager.category_bits('magazine', 'group') <> 0 THEN 7010
            WHEN m & voyager.category_bits('lossless', 'group') <> 0 THEN 3040
            WHEN m & voyager.category_bits('musicvideo', 'group') <> 0
                 OR (m & voyager.category_bits('video', 'group') <> 0
                     AND m & voyager.category_bits('music', 'group') <> 0) THEN 3020
            WHEN m & voyager.category_bits('mp3', 'group') <> 0 THEN 3010
            WHEN m & voyager.category_bits('audio', 'group') <> 0
                 AND m & voyager.category_bits('warez', 'group') = 0 THEN 3050
            WHEN m & voyager.category_bits('documentary', 'group') <> 0 THEN 5080
            WHEN m & voyager.category_bits('sports', 'group') <> 0 THEN 5060
            WHEN m & voyager.category_bits('console', 'group') <> 0 THEN CASE
                WHEN m & voyager.category_bits('3ds', 'group') <> 0 THEN 1110
                WHEN m & voyager.category_bits('nds', 'group') <> 0
                     OR (m & voyager.category_bits('nintendo', 'group') <> 0
                         AND m & voyager.category_bits('ds', 'group') <> 0) THEN 1010
                WHEN m & voyager.category_bits('psp', 'group') <> 0 THEN 1020
                WHEN m & voyager.category_bits('wiiu', 'group') <> 0 THEN 1130
                WHEN m & voyager.category_bits('wii', 'group') <> 0 THEN 1030
                WHEN m & voyager.category_bits('xboxone', 'group') <> 0 THEN 1140
                WHEN m & voyager.category_bits('x360', 'group') <> 0 THEN 1050
                WHEN m & voyager.category_bits('xbox', 'group') <> 0 THEN 1040
                WHEN m & voyager.category_bits('ps4', 'group') <> 0 THEN 1180
                WHEN m & voyager.category_bits('ps3', 'group') <> 0 THEN 1080
                WHEN m & voyager.category_bits('psvita', 'group') <> 0 THEN 1120
                ELSE 1090 END
            WHEN m & voyager.category_bits('dvd', 'group') <> 0 THEN 2070
            WHEN m & voyager.category_bits('hd', 'group') <> 0 THEN 2040
            WHEN m & voyager.category_bits('sd', 'group') <> 0 THEN 2030
            WHEN m & voyager.category_bits('movies', 'group') <> 0 THEN 2020
            WHEN m & voyager.category_bits('uhdtv', 'group') <> 0 THEN 5045
            WHEN m & voyager.category_bits('hdtv', 'group') <> 0 THEN 5040
            WHEN m & voyager.category_bits('tv', 'group') <> 0 THEN 5050
            WHEN m & voyager.category_bits('games', 'group') <> 0 THEN 4050
            WHEN m & voyager.category_bits('mac', 'group') <> 0 THEN 4030
            WHEN m & voyager.category_bits('ios', 'group') <> 0 THEN 4060
            WHEN m & voyager.category_bits('android', 'group') <> 0 THEN 4070
            WHEN m & voyager.category_bits('mobile', 'group') <> 0 THEN 4040
            WHEN m & voyager.category_bits('iso', 'group') <> 0 THEN 4020
            ELSE 4010 END;
        IF c IS NOT NULL THEN
            RETURN c;
        END IF;
    END IF;

    -- Nothing to go by: a hash or random name (32/40-hex, a long token of
    -- letters and digits), else Misc. Either needs a word of 16 or more.
    RETURN CASE
        WHEN octet_length(s0) >= 18
             AND (split_part(s0, ' ', 6) <> ''
                  OR greatest(octet_length(split_part(s0, ' ', 2)), octet_length(split_part(s0, ' ', 3)),
                              octet_length(split_part(s0, ' ', 4)), octet_length(split_part(s0, ' ', 5))) >= 16)
             AND (s0 ~ ' [0-9a-f]{16,} '
                  OR (octet_length(s0) >= 22 AND substring(s0 FROM ' ([a-z0-9]{20,}) ') ~ '[0-9]')) THEN 8020
        ELSE 8010 END;
END $_$;


--
-- Name: category_sets(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.category_sets() RETURNS TABLE(map text, bit_index integer, label text, words text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT * FROM (VALUES
        -- XXX: its tags or studios, then the format
        ('name', 0, 'xxx', 'xxx porn porno pornhub pornstar imageset pictureset hentai jav javhd milf brazzers '
                           'bangbros realitykings naughtyamerica blacked blackedraw tushy tushyraw evilangel '
                           'digitalplayground nubiles teamskeet mofos clips4sale onlyfans manyvids fakehub '
                           'sdx264xxx ktr yapg sexors hushhush'),
        ('name', 1, 'xxx_images', 'imageset pictureset photoset images pics jpg jpeg png'),
        ('name', 2, 'xxx_pack', 'pack siterip megapack collection'),
        ('name', 3, 'xxx_hd', '720p 1080p 1080i x264 h264 264 x265 h265 hevc 265 av1'),
        ('name', 4, 'xxx_sd', 'xvid divx dvdrip bdrip brrip'),
        ('name', 5, 'xxx_clip', 'wmv mp4 mov flv mpeg mpg m4v f4v avi'),
        ('name', 6, 'xxx_low', '480p 576p 360p sd sdx264xxx'),
        ('name', 7, 'uhd', '2160p 4320p 4k uhd'),
        ('name', 8, 'web', 'web webdl webrip webhd'),
        ('name', 9, 'streamer', 'amzn dsnp hmax atvp'),
        ('name', 10, 'dvd', 'dvdr dvd5 dvd9 dvd'),
        -- consoles, by platform tag (which one: the console map)
        ('name', 11, 'console', 'nds 3ds psp psv psvita wii wiiu wiiware xbox xbox360 x360 xboxone xbone xbla ps1 '
                                'psx ps2 ps3 ps4 ps5 ngc gamecube nsw nsp xci gba gbc snes n64 dreamcast'),
        -- video: a season, a language tag, a resolution, source or codec
        ('name', 12, 'season', 'season saison staffel seizoen series episode folge temporada stagione'),
        ('name', 13, 'ep_audio', 'flac mp3 epub pdf mobi azw3 cbr cbz m4b audiobook'),
        ('name', 14, 'ep_video', '720p 1080p 2160p x264 x265 h264 hevc mkv'),
        ('name', 15, 'lang', 'german ger deutsch french truefrench vf vff vfq vostfr subfrench dutch flemish nl '
                             'nlsub nlsubs spanish castellano latino esp italian ita swedish swesub danish dksubs '
                             'norwegian nordic finnish polish pl plsub russian rus czech hungarian portuguese '
                             'brazilian turkish hindi tamil telugu korean kor japanese jap chinese chs cht mandarin '
                             'cantonese greek hebrew arabic thai multi multi2 multi3 multi4 multi5 multi6 multi7 '
                             'multi8 multi9 multi10 multisubs'),
        ('name', 16, 'lang_sub', 'truefrench vostfr subfrench nlsub nlsubs swesub dksubs plsub castellano multisubs'),
        ('name', 17, 'video', '2160p 4320p 1080p 1080i 720p 576p 480p 360p uhd bluray blu bdrip brrip bd25 bd50 '
                              'bdmv bdremux remux webdl webrip webhd hdrip dvdrip dvdscr dvdr dvd5 dvd9 xvid divx '
                              'x264 x265 h264 h265 hevc avc av1 vc1 264 265 hdcam camrip telesync hdts telecine '
                              'hdtc vhsrip hdtv pdtv sdtv dsr dsrip tvrip hdtvrip sbs hsbs'),
        ('name', 18, 'musicvideo', 'mvid mdvdr mbluray musicvideo'),
        ('name', 19, 'sports', 'nfl nba nhl mlb mls ncaa ncaaf ncaab ufc wwe aew tna roh njpw mma bellator pfl '
                               'boxing wrestling wrestlemania smackdown formula1 f1 motogp moto2 nascar indycar wrc '
                               'wec dtm superbike sbk epl bundesliga laliga ligue1 uefa fifa rugby afl nrl cricket '
                               'ipl pga golf tennis atp wta wimbledon snooker darts cycling olympics superbowl nhra '
                               'ppv prix sport sports'),
        ('name', 20, 'anime', 'anime'),
        ('name', 21, 'docu', 'docu documentary documentaries doku dokumentation dokumentarfilm docuseries '
                             'documental documentaire'),
        ('name', 22, 'hevc', 'x265 h265 hevc 265'),
        ('name', 23, 'tv_hd', '720p 1080p 1080i bluray blu remux bdremux bd25 bd50 bdmv'),
        ('name', 24, 'tv_sd', '480p 576p 360p xvid divx dvdrip bdrip brrip hdtv pdtv sdtv dsr dsrip tvrip hdtvrip '
                              'x264 h264 264 dvdr dvd5 dvd9 dvd ntsc pal'),
        ('name', 25, '3d', '3d sbs hsbs halfsbs mvc'),
        ('name', 26, 'disc', 'remux bdremux bd25 bd50 bdmv untouched'),
        ('name', 27, 'bluray', 'bluray blu'),
        ('name', 28, 'disc_codec', 'avc vc1 mpeg2 complete'),
        ('name', 29, 'movie_dvd', 'dvdr dvd5 dvd9 dvd ntsc pal'),
        ('name', 30, 'hd', '720p 1080p 1080i'),
        ('name', 31, 'cam', 'cam camrip hdcam ts telesync hdts hdtsrip tc telecine hdtc scr screener dvdscr r5 '
                            'workprint'),
        ('name', 32, 'movie_sd', 'xvid divx dvdrip bdrip brrip 480p 576p 360p hdrip vhsrip hdtv pdtv sdtv tvrip dsr'),
        ('name', 33, 'movie_x264', 'bluray blu x264 h264 264 avc av1 vc1'),
        -- audio and books, by format
        ('name', 34, 'audiobook', 'audiobook audiobooks abook hoerbuch horbuch unabridged abridged audible m4b '
                                  'hoerspiel luisterboek ljudbok lydbog audiolibro'),
        ('name', 35, 'lossless', 'flac alac ape wav lossless 24bit 16bit hires dsd dsf dff sacd wv dvda'),
        ('name', 36, 'mp3', 'mp3 320kbps 256kbps 192kbps 128kbps kbps 320k 256k 192k v0 vbr aac m4a ogg opus wma '
                            '320'),
        ('name', 37, 'comics', 'cbr cbz cb7 cbt comic comics c2c manga webcomic'),
        ('name', 38, 'technical', 'packt oreilly apress manning wiley sybex wrox syngress sitepoint pragmatic '
                                  'dummies cookbook programming textbook springer mcgraw pearson addison elsevier'),
        ('name', 39, 'magazine', 'magazine magazines mag mags truepdf zinio economist forbes vogue esquire '
                                 'cosmopolitan newsweek businessweek fhm maxim playboy penthouse'),
        ('name', 40, 'pdf_epub', 'pdf epub'),
        ('name', 41, 'ebook', 'epub mobi azw azw3 kf8 kfx pdf ebook ebooks fb2 djvu prc'),
        -- other music, then software
        ('name', 42, 'software', 'discography discografia diskografie ost soundtrack vinyl album albums bootleg '
                                 'cdrip karaoke remixes ios iphone ipad ipa ipados android apk symbian blackberry '
                                 'wm5 wm6 windowsmobile pocketpc macos osx macosx dmg mac pcgame pcgames pcdvd '
                                 'fitgirl dodi elamigos steamrip gog iso udemy lynda pluralsight skillshare '
                                 'infiniteskills tutsplus cbtnuggets linkedin masterclass x64 x86 x32 win32 win64 '
                                 'win windows 32bit 64bit amd64 arm64 keygen keymaker crack cracked patch patched '
                                 'portable multilingual regged activator activated setup exe msi linux freebsd unix '
                                 'adobe microsoft autodesk autocad vmware corel coreldraw nero ableton serial vst '
                                 'vsti vst3'),
        ('name', 43, 'other_music', 'discography discografia diskografie ost soundtrack vinyl album albums bootleg '
                                    'cdrip karaoke remixes'),
        ('name', 44, 'ios', 'ios iphone ipad ipa ipados'),
        ('name', 45, 'android', 'android apk'),
        ('name', 46, 'mobile', 'symbian blackberry wm5 wm6 windowsmobile pocketpc'),
        ('name', 47, 'mac', 'macos osx macosx dmg mac'),
        ('name', 48, 'pc_game', 'pcgame pcgames pcdvd fitgirl dodi elamigos steamrip gog'),
        ('name', 49, 'iso', 'iso udemy lynda pluralsight skillshare infiniteskills tutsplus cbtnuggets linkedin '
                            'masterclass'),
        -- only to skip a test that cannot match: a month, two digits (a date), a word of a phrase we look for
        ('name', 50, 'month', 'january february march april may june july august september october november '
                              'december jan feb mar apr jun jul aug sep sept oct nov dec'),
        ('name', 51, 'two_digits', '00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 '
                                   '26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 '
                                   '52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 '
                                   '78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99'),
        ('name', 52, 'phrase', 'book graphic starch formula build'),
        -- tested on one of the last words (the bit of m says whether to look)
        ('name', 53, 'musicvideo_tag', 'x264 h264 x265 720p 1080p 2160p dvdrip hdtv web webrip bdrip bluray dvd'),
        ('name', 54, 'bluray_tag', 'bluray ray'),
        ('name', 55, 'codec_tag', 'x264 x265 h264 h265 hevc xvid 264 265 av1'),
        ('name', 56, 'scene_tag', 'web cd cdm cds cdr cdda vinyl vls lp ep sat fm dab dvb sbd aud bootleg promo 2cd '
                                  '3cd 4cd 5cd 6cd stream cable line radio'),
        ('name', 57, 'pc_group', 'codex plaza skidrow reloaded cpy empress tenoke rune flt fltdox hoodlum razor1911 '
                                 'prophet tinyiso darksiders doge kaos hi2u simplex delusional postmortem ali213 '
                                 '3dm vrex chronos goldberg'),
        -- a console name's platform
        ('console', 0, 'x360', 'xbox360 x360'),
        ('console', 1, 'dlc_xbla', 'dlc xbla'),
        ('console', 2, 'xboxone', 'xboxone xbone'),
        ('console', 3, 'xbox', 'xbox'),
        ('console', 4, 'wiiware', 'wiiware'),
        ('console', 5, 'wii', 'wii'),
        ('console', 6, 'vc_dlc', 'vc dlc'),
        ('console', 7, 'wiiu', 'wiiu'),
        ('console', 8, 'ps4', 'ps4'),
        ('console', 9, 'ps3', 'ps3'),
        ('console', 10, 'psv', 'psv psvita'),
        ('console', 11, 'psp', 'psp'),
        ('console', 12, '3ds', '3ds'),
        ('console', 13, 'nds', 'nds'),
        -- the words of the group names ("alt.binaries.sounds.mp3.complete_cd")
        ('group', 0, 'any', 'erotica erotic xxx porn ijsklontje hentai anime audiobook audiobooks hoerbuch '
                            'hoerbuecher ebook ebooks book books comics comic magazines magazine flac lossless mp3 '
                            'mp3s sounds music audio karaoke radio mvid musicvideos documentaries documentary '
                            'sports sport mma wrestling nfl nba nhl boxing motorsports f1 football soccer hockey '
                            'racing nds nintendods 3ds nintendo3ds psp wiiu wii xbox360 360 xboxone xbox ps3 ps4 '
                            'psvita vita console consoles gamecube dreamcast ps2 psx playstation nintendo emulators '
                            'roms dvd dvdr dvd9 dvd5 x264 bluray 1080p 720p divx xvid moovee movies movie cinema '
                            'film films filme hdtv uhdtv teevee tv tvseries series sitcoms tvshows games game '
                            'pcgame pcgames gamez mac macintosh apple iphone ipad ios android smartphone pocketpc '
                            'palm symbian mobile image iso isos warez 0day apps appz software linux cracks '
                            'utilities'),
        ('group', 1, 'erotica', 'erotica erotic xxx porn ijsklontje hentai'),
        ('group', 2, 'pictures', 'pictures pics images jpg imagesets'),
        ('group', 3, 'anime', 'anime'),
        ('group', 4, 'audiobook', 'audiobook audiobooks hoerbuch hoerbuecher'),
        ('group', 5, 'book', 'ebook ebooks book books'),
        ('group', 6, 'technical', 'technical textbooks textbook'),
        ('group', 7, 'magazine', 'magazines magazine'),
        ('group', 8, 'comics', 'comics comic'),
        ('group', 9, 'lossless', 'flac lossless'),
        ('group', 10, 'musicvideo', 'mvid musicvideos'),
        ('group', 11, 'video', 'video videos'),
        ('group', 12, 'music', 'music sounds'),
        ('group', 13, 'mp3', 'mp3 mp3s'),
        ('group', 14, 'audio', 'sounds music audio karaoke radio'),
        ('group', 15, 'warez', 'warez apps appz software'),
        ('group', 16, 'documentary', 'documentaries documentary'),
        ('group', 17, 'sports', 'sports sport mma wrestling nfl nba nhl boxing motorsports f1 football soccer '
                                'hockey racing'),
        ('group', 18, 'console', 'nds nintendods 3ds nintendo3ds psp wiiu wii xbox360 360 xboxone xbox ps3 ps4 '
                                 'psvita vita console consoles gamecube dreamcast ps2 psx playstation nintendo '
                                 'emulators roms'),
        ('group', 19, '3ds', '3ds nintendo3ds'),
        ('group', 20, 'nds', 'nds nintendods'),
        ('group', 21, 'nintendo', 'nintendo'),
        ('group', 22, 'ds', 'ds'),
        ('group', 23, 'psp', 'psp'),
        ('group', 24, 'wiiu', 'wiiu'),
        ('group', 25, 'wii', 'wii'),
        ('group', 26, 'xboxone', 'xboxone'),
        ('group', 27, 'x360', 'xbox360 360'),
        ('group', 28, 'xbox', 'xbox'),
        ('group', 29, 'ps4', 'ps4'),
        ('group', 30, 'ps3', 'ps3'),
        ('group', 31, 'psvita', 'psvita vita'),
        ('group', 32, 'dvd', 'dvd dvdr dvd9 dvd5'),
        ('group', 33, 'hd', 'x264 bluray 1080p 720p'),
        ('group', 34, 'sd', 'divx xvid'),
        ('group', 35, 'movies', 'moovee movies movie cinema film films filme'),
        ('group', 36, 'uhdtv', 'uhdtv'),
        ('group', 37, 'hdtv', 'hdtv'),
        ('group', 38, 'tv', 'teevee tv tvseries series sitcoms tvshows'),
        ('group', 39, 'games', 'games game pcgame pcgames gamez'),
        ('group', 40, 'mac', 'mac macintosh apple'),
        ('group', 41, 'ios', 'iphone ipad ios'),
        ('group', 42, 'android', 'android'),
        ('group', 43, 'mobile', 'smartphone pocketpc palm symbian mobile'),
        ('group', 44, 'iso', 'image iso isos')
    ) AS s (map, bit_index, label, words)
$$;


--
-- Name: check_catalog(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.check_catalog() RETURNS TABLE(problem text, rows bigint)
    LANGUAGE sql STABLE
    AS $$
    SELECT 'release without a chunk', count(*) FROM voyager.releases r
     WHERE NOT EXISTS (SELECT 1 FROM voyager.release_chunks c
                        WHERE c.month = voyager.chunk_month(r.posted_at) AND c.release_id = r.id)
    UNION ALL
    SELECT 'release without its name text', count(*) FROM voyager.releases r
     WHERE NOT EXISTS (SELECT 1 FROM voyager.release_texts t WHERE t.release_id = r.id AND t.kind = 1)
    UNION ALL
    SELECT 'chunk of no release (or in another month)', count(*) FROM voyager.release_chunks c
     WHERE NOT EXISTS (SELECT 1 FROM voyager.releases r
                        WHERE r.id = c.release_id AND voyager.chunk_month(r.posted_at) = c.month)
    UNION ALL
    SELECT 'text of no release', count(*) FROM voyager.release_texts t
     WHERE NOT EXISTS (SELECT 1 FROM voyager.releases r WHERE r.id = t.release_id)
    UNION ALL
    SELECT 'probe candidate of no release', count(*) FROM voyager.probe_candidates pc
     WHERE pc.release_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.releases r WHERE r.id = pc.release_id)
    UNION ALL
    SELECT 'probe candidate of no pending release', count(*) FROM voyager.probe_candidates pc
     WHERE pc.pending_key IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM voyager.pending_releases p WHERE p.release_key = pc.pending_key)
    UNION ALL
    SELECT 'release of an unknown poster, group set or group', count(*) FROM voyager.releases r
     WHERE NOT EXISTS (SELECT 1 FROM voyager.posters p WHERE p.id = r.poster_id)
        OR NOT EXISTS (SELECT 1 FROM voyager.group_sets g WHERE g.id = r.group_set_id)
        OR NOT EXISTS (SELECT 1 FROM voyager.groups g WHERE g.id = r.group_id)
    UNION ALL
    SELECT 'release of an unknown category', count(*) FROM voyager.releases r
     WHERE r.category IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.categories c WHERE c.id = r.category)
$$;


--
-- Name: check_listing(jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.check_listing(listing jsonb) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
DECLARE
    e jsonb;
    n bigint;
    f text;
    v_dup text;
BEGIN
    IF listing IS NULL OR jsonb_typeof(listing) <> 'array' THEN
        RAISE EXCEPTION 'the listing must be a JSON array of {"name", "low", "high"[, "priority"]}'
            USING ERRCODE = '22023';
    END IF;
    FOR e, n IN SELECT t.e, t.n FROM jsonb_array_elements(listing) WITH ORDINALITY AS t(e, n) LOOP
        IF jsonb_typeof(e) <> 'object' THEN
            RAISE EXCEPTION 'listing row %: not an object: %', n, e USING ERRCODE = '22023';
        END IF;
        IF jsonb_typeof(e -> 'name') IS DISTINCT FROM 'string' OR e ->> 'name' = ''
           OR e ->> 'name' ~ '[[:space:]]' THEN
            RAISE EXCEPTION 'listing row %: the group name must be a non-empty string without spaces: %', n, e
                USING ERRCODE = '22023';
        END IF;
        FOREACH f IN ARRAY ARRAY['low', 'high'] LOOP
            IF jsonb_typeof(e -> f) IS DISTINCT FROM 'number'
               OR (e ->> f)::numeric <> trunc((e ->> f)::numeric) THEN
                RAISE EXCEPTION 'listing row % (%): % must be a whole number: %', n, e ->> 'name', f, e
                    USING ERRCODE = '22023';
            END IF;
        END LOOP;
        IF e ? 'priority' AND e -> 'priority' <> 'null'::jsonb
           AND (jsonb_typeof(e -> 'priority') <> 'number'
                OR (e ->> 'priority')::numeric <> trunc((e ->> 'priority')::numeric)
                OR abs((e ->> 'priority')::numeric) > 2147483647) THEN
            RAISE EXCEPTION 'listing row % (%): priority must be an integer: %', n, e ->> 'name', e
                USING ERRCODE = '22023';
        END IF;
    END LOOP;
    SELECT t.e ->> 'name' INTO v_dup FROM jsonb_array_elements(listing) AS t(e)
     GROUP BY 1 HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the listing names group % more than once', v_dup USING ERRCODE = '22023';
    END IF;
END $$;


--
-- Name: check_search_counts(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.check_search_counts() RETURNS TABLE(key text, counted bigint, recounted bigint)
    LANGUAGE sql STABLE
    AS $$
    WITH recount AS (SELECT k.key, count(*) AS n
                       FROM voyager.search_keys_of(ARRAY(SELECT id FROM voyager.releases
                                                         UNION SELECT release_id FROM voyager.release_texts)) k
                      GROUP BY k.key),
         keys AS (SELECT r.key FROM recount r WHERE r.key NOT LIKE 'w:%'
                  UNION SELECT c.key FROM voyager.search_counts c)
    SELECT keys.key, voyager.search_count(ARRAY[keys.key]), coalesce(recount.n, 0)
      FROM keys LEFT JOIN recount USING (key)
     WHERE voyager.search_count(ARRAY[keys.key]) IS DISTINCT FROM coalesce(recount.n, 0)
$$;


--
-- Name: chunk_file_names(bytea); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.chunk_file_names(chunk bytea) RETURNS text[]
    LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE
    AS $$
from voyager_pl_ext.codec import decode
try:
    files = decode(chunk)
except Exception:
    return []
return [f[0].decode("utf-8", "replace") for f in files]
$$;


--
-- Name: chunk_month(timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.chunk_month(p_posted_at timestamp with time zone) RETURNS date
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT coalesce(date_trunc('month', p_posted_at AT TIME ZONE 'UTC')::date, date '1970-01-01')
$$;


--
-- Name: chunk_partition(date); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.chunk_partition(p_month date) RETURNS regclass
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_month date := date_trunc('month', p_month)::date;
    v_name text := format('release_chunks_y%sm%s', to_char(v_month, 'YYYY'), to_char(v_month, 'MM'));
    v_space text := (SELECT value FROM voyager.settings WHERE name = 'chunks_tablespace');
    v_rel regclass := to_regclass(format('voyager.%I', v_name));
BEGIN
    IF v_rel IS NOT NULL THEN
        RETURN v_rel;
    END IF;
    EXECUTE format('CREATE TABLE voyager.%I (LIKE voyager.release_chunks INCLUDING ALL)%s', v_name,
                   CASE WHEN coalesce(v_space, '') <> '' THEN format(' TABLESPACE %I', v_space) ELSE '' END);
    -- the month's rows leave the default first, or attaching it would fail
    EXECUTE format('WITH moved AS (DELETE FROM voyager.release_chunks_default WHERE month >= %L AND month < %L '
                   'RETURNING *) INSERT INTO voyager.%I SELECT * FROM moved',
                   v_month, (v_month + interval '1 month')::date, v_name);
    EXECUTE format('ALTER TABLE voyager.release_chunks ATTACH PARTITION voyager.%I FOR VALUES FROM (%L) TO (%L)',
                   v_name, v_month, (v_month + interval '1 month')::date);
    RETURN format('voyager.%I', v_name)::regclass;
END $$;


--
-- Name: claim_due_job(text, text[], text[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.claim_due_job(p_node text, p_python text[] DEFAULT '{}'::text[], p_skip text[] DEFAULT '{}'::text[]) RETURNS TABLE(name text, kind text, function text, claim uuid, timeout interval)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
BEGIN
    IF p_node IS NULL OR p_node = '' THEN
        RAISE EXCEPTION 'a claim needs the tick''s node name' USING ERRCODE = '22023';
    END IF;
    RETURN QUERY
    WITH due AS (
        SELECT j.name FROM voyager.jobs j
         WHERE j.enabled AND j.next_run_at <= now()
           AND (j.expires_at IS NULL OR j.expires_at < now())
           AND (j.kind = 'sql' OR j.name = ANY (coalesce(p_python, '{}')))   -- python jobs only where handled
           AND NOT j.name = ANY (coalesce(p_skip, '{}'))
         ORDER BY j.next_run_at, j.name
         LIMIT 1
           FOR UPDATE SKIP LOCKED
    )
    UPDATE voyager.jobs j
       SET next_run_at = now() + make_interval(secs => voyager.setting_int(j.every_setting)),
           last_run_at = now(), last_node = p_node, runs = j.runs + 1,
           claim = gen_random_uuid(), expires_at = now() + j.timeout
      FROM due
     WHERE j.name = due.name
    RETURNING j.name, j.kind, j.function, j.claim, j.timeout;
END $$;


--
-- Name: claim_named_pending(text, integer, interval); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.claim_named_pending(p_node text, p_limit integer DEFAULT 10, p_lease interval DEFAULT '00:10:00'::interval) RETURNS TABLE(claim uuid, release_key bytea, group_name text, first_article bigint, last_article bigint, name text, rules jsonb, owners jsonb)
    LANGUAGE sql
    AS $$
    WITH uploads AS (                 -- the longest named first, up to p_limit uploads
        SELECT DISTINCT p.group_id, p.poster, p.named FROM (
            SELECT p.group_id, p.poster, p.named FROM voyager.pending_releases p
             WHERE p.status = 4 OR (p.status = 5 AND p.expires_at < now())
             ORDER BY p.decided_at
             LIMIT p_limit) p
    ), due AS (                       -- each with all of its named pieces: they are read again at once
        SELECT p.release_key FROM voyager.pending_releases p
          JOIN uploads u ON u.group_id = p.group_id AND u.poster = p.poster AND u.named = p.named
         WHERE p.status = 4 OR (p.status = 5 AND p.expires_at < now())
           FOR UPDATE OF p SKIP LOCKED
    ), moved AS (
        UPDATE voyager.pending_releases p
           SET status = 5, claim = gen_random_uuid(), taken_by = p_node, expires_at = now() + p_lease
          FROM due WHERE p.release_key = due.release_key
        RETURNING p.claim, p.release_key, p.group_id, p.first_article, p.last_article, p.named
    )
    SELECT m.claim, m.release_key, g.name, m.first_article, m.last_article, m.named,
           (SELECT rs.rules FROM voyager.rule_sets rs ORDER BY rs.version DESC LIMIT 1),
           (SELECT coalesce(jsonb_object_agg(a.name, a.priority), '{}') FROM voyager.groups a WHERE a.active)
      FROM moved m JOIN voyager.groups g ON g.id = m.group_id
$$;


--
-- Name: claim_probe_candidates(text, integer, interval, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.claim_probe_candidates(p_node text, p_limit integer DEFAULT 100, p_lease interval DEFAULT '00:10:00'::interval, p_attempts integer DEFAULT 5) RETURNS TABLE(claim uuid, release_id bigint, pending_key bytea, kind text, message_id text, file_index integer, cached boolean)
    LANGUAGE sql
    AS $$
    WITH due AS (
        SELECT pc.ctid AS row_at
          FROM voyager.probe_candidates pc
          LEFT JOIN voyager.releases r ON r.id = pc.release_id
          LEFT JOIN voyager.pending_releases p ON p.release_key = pc.pending_key
          LEFT JOIN voyager.pending_signatures s ON s.tool = p.tool AND s.group_id = p.group_id AND s.poster = p.poster
         WHERE pc.probed_at IS NULL AND (pc.expires_at IS NULL OR pc.expires_at < now())
           AND pc.attempts < p_attempts
           AND (r.settled_at IS NOT NULL OR (p.finished AND p.status = 0 AND s.muted IS NOT TRUE))
         ORDER BY pc.rank, coalesce(s.yield, 0) DESC, pc.release_id, pc.pending_key
         LIMIT p_limit
           FOR UPDATE OF pc SKIP LOCKED
    ), token AS (
        SELECT gen_random_uuid() AS claim
    )
    UPDATE voyager.probe_candidates pc
       SET claimed_by = p_node, expires_at = now() + p_lease, claim = token.claim, attempts = pc.attempts + 1
      FROM due, token
     WHERE pc.ctid = due.row_at
    RETURNING pc.claim, pc.release_id, pc.pending_key, pc.kind, pc.message_id, pc.file_index,
              EXISTS (SELECT 1 FROM voyager.probe_cache c WHERE c.message_id = pc.message_id)
$$;


--
-- Name: common_start(bytea, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.common_start(p_md5_16k bytea, p_size bigint) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
SELECT EXISTS (SELECT FROM voyager.common_starts(ARRAY[p_md5_16k], ARRAY[p_size]))
$$;


--
-- Name: common_starts(bytea[], bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.common_starts(p_md5_16k bytea[], p_size bigint[]) RETURNS TABLE(md5_16k bytea, size bigint)
    LANGUAGE sql STABLE
    AS $$
SELECT DISTINCT x.md5_16k, x.size
  FROM unnest(p_md5_16k, p_size) x(md5_16k, size)
 WHERE (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                               WHERE c.md5_16k = x.md5_16k AND c.size = x.size LIMIT 21) c) > 20
    OR (SELECT count(*) FROM (SELECT FROM voyager.par2_files g
                               WHERE g.md5_16k = x.md5_16k AND g.size = x.size LIMIT 21) g) > 20
$$;


--
-- Name: compact_catalog_changes(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.compact_catalog_changes() RETURNS bigint
    LANGUAGE sql
    AS $$
    WITH gone AS (DELETE FROM voyager.catalog_changes RETURNING weight),
         folded AS (INSERT INTO voyager.catalog_changes (weight)
                    SELECT sum(weight) FROM gone HAVING count(*) > 0 RETURNING weight)
    SELECT count(*) FROM gone
$$;


--
-- Name: console_category(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.console_category(s text) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$
DECLARE
    m bigint := voyager.word_mask(voyager.category_map('console'), s, ' ');
BEGIN
    RETURN CASE
        WHEN m & voyager.category_bits('x360', 'console') <> 0
             AND m & voyager.category_bits('dlc_xbla', 'console') <> 0 THEN 1070
        WHEN m & voyager.category_bits('xboxone', 'console') <> 0 OR strpos(s, ' xbox one ') > 0 THEN 1140
        WHEN m & voyager.category_bits('x360', 'console') <> 0 THEN 1050
        WHEN m & voyager.category_bits('xbox', 'console') <> 0 THEN 1040
        WHEN m & voyager.category_bits('wiiware', 'console') <> 0
             OR (m & voyager.category_bits('wii', 'console') <> 0
                 AND m & voyager.category_bits('vc_dlc', 'console') <> 0) THEN 1060
        WHEN m & voyager.category_bits('wiiu', 'console') <> 0 OR strpos(s, ' wii u ') > 0 THEN 1130
        WHEN m & voyager.category_bits('wii', 'console') <> 0 THEN 1030
        WHEN m & voyager.category_bits('ps4', 'console') <> 0 THEN 1180
        WHEN m & voyager.category_bits('ps3', 'console') <> 0 THEN 1080
        WHEN m & voyager.category_bits('psv', 'console') <> 0 THEN 1120
        WHEN m & voyager.category_bits('psp', 'console') <> 0 THEN 1020
        WHEN m & voyager.category_bits('3ds', 'console') <> 0 THEN 1110
        WHEN m & voyager.category_bits('nds', 'console') <> 0 THEN 1010
        ELSE 1090 END;
END $$;


--
-- Name: date_curve_interpolate(bigint[], double precision[], bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.date_curve_interpolate(articles bigint[], epochs double precision[], points bigint[]) RETURNS double precision[]
    LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE
    AS $$
from voyager_pl.dates import interpolate
return interpolate(articles, epochs, points)
$$;


--
-- Name: date_samples_due(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.date_samples_due(p_limit integer) RETURNS TABLE(group_name text, low bigint, high bigint, samples integer)
    LANGUAGE sql STABLE
    AS $$
    SELECT g.name, greatest(g.low, 1), g.high,
           least(1000, greatest(16, ceil((g.high - greatest(g.low, 1) + 1) / 500e6)))::integer
      FROM voyager.groups g
      LEFT JOIN LATERAL (SELECT max(d.sampled_at) AS at FROM voyager.group_dates d WHERE d.group_id = g.id) s ON true
     WHERE g.active AND g.high >= greatest(g.low, 1)
     ORDER BY s.at ASC NULLS FIRST, g.priority
     LIMIT greatest(p_limit, 0)
$$;


--
-- Name: drop_par2_lists(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.drop_par2_lists() RETURNS TABLE(sets integer, files integer)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_place timestamptz := (SELECT j.place FROM voyager.jobs j WHERE j.name = 'merges');
    v_final timestamptz;
    v_batch bigint := voyager.setting_int('par2_lists_batch');
    v_sets bytea[];
    v_files integer;
BEGIN
    IF v_place IS NULL THEN                 -- the merges have not begun: every set may still merge
        sets := 0; files := 0;
        RETURN NEXT;
        RETURN;
    END IF;
    v_final := v_place - make_interval(hours => voyager.setting_int('par2_list_keep_hours')::integer);
    SELECT coalesce(array_agg(s.set_id), '{}') INTO v_sets
      FROM (SELECT s.set_id FROM voyager.par2_sets s
             WHERE s.files_dropped_at IS NULL AND s.found_at < v_place
               AND (s.found_at < v_final
                    OR (EXISTS (SELECT FROM voyager.probe_cache k
                                 JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id
                                WHERE k.facts -> 'par2' ->> 'set_id' = encode(s.set_id, 'hex') AND k.status = 0
                                  AND pc.release_id IS NOT NULL)
                        AND NOT EXISTS (       -- a holder still open: neither complete nor judged
                            SELECT FROM voyager.probe_cache k
                              JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id
                              JOIN voyager.releases r ON r.id = pc.release_id
                              JOIN voyager.releases root ON root.id = coalesce(r.merged_into, r.id)
                              LEFT JOIN voyager.release_judgements j ON j.release_id = r.id AND j.hidden
                                                                    AND j.verdict <> 'merged'
                             WHERE k.facts -> 'par2' ->> 'set_id' = encode(s.set_id, 'hex') AND k.status = 0
                               AND NOT root.complete AND j.release_id IS NULL)))
             ORDER BY s.found_at
             LIMIT v_batch) s;
    DELETE FROM voyager.par2_files f WHERE f.set_id = ANY (v_sets);
    GET DIAGNOSTICS v_files = ROW_COUNT;
    UPDATE voyager.par2_sets s SET files_dropped_at = now() WHERE s.set_id = ANY (v_sets);
    sets := cardinality(v_sets);
    files := v_files;
    RETURN NEXT;
END $$;


--
-- Name: estimate_range_dates(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.estimate_range_dates(p_group text DEFAULT NULL::text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE v_n integer;
BEGIN
    WITH curve AS (
        SELECT d.group_id, array_agg(d.article ORDER BY d.article) AS articles,
               array_agg(extract(epoch FROM d.posted_at)::double precision ORDER BY d.article) AS epochs
          FROM voyager.group_dates d JOIN voyager.groups g ON g.id = d.group_id
         WHERE p_group IS NULL OR g.name = p_group
         GROUP BY d.group_id
    ), spans AS (
        SELECT r.group_id, array_agg(r.id ORDER BY r.start_article) AS ids,
               array_agg(r.start_article ORDER BY r.start_article) AS starts
          FROM voyager.ranges r WHERE r.group_id IN (SELECT group_id FROM curve)
         GROUP BY r.group_id
    ), est AS (
        SELECT unnest(s.ids) AS id,
               unnest(voyager.date_curve_interpolate(c.articles, c.epochs, s.starts)) AS epoch
          FROM spans s JOIN curve c USING (group_id)
    )
    UPDATE voyager.ranges r SET est_date = to_timestamp(est.epoch)
      FROM est WHERE r.id = est.id AND r.est_date IS DISTINCT FROM to_timestamp(est.epoch);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;


--
-- Name: estimated_rows(regclass, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.estimated_rows(p_rel regclass, p_exact_below bigint DEFAULT 8388608) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_bytes bigint;
    v_n bigint;
    v_plan json;
BEGIN
    SELECT coalesce(sum(pg_relation_size(t.relid)), 0) INTO v_bytes
      FROM pg_partition_tree(p_rel) t WHERE t.isleaf;
    IF v_bytes < p_exact_below THEN
        EXECUTE format('SELECT count(*) FROM %s', p_rel) INTO v_n;
        RETURN v_n;
    END IF;
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM %s', p_rel) INTO v_plan;
    RETURN round((v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric);
END $$;


--
-- Name: fail_range(uuid, bigint, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.fail_range(p_token uuid, p_range bigint, p_error text) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
    v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    PERFORM 1 FROM voyager.ranges r
     WHERE r.id = p_range AND r.group_id = v.group_id AND r.lane = v.lane FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'range % is not one the lease''s lane took', coalesce(p_range::text, 'null')
            USING ERRCODE = '22023';
    END IF;
    PERFORM voyager.replan_since_snapshot(v.group_id, v.lane);
    UPDATE voyager.ranges
       SET status = 'failed', error = left(coalesce(nullif(p_error, ''), 'failed without a message'), 2000)
     WHERE id = p_range;
    UPDATE voyager.group_leases
       SET token = NULL, holder = NULL, released_at = now(), range_id = NULL
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN true;
END $$;


--
-- Name: file_stem(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.file_stem(p_name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $_$
SELECT regexp_replace(regexp_replace(p_name, '^.*[/\\]', ''),
                      '(\.vol[0-9]+[+-][0-9]+\.par2|\.par2|\.part[0-9]+\.rar|(\.[a-z0-9]{1,4})?\.[0-9]{2,3}|\.[a-z0-9]{1,4})$',
                      '', 'i')
$_$;


--
-- Name: find_inner_merges(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.find_inner_merges(p_from timestamp with time zone, p_to timestamp with time zone) RETURNS TABLE(survivor_id bigint, merged_id bigint, via text, set_id bytea)
    LANGUAGE sql STABLE
    AS $$
WITH touched AS (
    SELECT r.id FROM voyager.releases r
     WHERE r.first_seen_at >= p_from AND r.first_seen_at < p_to AND r.files = 1
    UNION
    SELECT pc.release_id
      FROM voyager.probe_cache k
      JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id AND pc.release_id IS NOT NULL
     WHERE k.probed_at >= p_from AND k.probed_at < p_to
), seeds AS (                         -- a lone release of the slice and each of its random inner stems
    SELECT r.id, r.poster_id, r.group_id, r.posted_at, s.stem
      FROM voyager.releases r
     CROSS JOIN LATERAL unnest(voyager.inner_stems(r.id)) s(stem)
     WHERE r.id = ANY (ARRAY(SELECT t.id FROM touched t))       -- by id: joined, the lone releases
       AND r.files = 1 AND r.settled_at IS NOT NULL              -- were all scanned a slice
), members AS (                       -- the poster's releases within 12 hours holding the same stem
    SELECT DISTINCT l.poster_id, l.group_id, l.stem, n.id, n.files, n.readable
      FROM seeds l
      JOIN voyager.releases n ON n.poster_id = l.poster_id AND n.group_id = l.group_id
                             AND n.posted_at BETWEEN l.posted_at - interval '12 hours'
                                                 AND l.posted_at + interval '12 hours'
                             AND n.settled_at IS NOT NULL AND n.merged_into IS NULL
     WHERE l.stem = ANY (voyager.inner_stems(n.id))
), ranked AS (
    SELECT m.*, first_value(m.id) OVER w AS survivor, first_value(m.files) OVER w AS survivor_files,
           count(*) OVER (PARTITION BY m.poster_id, m.group_id, m.stem) AS size
      FROM members m
    WINDOW w AS (PARTITION BY m.poster_id, m.group_id, m.stem ORDER BY m.files DESC, m.readable DESC, m.id)
)
SELECT DISTINCT ON (r.id) r.survivor, r.id, 'inner'::text, NULL::bytea
  FROM ranked r
 WHERE r.size > 1 AND r.id <> r.survivor AND r.files = 1
 ORDER BY r.id, r.survivor_files DESC, r.survivor
$$;


--
-- Name: find_name_merges(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.find_name_merges(p_from timestamp with time zone, p_to timestamp with time zone) RETURNS TABLE(survivor_id bigint, merged_id bigint, via text, set_id bytea)
    LANGUAGE sql STABLE
    AS $_$
WITH fresh AS MATERIALIZED (         -- releases first seen in the slice (read by its index first)
    SELECT n.id, n.poster_id, n.group_id, n.posted_at FROM voyager.releases n
     WHERE n.first_seen_at >= p_from AND n.first_seen_at < p_to
), sets AS (
    SELECT s.set_id FROM voyager.par2_sets s WHERE s.found_at >= p_from AND s.found_at < p_to
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM voyager.probe_cache k
     WHERE k.probed_at >= p_from AND k.probed_at < p_to AND k.status = 0
       AND k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM fresh n
      JOIN voyager.releases h ON h.poster_id = n.poster_id AND h.group_id = n.group_id
                             AND h.posted_at BETWEEN n.posted_at - interval '12 hours'
                                                 AND n.posted_at + interval '12 hours'
      JOIN voyager.probe_candidates pc ON pc.release_id = h.id AND pc.kind = 'par2'
      JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
     WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
), held AS (                          -- (set, each catalog release whose probed article gave it)
    SELECT DISTINCT x.set_id, pc.release_id AS holder_id
      FROM sets x
      JOIN voyager.probe_cache k ON k.facts -> 'par2' ->> 'set_id' = encode(x.set_id, 'hex') AND k.status = 0
                                AND k.facts -> 'par2' ->> 'set_id' IS NOT NULL     -- its index's rows
      JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id AND pc.release_id IS NOT NULL
), lists AS (                         -- each set's names as compared, and how many files it lists
    SELECT f.set_id, array_agg(DISTINCT voyager.name_key(f.name)) AS keys, count(*) AS files
      FROM voyager.par2_files f
     WHERE f.set_id IN (SELECT sets.set_id FROM sets)
     GROUP BY f.set_id
), matched AS (
    SELECT h.id AS holder_id, h.files AS holder_files, c.id AS merged_id, s.set_id,
           abs(extract(epoch FROM c.posted_at - h.posted_at)) AS apart
      FROM held x
      JOIN voyager.releases h ON h.id = x.holder_id AND h.settled_at IS NOT NULL
      JOIN lists s ON s.set_id = x.set_id
      JOIN voyager.releases c ON c.poster_id = h.poster_id AND c.group_id = h.group_id
                             AND c.posted_at BETWEEN h.posted_at - interval '12 hours'
                                                 AND h.posted_at + interval '12 hours'
                             AND c.id <> h.id AND c.settled_at IS NOT NULL AND c.merged_into IS NULL
                             AND c.files <= s.files + 5      -- more than the set lists: not all named
     WHERE NOT EXISTS (SELECT FROM held o WHERE o.set_id = x.set_id AND o.holder_id = c.id)
       AND (SELECT count(*) FILTER (WHERE voyager.side_kind(n) IS NULL) > 0
                   AND bool_and(voyager.side_kind(n) IS NOT NULL OR voyager.name_key(n) = ANY (s.keys))
              FROM unnest(voyager.release_file_names(c.id, c.posted_at)) n)
), nearest AS (                       -- of one set's holders, the nearest in time
    SELECT DISTINCT ON (m.merged_id, m.set_id) m.*
      FROM matched m
     ORDER BY m.merged_id, m.set_id, m.apart, m.holder_id
)
SELECT DISTINCT ON (m.merged_id) m.holder_id, m.merged_id, 'name'::text, m.set_id
  FROM nearest m
 WHERE NOT EXISTS (                   -- two holders naming each other's files: the bigger one holds
       SELECT FROM matched r
        WHERE r.holder_id = m.merged_id AND r.merged_id = m.holder_id
          AND (r.holder_files > m.holder_files OR (r.holder_files = m.holder_files AND r.holder_id < m.holder_id)))
 ORDER BY m.merged_id, m.holder_files DESC, m.holder_id
$_$;


--
-- Name: find_par2_merges(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.find_par2_merges(p_from timestamp with time zone, p_to timestamp with time zone) RETURNS TABLE(survivor_id bigint, merged_id bigint, via text, set_id bytea)
    LANGUAGE sql STABLE
    AS $_$
WITH probed AS (
    SELECT k.message_id, k.facts FROM voyager.probe_cache k
     WHERE k.probed_at >= p_from AND k.probed_at < p_to AND k.status = 0
), fresh AS MATERIALIZED (            -- releases first seen in the slice (read by its index first)
    SELECT r.id FROM voyager.releases r WHERE r.first_seen_at >= p_from AND r.first_seen_at < p_to
), sets AS (
    SELECT s.set_id FROM voyager.par2_sets s WHERE s.found_at >= p_from AND s.found_at < p_to
    UNION
    SELECT f.set_id
      FROM probed k
      JOIN voyager.file_hashes h ON h.message_id = k.message_id
      JOIN voyager.par2_files f ON f.md5_16k = h.md5_16k AND f.size = h.size
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM probed k
     WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
    UNION                             -- releases new in the catalog (a pending one moved in long after
    SELECT f.set_id                   -- its probes): the sets of their file starts and of their par2s
      FROM fresh r
      JOIN voyager.file_hashes h ON h.release_id = r.id
      JOIN voyager.par2_files f ON f.md5_16k = h.md5_16k AND f.size = h.size
    UNION
    SELECT decode(k.facts -> 'par2' ->> 'set_id', 'hex')
      FROM fresh r
      JOIN voyager.probe_candidates pc ON pc.release_id = r.id
      JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
     WHERE k.facts -> 'par2' ->> 'set_id' ~ '^[0-9a-f]{32}$'
), holders AS (
    SELECT DISTINCT x.set_id, r.id, r.group_id, r.poster_id, r.posted_at, r.files
      FROM sets x
      JOIN voyager.probe_cache k ON k.facts -> 'par2' ->> 'set_id' = encode(x.set_id, 'hex') AND k.status = 0
                                AND k.facts -> 'par2' ->> 'set_id' IS NOT NULL     -- its index's rows
      JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id AND pc.release_id IS NOT NULL
      JOIN voyager.releases r ON r.id = pc.release_id AND r.settled_at IS NOT NULL
), heads AS MATERIALIZED (            -- holders of one upload (its index and volumes posted apart:
                                      -- the same set, group and poster within 6 hours) under its biggest
    SELECT DISTINCT ON (h.set_id, h.id) h.set_id, h.id, h.group_id, h.poster_id, h.posted_at, h.files, c.id AS head
      FROM holders h
      JOIN holders c ON c.set_id = h.set_id AND c.group_id = h.group_id AND c.poster_id = h.poster_id
                    AND c.posted_at BETWEEN h.posted_at - interval '6 hours' AND h.posted_at + interval '6 hours'
     ORDER BY h.set_id, h.id, c.files DESC, c.id
), listed AS MATERIALIZED (          -- the sets' files first: the common check reads only theirs
    SELECT f.set_id, f.md5_16k, f.size FROM sets x JOIN voyager.par2_files f ON f.set_id = x.set_id
), common AS MATERIALIZED (          -- of those, the common starts: one statement for all of them
    SELECT c.md5_16k, c.size
      FROM (SELECT array_agg(l.md5_16k) AS md5s, array_agg(l.size) AS sizes FROM listed l) a
     CROSS JOIN LATERAL voyager.common_starts(a.md5s, a.sizes) c
), described AS (                     -- releases with a probed file start the set describes, common ones aside
    SELECT DISTINCT f.set_id, h.release_id
      FROM listed f
      JOIN voyager.file_hashes h ON h.md5_16k = f.md5_16k AND h.size = f.size AND h.release_id IS NOT NULL
     WHERE NOT EXISTS (SELECT FROM common c WHERE c.md5_16k = f.md5_16k AND c.size = f.size)
), matched AS (                       -- each at its nearest holder: the same poster's first, then in time
    SELECT DISTINCT ON (d.set_id, r.id) d.set_id, n.head AS holder_id, r.id, r.files,
           n.poster_id = r.poster_id AS same_poster, abs(extract(epoch FROM n.posted_at - r.posted_at)) AS gap
      FROM described d
      JOIN voyager.releases r ON r.id = d.release_id AND r.settled_at IS NOT NULL
                                 AND r.merged_into IS NULL        -- merged already: nothing to propose
      JOIN heads n ON n.set_id = d.set_id AND n.group_id = r.group_id
                  AND r.posted_at BETWEEN n.posted_at - interval '48 hours' AND n.posted_at + interval '48 hours'
     WHERE (d.set_id, r.id) NOT IN (SELECT o.set_id, o.id FROM holders o)   -- (hashed: one probe a row)
       AND NOT EXISTS (SELECT FROM voyager.file_hashes o          -- a probed file the set does not describe
                        WHERE o.release_id = r.id
                          AND NOT EXISTS (SELECT FROM voyager.par2_files g
                                           WHERE g.md5_16k = o.md5_16k AND g.size = o.size AND g.set_id = d.set_id))
     ORDER BY d.set_id, r.id, n.poster_id = r.poster_id DESC, abs(extract(epoch FROM n.posted_at - r.posted_at)), n.id
), uploads AS (                       -- an upload's holders and the releases matched to them (at its head)
    SELECT m.set_id, m.holder_id, m.id, m.files, m.same_poster, m.gap FROM matched m
    UNION
    SELECT hd.set_id, hd.head, hd.id, hd.files, true, 0 FROM heads hd
), ranked AS (
    SELECT u.*, first_value(u.id) OVER w AS survivor, first_value(u.files) OVER w AS survivor_files
      FROM uploads u
    WINDOW w AS (PARTITION BY u.set_id, u.holder_id ORDER BY u.files DESC, u.id = u.holder_id DESC, u.id)
)
SELECT DISTINCT ON (r.id) r.survivor, r.id, 'par2'::text, r.set_id
  FROM ranked r
 WHERE r.id <> r.survivor
 ORDER BY r.id, r.same_poster DESC, r.gap, r.survivor_files DESC, r.survivor
$_$;


--
-- Name: find_sidecar_folds(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.find_sidecar_folds(p_from timestamp with time zone, p_to timestamp with time zone) RETURNS TABLE(survivor_id bigint, merged_id bigint, via text, set_id bytea)
    LANGUAGE sql STABLE
    AS $$
WITH small AS (
    SELECT s.id FROM voyager.releases s
     WHERE s.files <= 3 AND s.bytes < 1048576 AND s.settled_at >= p_from AND s.settled_at < p_to
    UNION
    SELECT s.id
      FROM voyager.releases n
      JOIN voyager.releases s ON s.poster_id = n.poster_id AND s.group_id = n.group_id
                             AND s.posted_at BETWEEN n.posted_at - interval '10 minutes'
                                                 AND n.posted_at + interval '10 minutes'
                             AND s.files <= 3 AND s.bytes < 1048576 AND s.settled_at IS NOT NULL
                             AND s.merged_into IS NULL
     WHERE n.first_seen_at >= p_from AND n.first_seen_at < p_to
), sidecars AS (
    SELECT r.id, r.poster_id, r.group_id, r.posted_at, r.bytes, r.file_total, r.name, f.names
      FROM small x
      JOIN voyager.releases r ON r.id = x.id
     CROSS JOIN LATERAL (SELECT voyager.release_file_names(r.id, r.posted_at) AS names) f
     WHERE cardinality(f.names) > 0
       AND (SELECT bool_and(coalesce(voyager.side_kind(n) IN ('sidecar', 'image'), false)) FROM unnest(f.names) n)
), words AS (
    SELECT s.id, array_agg(DISTINCT w) AS words
      FROM sidecars s
     CROSS JOIN LATERAL unnest(array_append(ARRAY(SELECT voyager.file_stem(n) FROM unnest(s.names) n), s.name)) t(name)
     CROSS JOIN LATERAL regexp_split_to_table(lower(t.name), '[^[:alpha:]]+') w
     WHERE length(w) >= 4 AND w <> ALL (voyager.fold_common_words())
     GROUP BY s.id
), targets AS (
    SELECT s.id AS sidecar_id, b.id AS target_id,
           (SELECT count(*) FROM unnest(w.words) x
             WHERE x = ANY (regexp_split_to_array(lower(b.name), '[^[:alpha:]]+'))) AS shared,
           s.file_total IS NOT NULL AND b.file_total = s.file_total AS same_total,
           abs(extract(epoch FROM b.posted_at - s.posted_at)) AS apart
      FROM sidecars s
      LEFT JOIN words w ON w.id = s.id
      JOIN voyager.releases b ON b.poster_id = s.poster_id AND b.group_id = s.group_id
                             AND b.posted_at BETWEEN s.posted_at - interval '10 minutes'
                                                 AND s.posted_at + interval '10 minutes'
                             AND b.id <> s.id AND b.bytes > s.bytes AND b.settled_at IS NOT NULL
                             AND b.merged_into IS NULL
     WHERE EXISTS (SELECT FROM unnest(voyager.release_file_names(b.id, b.posted_at)) n
                    WHERE coalesce(voyager.side_kind(n) NOT IN ('sidecar', 'image'), true))
)
SELECT DISTINCT ON (t.sidecar_id) t.target_id, t.sidecar_id, 'sidecar'::text, NULL::bytea
  FROM targets t
 WHERE t.shared > 0 OR t.same_total
 ORDER BY t.sidecar_id, t.shared > 0 DESC, t.shared DESC, t.same_total DESC, t.apart, t.target_id
$$;


--
-- Name: finish_job(text, uuid, jsonb, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.finish_job(p_name text, p_claim uuid, p_result jsonb, p_error text DEFAULT NULL::text) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE voyager.jobs j
       SET last_finished_at = clock_timestamp(),
           last_seconds = round(extract(epoch FROM clock_timestamp() - j.last_run_at)::numeric, 3),
           last_result = CASE WHEN p_error IS NULL THEN p_result ELSE j.last_result END,
           last_error = p_error,
           failures = j.failures + (p_error IS NOT NULL)::integer,
           claim = NULL, expires_at = NULL
     WHERE j.name = p_name AND j.claim = p_claim;
    RETURN FOUND;   -- false: the lease ran out and another tick has the job now
END $$;


--
-- Name: finish_recovery(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.finish_recovery(p_token uuid) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v voyager.group_leases;
    x voyager.recoveries;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.recoveries r SET done_at = now()
     WHERE r.token = p_token AND r.done_at IS NULL
    RETURNING * INTO x;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no recovery runs under lease %', p_token USING ERRCODE = '22023';
    END IF;
    DELETE FROM voyager.rule_counts c WHERE c.range_id = ANY (x.stale) AND c.rule = x.rule AND c.key = x.key;
    DELETE FROM voyager.rule_samples s WHERE s.range_id = ANY (x.stale) AND s.rule = x.rule AND s.key = x.key;
    UPDATE voyager.group_leases
       SET token = NULL, holder = NULL, released_at = now(), range_id = NULL
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN x.added;
END $$;


--
-- Name: fold_common_words(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.fold_common_words() RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
SELECT '{part,sample,proof,cover,covers,front,back,thumb,thumbs,folder,screen,screens,info,file,files,
         yenc,jpeg,complete,proper,repack,internal,remux,bluray,webrip,hdtv,multi,dubbed,subbed,german,french,
         dutch,nordic,season,episode}'::text[]
$$;


--
-- Name: fold_search_counts(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.fold_search_counts(p_promotions integer DEFAULT 100) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_folded bigint;
    v_keys text[];
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('voyager.search_counts')) THEN
        RETURN 0;
    END IF;
    WITH gone AS (DELETE FROM voyager.search_count_deltas RETURNING key, delta),
         s AS (SELECT key, sum(delta) AS d, count(*) AS n FROM gone GROUP BY key),
         -- (a word's deltas that outlived its row: it was untracked meanwhile, they go)
         v AS (SELECT s.key, c.releases + s.d AS releases FROM s JOIN voyager.search_counts c USING (key)
               UNION ALL
               SELECT s.key, s.d FROM s WHERE s.key NOT LIKE 'w:%'
                  AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = s.key)),
         dropped AS (DELETE FROM voyager.search_counts c USING v WHERE c.key = v.key AND v.releases = 0),
         kept AS (INSERT INTO voyager.search_counts AS c (key, releases)
                  SELECT key, releases FROM v WHERE releases <> 0
                  ON CONFLICT (key) DO UPDATE SET releases = excluded.releases)
    SELECT coalesce(sum(n), 0) INTO v_folded FROM s;

    SELECT array_agg(key) INTO v_keys
      FROM (SELECT key FROM voyager.search_promotions ORDER BY asked_at LIMIT p_promotions) p;
    IF v_keys IS NOT NULL THEN
        -- every store that did not see these words tracked has committed, every later one will see them
        PERFORM voyager.search_tracking_lock(true);
        DELETE FROM voyager.search_count_deltas WHERE key = ANY (v_keys);
        INSERT INTO voyager.search_counts AS c (key, releases)
        SELECT k, n FROM (
            SELECT k, (SELECT count(DISTINCT t.release_id) FROM voyager.release_texts t
                        WHERE voyager.search_terms(t.text, t.posted_at) @> ARRAY[substr(k, 3)]
                          AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                           WHERE j.release_id = t.release_id AND j.hidden)) AS n
              FROM unnest(v_keys) k) x
         WHERE n > 0
        ON CONFLICT (key) DO UPDATE SET releases = excluded.releases;
        DELETE FROM voyager.search_promotions WHERE key = ANY (v_keys);
    END IF;
    RETURN v_folded;
END $$;


--
-- Name: heartbeat(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.heartbeat(p_token uuid) RETURNS timestamp with time zone
    LANGUAGE plpgsql
    AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases SET heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane
    RETURNING expires_at INTO v.expires_at;
    UPDATE voyager.nodes SET seen_at = now() WHERE name = v.holder;
    RETURN v.expires_at;
END $$;


--
-- Name: history_caught_up(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.history_caught_up(p_group integer) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT NOT EXISTS (SELECT 1 FROM voyager.ranges r
                        WHERE r.group_id = p_group
                          AND ((r.status = 'planned' AND r.priority > voyager.setting_int('tail_priority'))
                               OR (r.status IN ('leased', 'failed') AND r.lane = 'history')))
$$;


--
-- Name: inner_stems(bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.inner_stems(p_release_id bigint) RETURNS text[]
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
SELECT coalesce(array_agg(DISTINCT y.stem) FILTER (WHERE y.exact OR voyager.random_stem(y.stem)), '{}')
  FROM (-- a file inside an archive, by its name and size: every volume of the set names it
        SELECT 'entry:' || (e ->> 'name') || ':' || (e ->> 'size') AS stem, true AS exact
          FROM voyager.probe_candidates pc
          JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(k.facts -> 'archive' -> 'entries') = 'array'
                                                      THEN k.facts -> 'archive' -> 'entries' ELSE '[]' END) e
         WHERE pc.release_id = p_release_id AND e ->> 'name' IS NOT NULL AND e ->> 'size' IS NOT NULL
        UNION ALL
        SELECT voyager.file_stem(x.name) AS stem, false
          FROM (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
                 WHERE t.release_id = p_release_id AND t.kind = 2
                UNION ALL
                SELECT k.facts -> 'yenc' ->> 'name'
                  FROM voyager.probe_candidates pc
                  JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
                 WHERE pc.release_id = p_release_id
                UNION ALL
                SELECT f ->> 'name'
                  FROM voyager.probe_candidates pc
                  JOIN voyager.probe_cache k ON k.message_id = pc.message_id AND k.status = 0
                 CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(k.facts -> 'par2' -> 'files') = 'array'
                                                              THEN k.facts -> 'par2' -> 'files' ELSE '[]' END) f
                 WHERE pc.release_id = p_release_id) x(name)
         WHERE x.name IS NOT NULL) y
$$;


--
-- Name: is_group_set(text[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.is_group_set(p_groups text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT cardinality(p_groups) > 0
       AND p_groups = ARRAY(SELECT DISTINCT g COLLATE "C" FROM unnest(p_groups) g ORDER BY 1)
$$;


--
-- Name: judge_daily(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_daily() RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_until timestamptz := clock_timestamp() + make_interval(secs => voyager.setting_int('judge_daily_run_seconds'));
    v_batch integer := voyager.setting_int('judge_daily_batch');
    v_place timestamptz;
    v_at bigint;
    v_ids bigint[];
    v_one jsonb;
    v_done boolean := false;
    v_batches integer := 0;
    v_judged bigint := 0;
    v_hidden bigint := 0;
    v_changed bigint := 0;
    v_taken bigint := 0;
BEGIN
    SELECT j.place, j.place_id INTO v_place, v_at FROM voyager.jobs j WHERE j.name = 'judge_daily';
    IF v_place IS NULL THEN
        v_place := now();
        v_at := 0;
    END IF;
    LOOP
        SELECT coalesce(array_agg(r.id ORDER BY r.id), '{}') INTO v_ids
          FROM (SELECT r.id FROM voyager.releases r WHERE r.id > v_at AND r.merged_into IS NULL
                 ORDER BY r.id LIMIT v_batch) r;
        IF cardinality(v_ids) = 0 THEN
            v_done := true;
            EXIT;
        END IF;
        v_one := voyager.judge_releases(v_ids, now());
        v_at := v_ids[cardinality(v_ids)];
        v_batches := v_batches + 1;
        v_judged := v_judged + (v_one ->> 'judged')::bigint;
        v_hidden := v_hidden + (v_one ->> 'hidden')::bigint;
        v_changed := v_changed + (v_one ->> 'changed')::bigint;
        v_taken := v_taken + (v_one ->> 'taken_back')::bigint;
        IF cardinality(v_ids) < v_batch THEN
            v_done := true;
            EXIT;
        END IF;
        EXIT WHEN clock_timestamp() >= v_until;
    END LOOP;
    UPDATE voyager.jobs j
       SET place = CASE WHEN v_done THEN NULL ELSE v_place END,
           place_id = CASE WHEN v_done THEN NULL ELSE v_at END,
           next_run_at = CASE WHEN v_done THEN j.next_run_at ELSE now() END
     WHERE j.name = 'judge_daily';
    RETURN jsonb_build_object('batches', v_batches, 'judged', v_judged, 'hidden', v_hidden, 'changed', v_changed,
                              'taken_back', v_taken, 'pass_began', v_place, 'at_id', v_at, 'done', v_done);
END $$;


--
-- Name: judge_dirty(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_dirty() RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_until timestamptz := clock_timestamp() + make_interval(secs => voyager.setting_int('judge_run_seconds'));
    v_batch integer := voyager.setting_int('judge_batch');
    v_rows tid[];
    v_marks bigint[];
    v_one jsonb;
    v_batches integer := 0;
    v_judged bigint := 0;
    v_hidden bigint := 0;
    v_changed bigint := 0;
    v_taken bigint := 0;
BEGIN
    LOOP
        SELECT coalesce(array_agg(q.ctid), '{}'), coalesce(array_agg(DISTINCT q.release_id), '{}')
          INTO v_rows, v_marks
          FROM (SELECT q.ctid, q.release_id FROM voyager.judge_queue q ORDER BY q.release_id
                 LIMIT v_batch FOR UPDATE SKIP LOCKED) q;
        EXIT WHEN cardinality(v_marks) = 0;
        v_one := voyager.judge_releases(v_marks, now());
        DELETE FROM voyager.judge_queue q WHERE q.ctid = ANY (v_rows);
        v_batches := v_batches + 1;
        v_judged := v_judged + (v_one ->> 'judged')::bigint;
        v_hidden := v_hidden + (v_one ->> 'hidden')::bigint;
        v_changed := v_changed + (v_one ->> 'changed')::bigint;
        v_taken := v_taken + (v_one ->> 'taken_back')::bigint;
        EXIT WHEN cardinality(v_rows) < v_batch OR clock_timestamp() >= v_until;
    END LOOP;
    RETURN jsonb_build_object('batches', v_batches, 'judged', v_judged, 'hidden', v_hidden, 'changed', v_changed,
                              'taken_back', v_taken,
                              'left', (SELECT count(*) FROM voyager.judge_queue));
END $$;


--
-- Name: judge_mark(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark(p_ids bigint[]) RETURNS integer
    LANGUAGE sql
    AS $$ SELECT voyager.queue_mark('judge_queue', 'release_id', p_ids) $$;


--
-- Name: judge_mark_columns(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark_columns() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    EXECUTE format('SELECT voyager.judge_mark(ARRAY(SELECT x FROM %I t CROSS JOIN LATERAL (VALUES %s) v(x)))',
                   CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END,
                   (SELECT string_agg(format('(t.%I)', c), ', ') FROM unnest(TG_ARGV) c));
    RETURN NULL;
END $$;


--
-- Name: judge_mark_file_hashes(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark_file_hashes() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
DECLARE
    v_bar integer := coalesce((((voyager.rule_set()).rules -> 'judge') ->> 'repeat_releases')::integer, 20);
BEGIN
    EXECUTE $q$
    SELECT voyager.judge_mark(ARRAY(
        SELECT n.release_id FROM new_rows n WHERE n.release_id IS NOT NULL
        UNION
        SELECT h.release_id
          FROM (SELECT n.md5_16k, n.size, count(*) AS fresh FROM new_rows n WHERE n.release_id IS NOT NULL
                 GROUP BY n.md5_16k, n.size) s
          JOIN voyager.file_hashes h ON h.md5_16k = s.md5_16k AND h.size = s.size AND h.release_id IS NOT NULL
         WHERE (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                                       WHERE c.md5_16k = s.md5_16k AND c.size = s.size AND c.release_id IS NOT NULL
                                       LIMIT $1 + s.fresh) c) BETWEEN $1 AND $1 + s.fresh - 1))
    $q$ USING v_bar;
    RETURN NULL;
END $_$;


--
-- Name: judge_mark_probe_cache(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark_probe_cache() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    EXECUTE 'SELECT voyager.judge_mark(ARRAY(
                 SELECT pc.release_id FROM new_rows n JOIN voyager.probe_candidates pc ON pc.message_id = n.message_id))';
    RETURN NULL;
END $$;


--
-- Name: judge_mark_probe_candidates(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark_probe_candidates() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM voyager.judge_mark(ARRAY(SELECT n.release_id FROM new_rows n WHERE n.probed_at IS NOT NULL));
    RETURN NULL;
END $$;


--
-- Name: judge_mark_releases(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark_releases() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM voyager.judge_mark(ARRAY(SELECT n.id FROM new_rows n WHERE n.source BETWEEN 7 AND 10));
    ELSE
        EXECUTE 'SELECT voyager.judge_mark(ARRAY(
                     SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
                      WHERE n.name IS DISTINCT FROM o.name OR n.readable IS DISTINCT FROM o.readable
                         OR (o.settled_at IS NOT NULL AND n.settled_at IS DISTINCT FROM o.settled_at)))';
    END IF;
    RETURN NULL;
END $$;


--
-- Name: judge_mark_texts(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_mark_texts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM voyager.judge_mark(ARRAY(SELECT o.release_id FROM old_rows o WHERE o.kind BETWEEN 2 AND 5));
    ELSE
        PERFORM voyager.judge_mark(ARRAY(SELECT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5));
    END IF;
    RETURN NULL;
END $$;


--
-- Name: judge_releases(bigint[], timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_releases(p_ids bigint[], p_now timestamp with time zone DEFAULT now()) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_version integer;
    v_rules jsonb;
    v_roots bigint[];
    v_out jsonb;
BEGIN
    SELECT rs.version, coalesce(rs.rules -> 'judge', (SELECT o.rules -> 'judge' FROM voyager.rule_sets o WHERE o.version = 1))
      INTO v_version, v_rules
      FROM voyager.rule_set() rs;
    SELECT coalesce(array_agg(DISTINCT coalesce(r.merged_into, r.id)), '{}') INTO v_roots
      FROM voyager.releases r WHERE r.id = ANY (p_ids);
    WITH v AS MATERIALIZED (
        SELECT * FROM voyager.judge_verdicts(v_roots, v_rules, p_now)
    ), put AS (
        INSERT INTO voyager.release_judgements AS j (release_id, hidden, verdict, judged_at, rule_version, detail)
        SELECT v.release_id, true, v.verdict, p_now, v_version, v.detail FROM v ORDER BY v.release_id
            ON CONFLICT (release_id) DO UPDATE
           SET hidden = true, verdict = excluded.verdict, judged_at = excluded.judged_at,
               rule_version = excluded.rule_version, detail = excluded.detail
         WHERE j.verdict <> 'merged'
           AND (j.verdict, j.hidden, j.rule_version) IS DISTINCT FROM (excluded.verdict, true, excluded.rule_version)
        RETURNING 1
    ), gone AS (
        DELETE FROM voyager.release_judgements j
         WHERE j.release_id = ANY (v_roots) AND j.verdict IN ('dead', 'fake', 'repeated', 'locked', 'unusable')
           AND NOT EXISTS (SELECT FROM v WHERE v.release_id = j.release_id)
        RETURNING 1
    )
    SELECT jsonb_build_object('judged', cardinality(v_roots), 'hidden', (SELECT count(*) FROM v),
                              'changed', (SELECT count(*) FROM put), 'taken_back', (SELECT count(*) FROM gone))
      INTO v_out;
    RETURN v_out;
END $$;


--
-- Name: judge_verdicts(bigint[], jsonb, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.judge_verdicts(p_ids bigint[], p_rules jsonb, p_now timestamp with time zone) RETURNS TABLE(release_id bigint, verdict text, detail jsonb)
    LANGUAGE plpgsql STABLE
    SET plan_cache_mode TO 'force_custom_plan'
    SET random_page_cost TO '1.1'
    AS $_$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH rules AS MATERIALIZED (
    SELECT coalesce(p_rules -> 'enabled', '[]') AS enabled,
           coalesce((p_rules ->> 'repeat_releases')::integer, 20) AS repeats,
           make_interval(hours => coalesce((p_rules ->> 'unusable_after_hours')::integer, 24)) AS after,
           p_rules ->> 'media_name' AS media_name,
           -- the extensions as one regex over a lower-case name: \.(exe|com|...)$
           '\.(' || (SELECT string_agg(regexp_replace(lower(x), '[^a-z0-9]', '', 'g'), '|')
                       FROM jsonb_array_elements_text(coalesce(p_rules -> 'program_extensions', '[]')) x) || ')$'
               AS programs
), rel AS MATERIALIZED (                     -- each release read once
    SELECT r.id, r.name, r.readable, r.settled_at FROM voyager.releases r
     WHERE r.id = ANY (p_ids) AND r.merged_into IS NULL
), grp AS MATERIALIZED (                       -- each release judged, with itself and its members
    SELECT u.*, NOT bool_or(u.readable) OVER (PARTITION BY u.root) AS unread
      FROM (SELECT x.id AS root, x.id AS member, x.name, x.readable FROM rel x
            UNION ALL
            SELECT m.merged_into, m.id, m.name, m.readable FROM voyager.releases m WHERE m.merged_into = ANY (p_ids)) u
), probes AS MATERIALIZED (                    -- the probed articles and what they showed
    SELECT g.root, pc.kind, c.status, c.facts
      FROM grp g
      JOIN voyager.probe_candidates pc ON pc.release_id = g.member AND pc.probed_at IS NOT NULL
      JOIN voyager.probe_cache c ON c.message_id = pc.message_id
), dead AS (
    SELECT p.root, 1 AS ord, 'dead' AS verdict, jsonb_build_object('gone', count(*)) AS detail
      FROM probes p, rules
     WHERE p.kind <> '7z-tail' AND rules.enabled ? 'dead'
     GROUP BY p.root HAVING bool_and(p.status = 1)
), items AS (                                  -- a release's content: entries and files read
    SELECT p.root, e ->> 'name' AS item, coalesce(lower(e ->> 'name') ~ rules.programs, false) AS program
      FROM probes p CROSS JOIN rules
     CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(p.facts #> '{archive,entries}') = 'array'
                                                  THEN p.facts #> '{archive,entries}' ELSE '[]' END) e
     WHERE rules.enabled ? 'fake' AND p.status = 0
       AND coalesce(e ->> 'name', '') NOT IN ('', '/') AND e ->> 'name' !~ '/$'
    UNION ALL
    SELECT p.root, coalesce(p.facts #>> '{yenc,name}', p.kind),
           coalesce(lower(p.facts #>> '{yenc,name}') ~ rules.programs, false)
           OR p.facts #>> '{media,executable}' IS NOT NULL
      FROM probes p CROSS JOIN rules
     WHERE rules.enabled ? 'fake' AND p.status = 0 AND p.kind IN ('lone', 'media')
), programs AS (                               -- content that is all programs: the few whose name is asked
    SELECT i.root, (array_agg(DISTINCT i.item ORDER BY i.item))[1:5] AS items
      FROM items i GROUP BY i.root HAVING bool_and(i.program)
), fake AS (                                   -- ... under a film, episode or music name (its own or a member's)
    SELECT x.root, 2 AS ord, 'fake' AS verdict, jsonb_build_object('programs', to_jsonb(x.items)) AS detail
      FROM programs x, rules
     WHERE EXISTS (SELECT FROM grp g WHERE g.root = x.root AND g.name ~* rules.media_name)
), hashes AS MATERIALIZED (
    SELECT g.root, h.md5_16k, h.size
      FROM grp g JOIN voyager.file_hashes h ON h.release_id = g.member, rules
     WHERE rules.enabled ? 'repeated'
), holders AS MATERIALIZED (                   -- distinct holders, counted only where the rows reach the bar
    SELECT u.md5_16k, u.size,
           CASE WHEN (SELECT count(*) FROM (SELECT FROM voyager.file_hashes x
                                             WHERE x.md5_16k = u.md5_16k AND x.size = u.size
                                               AND x.release_id IS NOT NULL LIMIT rules.repeats) y) >= rules.repeats
                THEN (SELECT count(DISTINCT x.release_id) FROM voyager.file_hashes x
                       WHERE x.md5_16k = u.md5_16k AND x.size = u.size)
                ELSE 0 END AS holders
      FROM (SELECT DISTINCT h.md5_16k, h.size FROM hashes h) u, rules
), repeated AS (
    SELECT h.root, 3 AS ord, 'repeated' AS verdict,
           jsonb_build_object('starts', count(*), 'holders', min(o.holders)) AS detail
      FROM hashes h JOIN holders o ON o.md5_16k = h.md5_16k AND o.size = h.size, rules
     GROUP BY h.root, rules.repeats HAVING bool_and(o.holders >= rules.repeats)
), locked AS (
    SELECT g.root, 4 AS ord, 'locked' AS verdict, jsonb_build_object('source', min(pw.source)) AS detail
      FROM grp g JOIN voyager.release_passwords pw ON pw.release_id = g.member, rules
     WHERE rules.enabled ? 'locked'
     GROUP BY g.root HAVING bool_or(pw.status = 1) AND bool_and(pw.password IS NULL)
), unread AS MATERIALIZED (                   -- no readable name, its own nor a member's: the few
    SELECT g.root, array_agg(g.member) AS members  -- whose texts are read, by their ids
      FROM grp g, rules WHERE g.unread AND rules.enabled ? 'unusable' GROUP BY g.root
), unusable AS (
    SELECT x.id AS root, 5 AS ord, 'unusable' AS verdict, jsonb_build_object('settled_at', x.settled_at) AS detail
      FROM rel x JOIN unread u ON u.root = x.id, rules
     WHERE x.settled_at <= p_now - rules.after
       AND NOT EXISTS (SELECT FROM voyager.release_texts t
                        WHERE t.release_id = ANY (u.members) AND t.kind BETWEEN 2 AND 5
                          AND NOT voyager.random_stem(voyager.file_stem(t.text)))
       AND NOT EXISTS (SELECT FROM voyager.release_merges rm
                        WHERE rm.survivor_id = x.id AND rm.via IN ('par2', 'inner'))
       AND NOT EXISTS (SELECT FROM voyager.spot_matches sm WHERE sm.release_id = ANY (u.members))
)
SELECT DISTINCT ON (v.root) v.root, v.verdict, v.detail
  FROM (SELECT * FROM dead UNION ALL SELECT * FROM fake UNION ALL SELECT * FROM repeated
        UNION ALL SELECT * FROM locked UNION ALL SELECT * FROM unusable) v
 ORDER BY v.root, v.ord;
END $_$;


--
-- Name: keep_search_total(bytea, bigint, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.keep_search_total(p_query_hash bytea, p_state bigint, p_total bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO voyager.search_totals AS s (query_hash, state, total) VALUES (p_query_hash, p_state, p_total)
        ON CONFLICT (query_hash) DO UPDATE SET state = excluded.state, total = excluded.total, counted_at = now()
     WHERE s.state < excluded.state;
END $$;


--
-- Name: kept_search_total(bytea, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.kept_search_total(p_query_hash bytea, p_state bigint) RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    v_total bigint;
BEGIN
    SELECT s.total INTO v_total FROM voyager.search_totals s WHERE s.query_hash = p_query_hash AND s.state = p_state;
    RETURN v_total;
END $$;


--
-- Name: lane_backlog(integer, voyager.lane, integer, integer, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lane_backlog(p_group integer, p_lane voyager.lane, p_min integer, p_max integer, p_capture boolean) RETURNS bigint
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce((SELECT sum(r.end_article - r.next_article + 1)
                       FROM voyager.ranges r
                      WHERE r.group_id = p_group AND r.status = 'planned'
                        AND r.priority BETWEEN p_min AND p_max
                        AND (NOT p_capture OR r.capture)), 0)
         + coalesce((SELECT sum(r.end_article - r.next_article + 1)
                       FROM voyager.ranges r
                      WHERE r.group_id = p_group AND r.lane = p_lane AND r.status = 'leased'), 0)
$$;


--
-- Name: lane_bounds(text, integer, integer, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lane_bounds(p_lane text, p_min_priority integer DEFAULT NULL::integer, p_max_priority integer DEFAULT NULL::integer, p_capture_only boolean DEFAULT NULL::boolean) RETURNS TABLE(lane voyager.lane, min_priority integer, max_priority integer, capture_only boolean)
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    v_tail    integer := voyager.setting_int('tail_priority');
    v_min     integer;
    v_max     integer;
    v_capture boolean;
BEGIN
    IF p_lane IS NULL OR p_lane NOT IN ('history', 'tail') THEN
        RAISE EXCEPTION 'lane must be history or tail, not %', coalesce(p_lane, 'null') USING ERRCODE = '22023';
    END IF;
    IF p_lane = 'tail' THEN
        v_min := -2147483648; v_max := v_tail; v_capture := false;
    ELSE
        v_min := greatest(coalesce(p_min_priority, voyager.setting_int('lease_min_priority')::integer), v_tail + 1);
        v_max := coalesce(p_max_priority, voyager.setting_int('lease_max_priority')::integer);
        v_capture := coalesce(p_capture_only, voyager.setting_bool('lease_capture_only'));
    END IF;
    IF v_min > v_max THEN
        RAISE EXCEPTION 'empty priority bounds % .. %', v_min, v_max USING ERRCODE = '22023';
    END IF;
    RETURN QUERY SELECT p_lane::voyager.lane, v_min, v_max, v_capture;
END $$;


--
-- Name: group_leases; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.group_leases (
    group_id integer NOT NULL,
    lane voyager.lane NOT NULL,
    token uuid,
    holder text,
    leased_at timestamp with time zone,
    heartbeat_at timestamp with time zone,
    released_at timestamp with time zone,
    range_id bigint,
    snapshot_article bigint,
    snapshot_at timestamp with time zone,
    min_priority integer,
    max_priority integer,
    capture_only boolean DEFAULT false NOT NULL,
    takeovers integer DEFAULT 0 NOT NULL,
    rule_version integer,
    rules_token uuid,
    expires_at timestamp with time zone,
    CONSTRAINT group_leases_holder_check CHECK (((token IS NULL) = (holder IS NULL)))
);


--
-- Name: lane_claimable(voyager.group_leases, integer, integer, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lane_claimable(gl voyager.group_leases, p_min integer, p_max integer, p_capture boolean) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT CASE
             WHEN gl.token IS NOT NULL THEN gl.expires_at < now()
             ELSE voyager.lane_backlog(gl.group_id, gl.lane, p_min, p_max, p_capture) > 0
                  AND NOT (gl.lane = 'tail'
                           AND EXISTS (SELECT 1 FROM voyager.group_leases h
                                        WHERE h.group_id = gl.group_id AND h.lane = 'history'
                                          AND h.token IS NOT NULL AND h.expires_at >= now())
                           AND NOT voyager.tail_started(gl.group_id)
                           AND voyager.history_caught_up(gl.group_id))
                  AND NOT EXISTS (SELECT 1 FROM voyager.ranges f
                                   WHERE f.group_id = gl.group_id AND f.lane = gl.lane AND f.status = 'failed')
           END
$$;


--
-- Name: lane_end(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lane_end(p_token uuid) RETURNS text
    LANGUAGE plpgsql
    AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF v.lane = 'tail' OR NOT voyager.history_caught_up(v.group_id) THEN
        RETURN 'provisional';
    END IF;
    PERFORM 1 FROM voyager.group_leases gl WHERE gl.group_id = v.group_id AND gl.lane = 'tail'
        FOR UPDATE SKIP LOCKED;
    IF NOT FOUND OR voyager.tail_started(v.group_id) THEN
        RETURN 'final';
    END IF;
    RETURN 'provisional';
END $$;


--
-- Name: lane_idle(text, integer, integer, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lane_idle(p_lane text, p_min_priority integer DEFAULT NULL::integer, p_max_priority integer DEFAULT NULL::integer, p_capture_only boolean DEFAULT NULL::boolean) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT NOT EXISTS (SELECT 1 FROM voyager.lane_bounds(p_lane, p_min_priority, p_max_priority, p_capture_only) b
                         JOIN voyager.ranges r
                           ON (r.status = 'planned' AND r.priority BETWEEN b.min_priority AND b.max_priority
                               AND (NOT b.capture_only OR r.capture))
                           OR (r.status = 'leased' AND r.lane = b.lane)
                         JOIN voyager.groups g ON g.id = r.group_id
                        WHERE g.active
                          AND NOT EXISTS (SELECT 1 FROM voyager.ranges f
                                           WHERE f.group_id = r.group_id AND f.lane = b.lane
                                             AND f.status = 'failed'))
       AND NOT EXISTS (SELECT 1 FROM voyager.group_leases gl JOIN voyager.groups g ON g.id = gl.group_id
                        WHERE g.active AND gl.lane = p_lane::voyager.lane AND gl.token IS NOT NULL)
$$;


--
-- Name: lease_expiry(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_expiry() RETURNS timestamp with time zone
    LANGUAGE sql STABLE
    AS $$
    SELECT now() + make_interval(secs => voyager.setting_int('lease_ttl_seconds'))
$$;


--
-- Name: lease_group(text, text, integer, integer, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_group(p_lane text, p_node text DEFAULT NULL::text, p_min_priority integer DEFAULT NULL::integer, p_max_priority integer DEFAULT NULL::integer, p_capture_only boolean DEFAULT NULL::boolean) RETURNS TABLE(token uuid, group_id integer, group_name text, lane voyager.lane, holder text, snapshot_article bigint, snapshot_bytes bigint, taken_over boolean)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_lane    voyager.lane;
    v_tail    integer := voyager.setting_int('tail_priority');
    v_min     integer;
    v_max     integer;
    v_capture boolean;
    v_turn    bigint;
    v_group   integer;
    v_held    boolean;
    v_node    text := coalesce(nullif(p_node, ''), 'unnamed');
BEGIN
    SELECT b.lane, b.min_priority, b.max_priority, b.capture_only INTO v_lane, v_min, v_max, v_capture
      FROM voyager.lane_bounds(p_lane, p_min_priority, p_max_priority, p_capture_only) b;
    v_turn := nextval('voyager.group_lease_turns');

    SELECT gl.group_id, gl.token IS NOT NULL INTO v_group, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
     CROSS JOIN LATERAL (SELECT voyager.lane_backlog(gl.group_id, gl.lane, v_min, v_max, v_capture) AS articles) todo
     CROSS JOIN LATERAL (SELECT min(r.priority) AS priority FROM voyager.ranges r
                          WHERE r.group_id = gl.group_id
                            AND ((r.status = 'planned' AND r.priority BETWEEN v_min AND v_max
                                  AND (NOT v_capture OR r.capture))
                                 OR (r.status = 'leased' AND r.lane = gl.lane))) urgent
     WHERE gl.lane = v_lane AND g.active
       AND voyager.lane_claimable(gl, v_min, v_max, v_capture)
     ORDER BY urgent.priority NULLS LAST,
              CASE WHEN v_turn % 2 = 1 THEN todo.articles END DESC NULLS LAST,
              gl.released_at ASC NULLS FIRST,
              g.priority
     LIMIT 1
       FOR UPDATE OF gl SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_held THEN
        PERFORM voyager.replan_since_snapshot(v_group, v_lane);
    ELSIF v_lane = 'tail' AND NOT voyager.tail_started(v_group) THEN
        -- The seam: a caught-up, released history lane whose window stands where the
        -- tail's first range begins is continued by the tail (its snapshot handed over).
        INSERT INTO voyager.snapshots AS s (group_id, lane, article, rule_version, bytes, taken_at, data)
        SELECT s.group_id, 'tail', s.article, s.rule_version, s.bytes, s.taken_at, s.data
          FROM voyager.snapshots s
          JOIN voyager.group_leases h ON h.group_id = s.group_id AND h.lane = s.lane
         WHERE s.group_id = v_group AND s.lane = 'history' AND h.token IS NULL
           AND h.snapshot_article = s.article
           AND s.article = (SELECT min(r.start_article) FROM voyager.ranges r
                             WHERE r.group_id = v_group AND r.priority <= v_tail AND r.status <> 'ancient')
           AND voyager.history_caught_up(v_group)
            ON CONFLICT (group_id, lane, article) DO UPDATE
           SET rule_version = excluded.rule_version, bytes = excluded.bytes, taken_at = excluded.taken_at,
               data = excluded.data;
        IF FOUND THEN
            UPDATE voyager.group_leases gl
               SET snapshot_article = h.snapshot_article, snapshot_at = h.snapshot_at
              FROM voyager.group_leases h
             WHERE gl.group_id = v_group AND gl.lane = 'tail' AND h.group_id = v_group AND h.lane = 'history';
        END IF;
    END IF;
    UPDATE voyager.group_leases gl
       SET token = gen_random_uuid(), holder = v_node, leased_at = now(),
           heartbeat_at = now(), expires_at = voyager.lease_expiry(), range_id = NULL,
           min_priority = v_min, max_priority = v_max, capture_only = v_capture,
           takeovers = gl.takeovers + v_held::integer
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
    INSERT INTO voyager.nodes AS n (name) VALUES (v_node)
        ON CONFLICT (name) DO UPDATE SET seen_at = now();

    RETURN QUERY
    SELECT gl.token, gl.group_id, g.name, gl.lane, gl.holder, gl.snapshot_article, s.bytes, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
      LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
                                   AND s.article = gl.snapshot_article
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
END $$;


--
-- Name: lease_of(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_of(p_token uuid) RETURNS voyager.group_leases
    LANGUAGE plpgsql
    AS $$
DECLARE v voyager.group_leases;
BEGIN
    IF p_token IS NULL THEN
        RAISE EXCEPTION 'a lease token is required' USING ERRCODE = '22004';
    END IF;
    SELECT * INTO v FROM voyager.group_leases WHERE token = p_token FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'lease % is not current: it was taken over or released', p_token
            USING ERRCODE = 'VY001', HINT = 'Lease the group again with voyager.lease_group().';
    END IF;
    RETURN v;
END $$;


--
-- Name: lease_recovery(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_recovery(p_node text DEFAULT NULL::text) RETURNS TABLE(token uuid, recovery_id bigint, group_name text, rule text, key text, taken_over boolean)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_node  text := coalesce(nullif(p_node, ''), 'unnamed');
    v_token uuid := gen_random_uuid();
    x       voyager.recoveries;
    v_id    bigint;
    v_held  boolean;
BEGIN
    SELECT r.id, gl.token IS NOT NULL INTO v_id, v_held
      FROM voyager.recoveries r
      JOIN voyager.group_leases gl ON gl.group_id = r.group_id AND gl.lane = 'recovery'
     WHERE r.done_at IS NULL AND (gl.token IS NULL OR gl.expires_at < now())
     ORDER BY r.id
     LIMIT 1
       FOR UPDATE OF gl SKIP LOCKED;
    IF v_id IS NULL THEN
        RETURN;
    END IF;
    SELECT * INTO x FROM voyager.recoveries r WHERE r.id = v_id;
    UPDATE voyager.group_leases gl
       SET token = v_token, holder = v_node, leased_at = now(),
           heartbeat_at = now(), expires_at = voyager.lease_expiry(), range_id = NULL,
           rule_version = x.rule_version, rules_token = v_token, takeovers = gl.takeovers + v_held::integer
     WHERE gl.group_id = x.group_id AND gl.lane = 'recovery';
    UPDATE voyager.recoveries r SET token = v_token WHERE r.id = x.id;
    INSERT INTO voyager.nodes AS n (name) VALUES (v_node)
        ON CONFLICT (name) DO UPDATE SET seen_at = now();
    RETURN QUERY SELECT v_token, x.id, g.name, x.rule, x.key, v_held
                   FROM voyager.groups g WHERE g.id = x.group_id;
END $$;


--
-- Name: lease_rules(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_rules(p_token uuid) RETURNS TABLE(rule_version integer, rules jsonb, owners jsonb)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v voyager.group_leases;
    v_version integer;
BEGIN
    v := voyager.lease_of(p_token);
    v_version := CASE WHEN v.rules_token = p_token THEN v.rule_version END;
    IF v_version IS NULL THEN
        v_version := (SELECT max(rs.version) FROM voyager.rule_sets rs);
        UPDATE voyager.group_leases gl SET rule_version = v_version, rules_token = p_token
         WHERE gl.group_id = v.group_id AND gl.lane = v.lane;
    END IF;
    RETURN QUERY
    SELECT rs.version, rs.rules,
           (SELECT coalesce(jsonb_object_agg(g.name, g.priority), '{}') FROM voyager.groups g WHERE g.active)
      FROM voyager.rule_sets rs WHERE rs.version = v_version;
END $$;


--
-- Name: lease_waiting(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_waiting(p_token uuid) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    RETURN EXISTS (
        SELECT 1 FROM voyager.group_leases gl
          JOIN voyager.groups g ON g.id = gl.group_id
         WHERE gl.lane = v.lane AND gl.group_id <> v.group_id AND g.active
           AND voyager.lane_claimable(gl, coalesce(v.min_priority, -2147483648),
                                      coalesce(v.max_priority, 2147483647), v.capture_only));
END $$;


--
-- Name: listing_refusals(jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.listing_refusals(listing jsonb) RETURNS TABLE(group_name text, reason text)
    LANGUAGE sql STABLE
    AS $$
    SELECT x.name,
           CASE WHEN least(x.low, x.high) < 0
                  THEN format('negative watermark (low %s, high %s)', x.low, x.high)
                WHEN greatest(x.low, x.high) > m.top
                  THEN format('absurd watermark (low %s, high %s) above listing_max_article %s', x.low, x.high, m.top)
                ELSE format('reversed watermarks, low %s above high %s', x.low, x.high)
           END
      FROM jsonb_array_elements(listing) AS e(row)
     CROSS JOIN LATERAL (SELECT e.row ->> 'name' AS name, (e.row ->> 'low')::numeric AS low,
                                (e.row ->> 'high')::numeric AS high) x
     CROSS JOIN (SELECT voyager.setting_int('listing_max_article')::numeric AS top) m
     WHERE least(x.low, x.high) < 0 OR greatest(x.low, x.high) > m.top OR x.high < x.low - 1
$$;


--
-- Name: maintain_chunk_partitions(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.maintain_chunk_partitions(p_ahead_months integer DEFAULT 1) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_month date;
    v_made integer := 0;
    v_before integer := (SELECT count(*) FROM pg_inherits WHERE inhparent = 'voyager.release_chunks'::regclass);
BEGIN
    FOR v_month IN
        SELECT DISTINCT c.month FROM voyager.release_chunks_default c
        UNION
        SELECT (date_trunc('month', now()) + make_interval(months => k))::date
          FROM generate_series(0, p_ahead_months) k
        ORDER BY 1
    LOOP
        PERFORM voyager.chunk_partition(v_month);
    END LOOP;
    v_made := (SELECT count(*) FROM pg_inherits WHERE inhparent = 'voyager.release_chunks'::regclass) - v_before;
    RETURN v_made;
END $$;


--
-- Name: mark_capture(timestamp with time zone, timestamp with time zone, integer, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.mark_capture(p_from timestamp with time zone, p_to timestamp with time zone, p_priority integer DEFAULT 0, p_group text DEFAULT NULL::text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: match_spots(text[], timestamp with time zone, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.match_spots(p_spots text[] DEFAULT NULL::text[], p_now timestamp with time zone DEFAULT now(), p_limit integer DEFAULT 1000) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_due integer;
    v_matched integer;
    v_named integer;
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS spots_due (spot_id text PRIMARY KEY, posted timestamptz, title text,
                                               identity_keys bytea[], message_ids text[], groups text[])
        ON COMMIT DROP;
    TRUNCATE spots_due;
    INSERT INTO spots_due
    SELECT n.spot_id, coalesce(s.posted_at, s.read_at), s.title, n.identity_keys, n.message_ids, n.groups
      FROM voyager.spot_nzbs n
      JOIN voyager.spots s ON s.message_id = n.spot_id AND s.disposed_at IS NULL
     WHERE n.state = 'read' AND n.next_try_at <= p_now
       AND (p_spots IS NULL OR n.spot_id = ANY (p_spots))
       AND NOT EXISTS (SELECT FROM voyager.spot_matches m WHERE m.spot_id = n.spot_id)
     ORDER BY n.next_try_at
     LIMIT p_limit;
    GET DIAGNOSTICS v_due = ROW_COUNT;

    WITH by_message AS (                 -- a probe target of the release: its articles are the NZB's
        SELECT d.spot_id, 0 AS ord, coalesce(r.merged_into, r.id, p.release_id) AS release_id,
               CASE WHEN r.id IS NULL AND p.release_id IS NULL THEN p.release_key END AS pending_key,
               abs(extract(epoch FROM coalesce(r.posted_at, p.posted_at) - d.posted)) AS gap
          FROM spots_due d
         CROSS JOIN LATERAL unnest(d.message_ids) mid
          JOIN voyager.probe_candidates pc ON pc.message_id = mid
          LEFT JOIN voyager.releases r ON r.id = pc.release_id
          LEFT JOIN voyager.pending_releases p ON p.release_key = pc.pending_key
         WHERE r.id IS NOT NULL OR p.release_key IS NOT NULL
    ), groups_due AS (
        SELECT d.spot_id, g.id AS group_id FROM spots_due d JOIN voyager.groups g ON g.name = ANY (d.groups)
    ), by_identity AS (                  -- the same release identity in one of its groups, within 48 hours
        SELECT d.spot_id, 1 AS ord, coalesce(r.merged_into, r.id) AS release_id, NULL::bytea AS pending_key,
               abs(extract(epoch FROM r.posted_at - d.posted)) AS gap
          FROM spots_due d
         CROSS JOIN LATERAL unnest(d.identity_keys) k
          JOIN voyager.releases r ON r.identity_key = k
          JOIN groups_due gd ON gd.spot_id = d.spot_id AND gd.group_id = r.group_id
         WHERE r.posted_at BETWEEN d.posted - interval '48 hours' AND d.posted + interval '48 hours'
        UNION ALL
        SELECT d.spot_id, 2, p.release_id, CASE WHEN p.release_id IS NULL THEN p.release_key END,
               abs(extract(epoch FROM p.posted_at - d.posted))
          FROM spots_due d
         CROSS JOIN LATERAL unnest(d.identity_keys) k
          JOIN voyager.pending_releases p ON p.identity_key = k
          JOIN groups_due gd ON gd.spot_id = d.spot_id AND gd.group_id = p.group_id
         WHERE p.posted_at BETWEEN d.posted - interval '48 hours' AND d.posted + interval '48 hours'
    ), best AS (
        SELECT DISTINCT ON (c.spot_id) c.spot_id, c.release_id, c.pending_key, c.ord
          FROM (SELECT * FROM by_message UNION ALL SELECT * FROM by_identity) c
         ORDER BY c.spot_id, c.ord, c.gap NULLS LAST, c.release_id NULLS LAST, c.pending_key
    ), ins AS (
        INSERT INTO voyager.spot_matches (spot_id, release_id, pending_key, via, matched_at)
        SELECT b.spot_id, b.release_id, b.pending_key, CASE WHEN b.ord = 0 THEN 'message-id' ELSE 'identity' END, p_now
          FROM best b
         ORDER BY b.spot_id
        ON CONFLICT (spot_id) DO NOTHING
        RETURNING spot_id, pending_key
    ), named AS (                        -- a pending release the ladder has not named: the spot names it
        UPDATE voyager.pending_releases p
           SET status = 4, named = left(d.title, 255), name_source = 4, decided_at = p_now
          FROM ins i JOIN spots_due d ON d.spot_id = i.spot_id
         WHERE p.release_key = i.pending_key AND p.status IN (0, 2, 3) AND coalesce(btrim(d.title), '') <> ''
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM named) INTO v_matched, v_named;

    UPDATE voyager.spot_nzbs n
       SET next_try_at = CASE WHEN EXISTS (SELECT FROM voyager.spot_matches m WHERE m.spot_id = n.spot_id)
                              THEN NULL ELSE p_now + interval '1 hour' END,
           tries = n.tries + 1
      FROM spots_due d WHERE n.spot_id = d.spot_id;

    RETURN jsonb_build_object('due', v_due, 'matched', v_matched, 'named', v_named,
                              'applied', voyager.apply_spot_matches(p_now));
END $$;


--
-- Name: merge_pass(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.merge_pass() RETURNS TABLE(slices integer, proposed integer, merged integer, place timestamp with time zone, behind interval)
    LANGUAGE plpgsql
    AS $_$
DECLARE
    v_place timestamptz;
    v_to timestamptz;
    v_until timestamptz := now() - make_interval(secs => voyager.setting_int('merge_lag_seconds'));
    v_step interval := make_interval(secs => voyager.setting_int('merge_slice_seconds'));
    v_budget interval := make_interval(secs => voyager.setting_int('merge_run_seconds'));
    v_start timestamptz := clock_timestamp();
    v_out jsonb;
    v_finder text;
    v_slice timestamptz;
    v_last interval := interval '0';
    v_survivors bigint[];
    v_merged bigint[];
    v_via text[];
    v_sets bytea[];
    v_resettle bigint[];
BEGIN
    slices := 0; proposed := 0; merged := 0;
    -- survivors a late fact reached: under the merges lock, their rows locked in id order,
    -- as merge_releases takes them
    IF EXISTS (SELECT FROM voyager.merge_settle_queue) THEN
        PERFORM voyager.merges_lock();
        WITH q AS (
            DELETE FROM voyager.merge_settle_queue s
             WHERE s.survivor_id IN (SELECT q.survivor_id FROM voyager.merge_settle_queue q
                                      ORDER BY q.queued_at LIMIT 1000)
            RETURNING s.survivor_id
        )
        SELECT array_agg(DISTINCT coalesce(r.merged_into, r.id)) INTO v_resettle
          FROM q JOIN voyager.releases r ON r.id = q.survivor_id;
        IF v_resettle IS NOT NULL THEN
            PERFORM 1 FROM voyager.releases r WHERE r.id = ANY (v_resettle) ORDER BY r.id FOR UPDATE;
            PERFORM voyager.merge_settle(v_resettle);
        END IF;
    END IF;
    SELECT j.place INTO v_place FROM voyager.jobs j WHERE j.name = 'merges' FOR UPDATE;
    IF v_place IS NULL THEN               -- the first run starts at the oldest release
        SELECT min(r.first_seen_at) INTO v_place FROM voyager.releases r;
        v_place := coalesce(v_place, v_until);
    END IF;
    -- a slice is begun only while the run's time, the last slice's again included, fits the budget
    WHILE v_place < v_until AND clock_timestamp() - v_start + v_last < v_budget LOOP
        v_slice := clock_timestamp();
        v_to := least(v_place + v_step, v_until);
        -- each finder's proposals applied before the next finder reads: what the par2 merge
        -- joined, the name pass, the inner merge and the sidecar fold see merged and pass over
        FOREACH v_finder IN ARRAY ARRAY['find_par2_merges', 'find_name_merges', 'find_inner_merges',
                                        'find_sidecar_folds'] LOOP
            EXECUTE format('SELECT array_agg(f.survivor_id ORDER BY f.merged_id), array_agg(f.merged_id ORDER BY f.merged_id),
                                   array_agg(f.via ORDER BY f.merged_id), array_agg(f.set_id ORDER BY f.merged_id)
                              FROM voyager.%I($1, $2) f', v_finder)
               INTO v_survivors, v_merged, v_via, v_sets USING v_place, v_to;
            CONTINUE WHEN v_merged IS NULL;
            v_out := voyager.merge_releases(v_survivors, v_merged, v_via, v_sets);
            proposed := proposed + (v_out ->> 'proposed')::integer;
            merged := merged + (v_out ->> 'merged')::integer;
        END LOOP;
        slices := slices + 1;
        v_place := v_to;
        v_last := clock_timestamp() - v_slice;
    END LOOP;
    UPDATE voyager.jobs j SET place = v_place WHERE j.name = 'merges';
    place := v_place;
    behind := greatest(now() - v_place, interval '0');
    RETURN NEXT;
END $_$;


--
-- Name: merge_record(bigint[], bigint[], text[], bytea[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.merge_record(p_merged bigint[], p_roots bigint[], p_via text[], p_set bytea[]) RETURNS void
    LANGUAGE sql
    AS $$
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


--
-- Name: merge_releases(bigint[], bigint[], text[], bytea[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.merge_releases(p_survivor bigint[], p_merged bigint[], p_via text[], p_set bytea[]) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
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
    PERFORM voyager.merges_lock();
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


--
-- Name: merge_settle(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.merge_settle(p_roots bigint[]) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_alone bigint[];
    v_held bigint[];
BEGIN
    SELECT coalesce(array_agg(o.release_id) FILTER (WHERE NOT x.members), '{}'),
           coalesce(array_agg(o.release_id) FILTER (WHERE x.members), '{}')
      INTO v_alone, v_held
      FROM voyager.release_own_totals o
     CROSS JOIN LATERAL (SELECT EXISTS (SELECT FROM voyager.releases m WHERE m.merged_into = o.release_id) AS members) x
     WHERE o.release_id = ANY (p_roots);

    -- the new heads; one statement writes them, moves the chunks and renames the name texts
    WITH heads AS MATERIALIZED (
        SELECT o.release_id AS id, o.posted_at, o.last_posted_at, o.first_article, o.last_article, o.segments,
               o.bytes, o.files, o.complete, o.has_par2, o.source, o.name
          FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_alone)
        UNION ALL
        SELECT t.root, t.posted_at, t.last_posted_at, t.first_article, t.last_article, t.segments, t.bytes, t.files,
               -- a set whose list is gone keeps the completeness it gave
               t.complete OR coalesce((SELECT bool_or(coalesce(voyager.par2_complete(t.root, s.set_id), x.complete))
                                         FROM (SELECT DISTINCT rm.set_id FROM voyager.release_merges rm
                                                WHERE rm.survivor_id = t.root AND rm.set_id IS NOT NULL) s,
                                              voyager.releases x WHERE x.id = t.root), false),
               t.has_par2, n.source, n.name
          FROM (SELECT p.root, min(p.posted_at) AS posted_at, max(p.last_posted_at) AS last_posted_at,
                       min(p.first_article) AS first_article, max(p.last_article) AS last_article,
                       sum(p.segments)::bigint AS segments, sum(p.bytes)::bigint AS bytes,
                       sum(p.files)::integer AS files, bool_and(p.complete) AS complete, bool_or(p.has_par2) AS has_par2
                  FROM (SELECT o.release_id AS root, o.posted_at, o.last_posted_at, o.first_article, o.last_article,
                               o.segments, o.bytes, o.files, o.complete, o.has_par2
                          FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_held)
                        UNION ALL
                        SELECT m.merged_into, m.posted_at, m.last_posted_at, m.first_article, m.last_article,
                               m.segments, m.bytes, m.files, m.complete, m.has_par2
                          FROM voyager.releases m WHERE m.merged_into = ANY (v_held)) p
                 GROUP BY p.root) t
         CROSS JOIN LATERAL (
            SELECT c.name, c.source FROM (
                SELECT o.name, o.source, 0 AS pref, o.files
                  FROM voyager.release_own_totals o JOIN voyager.releases r ON r.id = o.release_id
                 WHERE o.release_id = t.root AND r.readable
                UNION ALL
                SELECT m.name, m.source, 1, m.files FROM voyager.releases m WHERE m.merged_into = t.root AND m.readable
                UNION ALL
                SELECT voyager.file_stem(s.name), 7::smallint, 2, 0      -- (a set once, not once a member)
                  FROM (SELECT DISTINCT rm.set_id FROM voyager.release_merges rm WHERE rm.survivor_id = t.root) rm
                  JOIN voyager.par2_sets s ON s.set_id = rm.set_id
                 WHERE s.name IS NOT NULL AND NOT voyager.random_stem(voyager.file_stem(s.name))
                UNION ALL
                SELECT o.name, o.source, 3, 0 FROM voyager.release_own_totals o WHERE o.release_id = t.root) c
             ORDER BY c.pref, c.files DESC, c.name LIMIT 1) n
    ), moved AS (
        UPDATE voyager.release_chunks c SET month = voyager.chunk_month(h.posted_at)
          FROM heads h JOIN voyager.releases r ON r.id = h.id
         WHERE c.release_id = h.id AND c.month = voyager.chunk_month(r.posted_at)
           AND voyager.chunk_month(r.posted_at) <> voyager.chunk_month(h.posted_at)
        RETURNING 1
    ), renamed AS (                   -- (at its new date: the date's move then leaves it alone)
        UPDATE voyager.release_texts t SET text = h.name, posted_at = h.posted_at
          FROM heads h WHERE t.release_id = h.id AND t.kind = 1 AND t.text <> h.name
        RETURNING 1
    )
    UPDATE voyager.releases r
       SET posted_at = h.posted_at, last_posted_at = h.last_posted_at, first_article = h.first_article,
           last_article = h.last_article, segments = h.segments, bytes = h.bytes, files = h.files,
           complete = h.complete, has_par2 = h.has_par2, source = h.source, name = h.name
      FROM heads h
     WHERE r.id = h.id
       AND (r.posted_at, r.last_posted_at, r.first_article, r.last_article, r.segments, r.bytes, r.files,
            r.complete, r.has_par2, r.source, r.name)
           IS DISTINCT FROM (h.posted_at, h.last_posted_at, h.first_article, h.last_article, h.segments, h.bytes,
                             h.files, h.complete, h.has_par2, h.source, h.name);

    -- one kind-7 text a survivor: its members' lines, each once (every volume of an archive
    -- lists the same entries) and only those bringing a word its own texts lack; written only
    -- where it changed, as every text indexes its words
    WITH lines AS MATERIALIZED (
        SELECT m.merged_into AS root, l.line, min(t.kind) AS kind
          FROM voyager.releases m
          JOIN voyager.release_texts t ON t.release_id = m.id AND t.kind <> 7
                                      AND (t.kind <> 1 OR m.readable)     -- a random name finds nothing
         CROSS JOIN LATERAL unnest(string_to_array(t.text, E'\n')) l(line)
         WHERE m.merged_into = ANY (v_held) AND btrim(l.line) <> ''
         GROUP BY m.merged_into, l.line
    ), own AS MATERIALIZED (          -- (the words of the roots that have lines: most members of an
        SELECT t.release_id AS root, array_agg(DISTINCT w.word) AS words      -- upload have none)
          FROM voyager.release_texts t
         CROSS JOIN LATERAL unnest(voyager.search_words(t.text)) w(word)
         WHERE t.release_id = ANY (ARRAY(SELECT DISTINCT l.root FROM lines l)) AND t.kind <> 7
         GROUP BY t.release_id
    ), texts AS MATERIALIZED (        -- (at the root's date, read once a root)
        SELECT x.root, h.posted_at, x.text
          FROM (SELECT l.root, string_agg(l.line, E'\n' ORDER BY l.kind, l.line) AS text
                  FROM lines l LEFT JOIN own o ON o.root = l.root
                 WHERE NOT coalesce(voyager.search_words(l.line) <@ o.words, false)
                 GROUP BY l.root) x
          JOIN voyager.releases h ON h.id = x.root
    ), gone AS (
        DELETE FROM voyager.release_texts t
         WHERE t.release_id = ANY (p_roots) AND t.kind = 7
           AND NOT EXISTS (SELECT FROM texts x WHERE x.root = t.release_id AND x.text = t.text
                                                 AND x.posted_at = t.posted_at)
        RETURNING 1
    )
    INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
    SELECT x.root, x.posted_at, 7, x.text
      FROM texts x
     WHERE NOT EXISTS (SELECT FROM voyager.release_texts t
                        WHERE t.release_id = x.root AND t.kind = 7 AND t.text = x.text AND t.posted_at = x.posted_at);

    -- the password: a survivor's is the surest of its own and its members' (passworded before
    -- unknown, a password kept); a root alone again gets its own back
    DELETE FROM voyager.release_passwords pw
     USING voyager.release_own_totals o
     WHERE o.release_id = ANY (v_alone) AND pw.release_id = o.release_id AND o.password_status IS NULL;
    INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
    SELECT o.release_id, o.password_status, o.password, o.password_source
      FROM voyager.release_own_totals o
     WHERE o.release_id = ANY (v_alone) AND o.password_status IS NOT NULL
        ON CONFLICT (release_id) DO UPDATE SET status = excluded.status, password = excluded.password,
                                              source = excluded.source;
    DELETE FROM voyager.release_passwords pw
     WHERE pw.release_id = ANY (v_held)
       AND NOT EXISTS (SELECT FROM voyager.release_own_totals o
                        WHERE o.release_id = pw.release_id AND o.password_status IS NOT NULL)
       AND NOT EXISTS (SELECT FROM voyager.releases m JOIN voyager.release_passwords x ON x.release_id = m.id
                        WHERE m.merged_into = pw.release_id);
    INSERT INTO voyager.release_passwords AS pw (release_id, status, password, source)
    SELECT DISTINCT ON (p.root) p.root, p.status, p.password, p.source
      FROM (SELECT o.release_id AS root, o.password_status AS status, o.password, o.password_source AS source
              FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_held) AND o.password_status IS NOT NULL
            UNION ALL
            SELECT m.merged_into, x.status, x.password, x.source
              FROM voyager.releases m JOIN voyager.release_passwords x ON x.release_id = m.id
             WHERE m.merged_into = ANY (v_held)) p
     ORDER BY p.root, p.password IS NULL, p.status = 1 DESC, p.status = 2 DESC
        ON CONFLICT (release_id) DO UPDATE SET status = excluded.status, password = excluded.password,
                                              source = excluded.source
     WHERE (pw.status, pw.password, pw.source) IS DISTINCT FROM (excluded.status, excluded.password, excluded.source);

    DELETE FROM voyager.release_own_totals o WHERE o.release_id = ANY (v_alone);
    PERFORM voyager.recategorize_mark(p_roots);
    RETURN cardinality(v_held);
END $$;


--
-- Name: merge_settle_mark(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.merge_settle_mark(p_ids bigint[]) RETURNS integer
    LANGUAGE sql
    AS $$ SELECT voyager.queue_mark('merge_settle_queue', 'survivor_id', p_ids) $$;


--
-- Name: merges_lock(boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.merges_lock(p_shared boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF p_shared THEN
        PERFORM pg_advisory_xact_lock_shared(hashtext('voyager.merges'));
    ELSE
        PERFORM pg_advisory_xact_lock(hashtext('voyager.merges'));
    END IF;
END $$;


--
-- Name: name_key(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.name_key(p_name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
SELECT lower(regexp_replace(regexp_replace(p_name, '^.*[/\\]', ''), '[^[:alnum:]]+', '', 'g'))
$$;


--
-- Name: new_api_key(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.new_api_key() RETURNS text
    LANGUAGE sql
    AS $$
    SELECT left(encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'), 32)
$$;


--
-- Name: next_range(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.next_range(p_token uuid) RETURNS TABLE(range_id bigint, group_id integer, start_article bigint, end_article bigint, next_article bigint, priority integer, capture boolean, stored_at timestamp with time zone, rule_version integer)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v voyager.group_leases;
    r voyager.ranges;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases gl SET heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE gl.group_id = v.group_id AND gl.lane = v.lane;

    SELECT * INTO r FROM voyager.ranges x WHERE x.id = v.range_id AND x.status = 'leased' FOR UPDATE;
    IF NOT FOUND THEN
        SELECT * INTO r FROM voyager.ranges x
         WHERE x.group_id = v.group_id
           AND ((x.status = 'planned' AND x.priority BETWEEN v.min_priority AND v.max_priority
                 AND (NOT v.capture_only OR x.capture))
                OR (x.status = 'leased' AND x.lane = v.lane))
         ORDER BY x.start_article
         LIMIT 1
           FOR UPDATE;
        IF NOT FOUND THEN
            RETURN;
        END IF;
        IF r.status = 'planned' THEN
            UPDATE voyager.ranges x
               SET status = 'leased', lane = v.lane, leased_at = now(), attempts = x.attempts + 1,
                   error = NULL, rule_version = CASE WHEN v.rules_token = p_token THEN v.rule_version END
             WHERE x.id = r.id
            RETURNING * INTO r;
        END IF;
        UPDATE voyager.group_leases gl SET range_id = r.id
         WHERE gl.group_id = v.group_id AND gl.lane = v.lane;
    END IF;
    RETURN QUERY SELECT r.id, r.group_id, r.start_article, r.end_article, r.next_article,
                        r.priority, r.capture, r.stored_at, r.rule_version;
END $$;


--
-- Name: nntp_claim(text, text, integer, integer, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nntp_claim(p_node text, p_role text, p_want integer, p_limit integer, p_held integer DEFAULT NULL::integer) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_share    voyager.nntp_shares;
    v_ttl      interval := make_interval(secs => voyager.setting_int('nntp_claim_ttl_seconds'));
    v_others   integer;   -- every other live claim
    v_role_oth integer;   -- other live claims of this role
    v_reserved integer;   -- other roles' minimums not yet held (guaranteed to them)
    v_ahead    integer;   -- unmet wants of roles before this one in priority order
    v_free     integer;
    v_cap      integer;
    v_n        integer;
    v_grant    integer;
    v_bulk     integer;   -- what the roles that may not take the reserve may hold together
    v_bulk_oth integer;   -- other live claims of those roles
BEGIN
    IF p_node IS NULL OR p_node = '' THEN
        RAISE EXCEPTION 'a claim needs the node''s name' USING ERRCODE = '22023';
    END IF;
    IF p_want IS NULL OR p_want < 0 OR p_limit IS NULL OR p_limit < 0 THEN
        RAISE EXCEPTION 'want and limit must be >= 0 (want %, limit %)', p_want, p_limit USING ERRCODE = '22023';
    END IF;
    -- the serialization point: all shares rows, always in the same order
    PERFORM 1 FROM voyager.nntp_shares ORDER BY role FOR UPDATE;
    SELECT * INTO v_share FROM voyager.nntp_shares WHERE role = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no connection share for role %', coalesce(p_role, 'null') USING ERRCODE = '22023';
    END IF;
    DELETE FROM voyager.nntp_claims WHERE expires_at < now();
    IF p_want = 0 THEN
        DELETE FROM voyager.nntp_claims WHERE node = p_node AND role = p_role;
        RETURN 0;
    END IF;

    SELECT coalesce(sum(connections), 0), coalesce(sum(connections) FILTER (WHERE role = p_role), 0)
      INTO v_others, v_role_oth
      FROM voyager.nntp_claims WHERE NOT (node = p_node AND role = p_role);
    SELECT coalesce(sum(greatest(s.min_connections - coalesce(u.used, 0), 0)), 0) INTO v_reserved
      FROM voyager.nntp_shares s
      LEFT JOIN (SELECT c.role, sum(c.connections) AS used FROM voyager.nntp_claims c
                  WHERE NOT (c.node = p_node AND c.role = p_role) GROUP BY c.role) u ON u.role = s.role
     WHERE s.role <> p_role;
    -- what headers and probes may hold together, and hold now (not this claim)
    v_bulk := p_limit - least(voyager.setting_int('nntp_reserve')::integer, p_limit / 2);
    SELECT coalesce(sum(c.connections), 0) INTO v_bulk_oth
      FROM voyager.nntp_claims c JOIN voyager.nntp_shares s ON s.role = c.role
     WHERE NOT s.reserve AND NOT (c.node = p_node AND c.role = p_role);
    -- unmet wants ahead; those of headers and probes only as far as the reserve lets them grow
    SELECT coalesce(sum(greatest(c.want - c.connections, 0)) FILTER (WHERE s.reserve), 0)
         + least(coalesce(sum(greatest(c.want - c.connections, 0)) FILTER (WHERE NOT s.reserve), 0),
                 greatest(v_bulk - v_bulk_oth, 0))
      INTO v_ahead
      FROM voyager.nntp_claims c JOIN voyager.nntp_shares s ON s.role = c.role
     WHERE s.priority < v_share.priority;

    -- what nobody holds, less what is promised to others (minimums, roles ahead)
    v_free := p_limit - v_others - v_reserved - v_ahead;
    -- this role's own minimum is guaranteed whatever comes after it
    v_free := greatest(v_free, least(greatest(v_share.min_connections - v_role_oth, 0), p_limit - v_others));
    v_grant := least(p_want, v_share.max_connections - v_role_oth, v_free);

    -- Within a role, a claimant starved by another's earlier claim gets its fair
    -- share as the others renew: a renewing claimant is held to it meanwhile.
    IF EXISTS (SELECT 1 FROM voyager.nntp_claims c
                WHERE c.role = p_role AND c.node <> p_node AND c.want > c.connections) THEN
        SELECT count(*) + 1 INTO v_n FROM voyager.nntp_claims c WHERE c.role = p_role AND c.node <> p_node;
        v_cap := least(v_share.max_connections, p_limit - (v_others - v_role_oth) - v_reserved - v_ahead);
        IF NOT v_share.reserve THEN        -- the fair share of what the reserve leaves
            v_cap := least(v_cap, v_bulk - (v_bulk_oth - v_role_oth));
        END IF;
        v_grant := least(v_grant, greatest(ceil(v_cap::numeric / v_n)::integer, 1));
    END IF;
    -- the reserve, which headers and probes may not take
    IF NOT v_share.reserve THEN
        v_grant := least(v_grant, v_bulk - v_bulk_oth);
    END IF;
    -- the invariant, whatever the shares say: never more than the account allows
    v_grant := greatest(0, least(v_grant, p_limit - v_others));

    INSERT INTO voyager.nntp_claims AS c (node, role, connections, want, claimed_at, expires_at)
    VALUES (p_node, p_role, greatest(v_grant, least(coalesce(p_held, 0), p_limit - v_others)), p_want,
            now(), now() + v_ttl)
        ON CONFLICT (node, role) DO UPDATE
       SET connections = excluded.connections, want = excluded.want, claimed_at = excluded.claimed_at,
           expires_at = excluded.expires_at;
    RETURN v_grant;
END $$;


--
-- Name: nntp_release(text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nntp_release(p_node text, p_role text DEFAULT NULL::text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE v integer;
BEGIN
    PERFORM 1 FROM voyager.nntp_shares ORDER BY role FOR UPDATE;
    WITH gone AS (
        DELETE FROM voyager.nntp_claims WHERE node = p_node AND (p_role IS NULL OR role = p_role)
        RETURNING connections)
    SELECT coalesce(sum(connections), 0) INTO v FROM gone;
    RETURN v;
END $$;


--
-- Name: note_catalog_change(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.note_catalog_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO voyager.catalog_changes DEFAULT VALUES;
    RETURN NULL;
END $$;


--
-- Name: note_search_deltas(text[], bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.note_search_deltas(p_keys text[], p_deltas bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    SELECT voyager.search_tracking_lock();
    INSERT INTO voyager.search_count_deltas (key, delta)
    SELECT x.k, sum(x.d) FROM unnest(p_keys, p_deltas) x(k, d)
     WHERE x.k NOT LIKE 'w:%' OR EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = x.k)
     GROUP BY x.k HAVING sum(x.d) <> 0
$$;


--
-- Name: nzb(bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nzb(p_release_id bigint) RETURNS text
    LANGUAGE sql STABLE
    AS $$
SELECT voyager.nzb_from_chunks(array_agg(s.chunk ORDER BY s.chunk_no), s.name, s.poster, s.posted, s.groups,
                               s.nzb_category, s.password)
  FROM voyager.nzb_source(p_release_id) s
 WHERE s.chunk IS NOT NULL
 GROUP BY s.id, s.name, s.poster, s.posted, s.groups, s.nzb_category, s.password
$$;


--
-- Name: nzb_from_chunk(bytea, text, text, bigint, text[], text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nzb_from_chunk(chunk bytea, title text, poster text, posted_at bigint, groups text[], category text DEFAULT NULL::text, password text DEFAULT NULL::text) RETURNS text
    LANGUAGE plpython3u IMMUTABLE
    AS $$
from voyager_pl.nzb import build
return build(chunk, title, poster, posted_at, groups, category, password)
$$;


--
-- Name: nzb_from_chunks(bytea[], text, text, bigint, text[], text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nzb_from_chunks(chunks bytea[], title text, poster text, posted_at bigint, groups text[], category text DEFAULT NULL::text, password text DEFAULT NULL::text) RETURNS text
    LANGUAGE plpython3u IMMUTABLE
    AS $$
from voyager_pl.nzb import build_chunks
return build_chunks(chunks, title, poster, posted_at, groups, category, password)
$$;


--
-- Name: nzb_source(bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nzb_source(p_release_id bigint) RETURNS TABLE(id bigint, name text, poster text, posted bigint, groups text[], category integer, password text, password_status smallint, nzb_category text, chunk_no bigint, chunk bytea)
    LANGUAGE sql STABLE
    AS $$
SELECT r.id, r.name, p.poster, extract(epoch FROM r.posted_at)::bigint, gs.groups,
       voyager.search_category(r.category), pw.password, pw.status,
       (SELECT coalesce(pc.name || ' > ', '') || cat.name FROM voyager.categories cat
          LEFT JOIN voyager.categories pc ON pc.id = cat.parent_id WHERE cat.id = r.category),
       c.chunk_no, c.chunk
  FROM voyager.releases r
  JOIN voyager.posters p ON p.id = r.poster_id
  JOIN voyager.group_sets gs ON gs.id = r.group_set_id
  LEFT JOIN voyager.release_passwords pw ON pw.release_id = r.id
  LEFT JOIN LATERAL (
      SELECT row_number() OVER (ORDER BY c.month, c.release_id) AS chunk_no, c.chunk
        FROM (SELECT r.id, r.posted_at
              UNION ALL
              SELECT m.id, m.posted_at FROM voyager.releases m WHERE m.merged_into = r.id) part
       CROSS JOIN LATERAL (
            SELECT c.month, c.release_id, c.chunk FROM voyager.release_chunks c
             WHERE c.month = voyager.chunk_month(part.posted_at) AND c.release_id = part.id
            UNION ALL
            SELECT c.month, c.release_id, c.chunk FROM voyager.release_chunks c
             WHERE c.release_id = part.id
               AND NOT EXISTS (SELECT FROM voyager.release_chunks m
                                WHERE m.month = voyager.chunk_month(part.posted_at) AND m.release_id = part.id)) c
  ) c ON true
 WHERE r.id = p_release_id
 ORDER BY c.chunk_no
$$;


--
-- Name: par2_complete(bigint, bytea); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.par2_complete(p_release_id bigint, p_set_id bytea) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
WITH parts AS (
    SELECT r.id, r.posted_at, r.bytes FROM voyager.releases r WHERE r.id = p_release_id
    UNION ALL
    SELECT m.id, m.posted_at, m.bytes FROM voyager.releases m WHERE m.merged_into = p_release_id
), own AS (                               -- a survivor's own bytes, not the merged totals
    SELECT p.id, coalesce(o.bytes, p.bytes) AS bytes, coalesce(o.posted_at, p.posted_at) AS posted_at
      FROM parts p LEFT JOIN voyager.release_own_totals o ON o.release_id = p.id
), names AS (
    SELECT n FROM own p CROSS JOIN LATERAL unnest(voyager.release_file_names(p.id, p.posted_at)) n
), described AS (
    SELECT f.name, f.size, f.md5_16k FROM voyager.par2_files f WHERE f.set_id = p_set_id
)
SELECT CASE WHEN (SELECT s.files_dropped_at IS NOT NULL FROM voyager.par2_sets s WHERE s.set_id = p_set_id)
            THEN NULL                     -- its list is gone: it proved what it could before
       ELSE EXISTS (SELECT FROM described)
   AND CASE WHEN (SELECT bool_and(EXISTS (SELECT FROM voyager.file_hashes h       -- by hash: no chunk decoded
                                           WHERE h.md5_16k = d.md5_16k AND h.size = d.size
                                             AND h.release_id IN (SELECT id FROM parts)))
                    FROM described d)
            THEN true
            ELSE (SELECT bool_and(voyager.name_key(d.name) IN (SELECT voyager.name_key(n) FROM names)
                                  OR EXISTS (SELECT FROM voyager.file_hashes h
                                              WHERE h.md5_16k = d.md5_16k AND h.size = d.size
                                                AND h.release_id IN (SELECT id FROM parts)))
                    FROM described d)
                 OR ((SELECT count(*) FROM names WHERE voyager.side_kind(n) IS DISTINCT FROM 'par2')
                       >= (SELECT count(*) FROM described)
                     AND (SELECT sum(bytes) FROM own) >= (SELECT sum(size) FROM described)) END END
$$;


--
-- Name: pending_ladder(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.pending_ladder(p_limit integer DEFAULT NULL::integer) RETURNS TABLE(looked integer, named integer, tried integer, discarded integer, exhausted integer)
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
    v_tries integer := voyager.setting_int('pending_tries');
    v_retry interval := make_interval(mins => voyager.setting_int('pending_retry_minutes')::integer);
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS pending_ladder_step (
        release_key bytea PRIMARY KEY, tool text, group_id integer, poster text, muted boolean,
        facts jsonb, unread integer, name text, source smallint, outcome smallint
    ) ON COMMIT DROP;
    TRUNCATE pending_ladder_step;
    INSERT INTO pending_ladder_step (release_key, tool, group_id, poster, muted)
    SELECT p.release_key, p.tool, p.group_id, p.poster, coalesce(s.muted, false)
      FROM voyager.pending_releases p
      LEFT JOIN voyager.pending_signatures s ON s.tool = p.tool AND s.group_id = p.group_id AND s.poster = p.poster
     WHERE p.status = 0 AND p.finished
       AND (p.tries = 0 OR p.decided_at < now() - v_retry)      -- a try waits its pause
       AND (s.muted OR NOT EXISTS (SELECT FROM voyager.probe_candidates pc
                                    WHERE pc.pending_key = p.release_key AND pc.probed_at IS NULL
                                      AND pc.attempts < 5))
     ORDER BY p.created_at
     LIMIT coalesce(p_limit, voyager.setting_int('pending_ladder_batch'))
       FOR UPDATE OF p SKIP LOCKED;

    -- what the probes read (status 0) and how many targets gave nothing
    UPDATE pending_ladder_step x
       SET facts = f.facts, unread = f.unread, name = n.name, source = n.source
      FROM (SELECT x.release_key,
                   jsonb_agg(c.facts) FILTER (WHERE c.status = 0 AND jsonb_typeof(c.facts) = 'object') AS facts,
                   count(pc.kind) FILTER (WHERE c.status IS DISTINCT FROM 0) AS unread
              FROM pending_ladder_step x
              LEFT JOIN voyager.probe_candidates pc ON pc.pending_key = x.release_key
              LEFT JOIN voyager.probe_cache c ON c.message_id = pc.message_id
             GROUP BY x.release_key) f
      LEFT JOIN LATERAL voyager.pending_name(f.facts) n ON true
     WHERE x.release_key = f.release_key;

    -- a file start a par2 set describes names it by the set (one volume of an upload posted one
    -- random-named file at a time: the par2 merge joins it to its upload once it is in the catalog);
    -- a common start names nothing
    UPDATE pending_ladder_step x SET name = d.name, source = 7
      FROM (SELECT DISTINCT ON (h.pending_key) h.pending_key, voyager.file_stem(s.name) AS name
              FROM voyager.file_hashes h
              JOIN voyager.par2_files f ON f.md5_16k = h.md5_16k AND f.size = h.size
              JOIN voyager.par2_sets s ON s.set_id = f.set_id
             WHERE h.pending_key IN (SELECT y.release_key FROM pending_ladder_step y WHERE y.name IS NULL)
               AND s.name IS NOT NULL AND NOT voyager.random_stem(voyager.file_stem(s.name))
               AND NOT voyager.common_start(h.md5_16k, h.size)
             ORDER BY h.pending_key, s.found_at, s.set_id) d
     WHERE x.release_key = d.pending_key AND x.name IS NULL;

    -- the outcome: 4 named, 0 another try, 2 discarded, 3 exhausted
    UPDATE pending_ladder_step x
       SET outcome = CASE WHEN x.name IS NOT NULL THEN 4
                          -- another try while tries remain: a target read nothing, or a set that
                          -- names it may not be probed yet
                          WHEN NOT x.muted AND p.tries + 1 < v_tries THEN 0
                          WHEN x.facts IS NULL THEN 2 ELSE 3 END
      FROM voyager.pending_releases p WHERE p.release_key = x.release_key;

    UPDATE voyager.pending_releases p
       SET status = x.outcome, named = x.name, name_source = x.source,
           tries = p.tries + CASE WHEN x.outcome = 4 THEN 0 ELSE 1 END,
           decided_at = now()                              -- decided, or (status 0) last tried
      FROM pending_ladder_step x WHERE p.release_key = x.release_key;

    -- another try: the targets that read nothing are probed again after the pause
    WITH again AS (
        UPDATE voyager.probe_candidates pc
           SET probed_at = NULL, attempts = 0, claim = NULL, claimed_by = NULL, expires_at = now() + v_retry
          FROM pending_ladder_step x
         WHERE x.outcome = 0 AND pc.pending_key = x.release_key
           AND NOT EXISTS (SELECT FROM voyager.probe_cache c WHERE c.message_id = pc.message_id AND c.status = 0)
        RETURNING pc.message_id
    )
    DELETE FROM voyager.probe_cache c USING again WHERE c.message_id = again.message_id AND c.status > 0;

    INSERT INTO voyager.pending_signatures AS s (tool, group_id, poster, probes, named)
    SELECT x.tool, x.group_id, x.poster, count(*), count(*) FILTER (WHERE x.outcome = 4)
      FROM pending_ladder_step x
     WHERE x.outcome <> 0 AND NOT x.muted
     GROUP BY x.tool, x.group_id, x.poster
     ORDER BY x.tool, x.group_id, x.poster
        ON CONFLICT (tool, group_id, poster) DO UPDATE
       SET probes = s.probes + excluded.probes, named = s.named + excluded.named, updated_at = now();

    SELECT count(*), count(*) FILTER (WHERE x.outcome = 4), count(*) FILTER (WHERE x.outcome = 0),
           count(*) FILTER (WHERE x.outcome = 2), count(*) FILTER (WHERE x.outcome = 3)
      INTO looked, named, tried, discarded, exhausted
      FROM pending_ladder_step x;
    RETURN NEXT;
END $$;


--
-- Name: pending_name(jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.pending_name(p_facts jsonb) RETURNS TABLE(name text, source smallint)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
SELECT left(btrim(c.name), 255), c.source
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_facts) = 'array' THEN p_facts ELSE '[]' END) x(f)
 CROSS JOIN LATERAL (
       SELECT voyager.file_stem(e ->> 'name'), 7::smallint, (e ->> 'size')::numeric, e ->> 'name'
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(x.f -> 'par2' -> 'files') = 'array'
                                        THEN x.f -> 'par2' -> 'files' ELSE '[]' END) e
       UNION ALL
       SELECT voyager.file_stem(e ->> 'name'), 8::smallint, (e ->> 'size')::numeric, e ->> 'name'
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(x.f -> 'archive' -> 'entries') = 'array'
                                        THEN x.f -> 'archive' -> 'entries' ELSE '[]' END) e
       UNION ALL
       SELECT x.f -> 'nfo' ->> 'title', 9::smallint, 0, NULL
       UNION ALL
       SELECT voyager.file_stem(x.f -> 'yenc' ->> 'name'), 10::smallint, 0, x.f -> 'yenc' ->> 'name'
        WHERE voyager.file_stem(x.f -> 'yenc' ->> 'name') ~ '^[[:alnum:]]{2,}([._ -]+[[:alnum:]]+)+$'
 ) c(name, source, size, file)
 WHERE c.name IS NOT NULL AND length(btrim(c.name)) >= 3 AND c.name ~ '[[:alpha:]]'
   AND NOT voyager.random_stem(btrim(c.name))
   AND (c.file IS NULL OR voyager.side_kind(c.file) IS NULL)
 ORDER BY c.source, c.size DESC NULLS LAST, c.name
 LIMIT 1
$_$;


--
-- Name: pending_probe_candidates(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.pending_probe_candidates() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO voyager.probe_candidates AS pc (pending_key, kind, message_id, file_index)
    SELECT DISTINCT ON (n.release_key, c.value ->> 0) n.release_key, c.value ->> 0, c.value ->> 1, (c.value ->> 2)::integer
      FROM written n
     CROSS JOIN LATERAL jsonb_array_elements(n.candidates) c
     WHERE n.finished AND n.status = 0 AND jsonb_typeof(n.candidates) = 'array'
        ON CONFLICT (pending_key, kind) WHERE pending_key IS NOT NULL
        DO UPDATE SET message_id = excluded.message_id, file_index = excluded.file_index
     WHERE pc.probed_at IS NULL;
    RETURN NULL;
END $$;


--
-- Name: plan_groups(jsonb, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.plan_groups(listing jsonb, wildmat text DEFAULT NULL::text) RETURNS TABLE(group_name text, priority integer, added boolean, ranges_added integer, ranges_grown integer, articles_planned bigint, refused text)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_ra      bigint  := voyager.setting_int('range_articles');
    v_tail    integer := voyager.setting_int('tail_priority');
    v_hist    integer := voyager.setting_int('history_priority');
    v_taken   text;
    g         record;
    v_last    voyager.ranges;
    v_from    bigint;
    v_prio    integer;
    v_added   integer;
    v_grown   integer;
    v_articles bigint;
    v_new_end bigint;
BEGIN
    PERFORM voyager.check_listing(listing);
    -- One planner at a time: two rounds must not tile the same group twice.
    PERFORM pg_advisory_xact_lock(hashtext('voyager.plan_groups'));

    CREATE TEMP TABLE IF NOT EXISTS plan_listing (
        name text PRIMARY KEY, low bigint, high bigint, priority integer
    ) ON COMMIT DROP;
    TRUNCATE plan_listing;
    CREATE TEMP TABLE IF NOT EXISTS plan_refused (name text PRIMARY KEY, reason text) ON COMMIT DROP;
    TRUNCATE plan_refused;
    INSERT INTO plan_refused
    SELECT r.group_name, r.reason FROM voyager.listing_refusals(listing) r
     WHERE wildmat IS NULL OR voyager.wildmat(wildmat, r.group_name);
    INSERT INTO plan_listing
    SELECT x.name, (e.row ->> 'low')::bigint, (e.row ->> 'high')::bigint, x.priority
      FROM jsonb_array_elements(listing) AS e(row)
     CROSS JOIN LATERAL jsonb_to_record(e.row) AS x(name text, priority integer)
     WHERE (wildmat IS NULL OR voyager.wildmat(wildmat, x.name))
       AND NOT EXISTS (SELECT 1 FROM plan_refused f WHERE f.name = x.name);

    -- A priority number given for a new group must be free.
    SELECT l.name INTO v_taken FROM plan_listing l
      JOIN voyager.groups g2 ON g2.priority = l.priority AND g2.name <> l.name
     WHERE NOT EXISTS (SELECT 1 FROM voyager.groups g3 WHERE g3.name = l.name) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'group %: its priority number is already another group''s', v_taken USING ERRCODE = '23505';
    END IF;
    SELECT l.priority::text INTO v_taken FROM plan_listing l
     WHERE l.priority IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.groups g3 WHERE g3.name = l.name)
     GROUP BY l.priority HAVING count(*) > 1 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'priority number % is given to more than one new group', v_taken USING ERRCODE = '23505';
    END IF;

    -- New groups: given numbers first, then the next numbers by size (largest first).
    WITH fresh AS (
        SELECT l.* FROM plan_listing l WHERE NOT EXISTS (SELECT 1 FROM voyager.groups g3 WHERE g3.name = l.name)
    ), base AS (
        SELECT greatest(coalesce((SELECT max(g4.priority) FROM voyager.groups g4), 0),
                        coalesce((SELECT max(f.priority) FROM fresh f), 0)) AS top
    ), numbered AS (
        SELECT f.name, f.low, f.high,
               coalesce(f.priority,
                        (SELECT top FROM base)
                        + row_number() OVER (PARTITION BY f.priority IS NULL
                                             ORDER BY greatest(f.high - f.low + 1, 0) DESC, f.name)::integer) AS prio
          FROM fresh f
    ), ins AS (
        INSERT INTO voyager.groups (name, priority, low, high, listed_at)
        SELECT n.name, n.prio, n.low, n.high, now() FROM numbered n
        RETURNING id
    )
    INSERT INTO voyager.group_leases (group_id, lane)
    SELECT ins.id, lane FROM ins CROSS JOIN unnest(enum_range(NULL::voyager.lane)) AS lane;

    FOR g IN
        SELECT gr.id, gr.name, gr.priority, gr.active, l.low, l.high
          FROM plan_listing l JOIN voyager.groups gr ON gr.name = l.name
         ORDER BY gr.priority
    LOOP
        UPDATE voyager.groups SET low = g.low, high = g.high, listed_at = now() WHERE id = g.id;
        v_added := 0; v_grown := 0; v_articles := 0;
        IF g.active THEN
            SELECT * INTO v_last FROM voyager.ranges r WHERE r.group_id = g.id
             ORDER BY r.start_article DESC LIMIT 1 FOR UPDATE;
            IF NOT FOUND THEN
                -- First plan: what expired before we came is ancient, never leased.
                IF g.low > 1 THEN
                    INSERT INTO voyager.ranges (group_id, start_article, end_article, next_article, priority, status)
                    VALUES (g.id, 1, g.low - 1, 1, v_hist, 'ancient');
                    v_added := v_added + 1;
                END IF;
                v_from := greatest(g.low, 1);
                v_prio := v_hist;
            ELSE
                v_from := v_last.end_article + 1;
                v_prio := v_tail;
                -- The open tail range: the last one, at the tail's priority, nothing taken from it.
                IF g.high >= v_from AND v_last.status = 'planned' AND v_last.priority = v_tail
                   AND v_last.lane IS NULL AND v_last.next_article = v_last.start_article
                   AND v_last.end_article < ((v_last.start_article - 1) / v_ra + 1) * v_ra THEN
                    v_new_end := least(((v_last.start_article - 1) / v_ra + 1) * v_ra, g.high);
                    UPDATE voyager.ranges SET end_article = v_new_end WHERE id = v_last.id;
                    v_grown := 1;
                    v_articles := v_new_end - v_last.end_article;
                    v_from := v_new_end + 1;
                END IF;
            END IF;
            IF g.high >= v_from THEN
                INSERT INTO voyager.ranges (group_id, start_article, end_article, next_article, priority)
                SELECT g.id, greatest(c * v_ra + 1, v_from), least((c + 1) * v_ra, g.high),
                       greatest(c * v_ra + 1, v_from), v_prio
                  FROM generate_series((v_from - 1) / v_ra, (g.high - 1) / v_ra) AS c;
                v_added := v_added + ((g.high - 1) / v_ra - (v_from - 1) / v_ra + 1)::integer;
                v_articles := v_articles + (g.high - v_from + 1);
            END IF;
        END IF;
        group_name := g.name; priority := g.priority;
        added := v_last.id IS NULL AND g.active;
        ranges_added := v_added; ranges_grown := v_grown; articles_planned := v_articles;
        refused := NULL;
        v_last := NULL;
        RETURN NEXT;
    END LOOP;
    RETURN QUERY
    SELECT f.name, gr.priority, false, 0, 0, 0::bigint, f.reason
      FROM plan_refused f LEFT JOIN voyager.groups gr ON gr.name = f.name
     ORDER BY f.name;
END $$;


--
-- Name: plan_recovery(text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.plan_recovery(p_rule text, p_key text) RETURNS TABLE(group_name text, ranges integer, stale integer)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_version integer := (SELECT max(version) FROM voyager.rule_sets);
    v_lead    interval := make_interval(hours => voyager.setting_int('recovery_lead_hours')::integer);
    g         record;
    s         record;
    v_start   bigint;
    v_ranges  bigint[];
BEGIN
    IF p_rule IS NULL OR p_rule NOT IN ('dropped-poster', 'garbage', 'crosspost') OR coalesce(p_key, '') = '' THEN
        RAISE EXCEPTION 'a recovery is of dropped-poster, garbage or crosspost and a key, not % %', p_rule, p_key
            USING ERRCODE = '22023';
    END IF;
    FOR g IN
        SELECT r.group_id, array_agg(r.id ORDER BY r.start_article) AS stale,
               min(r.start_article) AS first_start, max(r.end_article) AS last_end
          FROM voyager.ranges r
         WHERE r.status = 'done'
           AND EXISTS (SELECT 1 FROM voyager.rule_counts c
                        WHERE c.range_id = r.id AND c.rule = p_rule AND c.key = p_key
                          AND (c.articles > 0 OR c.files > 0 OR c.releases > 0))
         GROUP BY r.group_id
    LOOP
        -- the window to carry: the lane's latest kept snapshot before the first drop's range
        SELECT k.lane, k.article, k.rule_version INTO s
          FROM voyager.ranges f
          JOIN voyager.snapshots k ON k.group_id = f.group_id AND k.lane = f.lane
         WHERE f.id = g.stale[1] AND k.article <= f.start_article
         ORDER BY k.article DESC
         LIMIT 1;
        v_start := s.article;
        IF v_start IS NULL THEN
            -- none that old: the lead-in, where a fresh window stands as the lane's did at the first stale range
            SELECT max(x.start_article) INTO v_start
              FROM voyager.ranges x, voyager.ranges f
             WHERE f.id = g.stale[1] AND x.group_id = g.group_id AND x.status <> 'ancient'
               AND x.start_article <= f.start_article AND x.est_date <= f.est_date - v_lead;
            IF v_start IS NULL THEN
                SELECT min(x.start_article) INTO v_start FROM voyager.ranges x
                 WHERE x.group_id = g.group_id AND x.status <> 'ancient';
            END IF;
        END IF;
        -- from the range holding the start on (a snapshot stands at a resume point inside one)
        SELECT array_agg(x.id ORDER BY x.start_article) INTO v_ranges FROM voyager.ranges x
         WHERE x.group_id = g.group_id AND x.status <> 'ancient'
           AND x.end_article >= v_start AND x.end_article <= g.last_end;
        INSERT INTO voyager.recoveries AS x (rule, key, group_id, rule_version, ranges, stale,
                                             snapshot_lane, snapshot_article, snapshot_rule_version)
        VALUES (p_rule, p_key, g.group_id, v_version, v_ranges, g.stale, s.lane, s.article, s.rule_version)
            ON CONFLICT (group_id, rule, key) WHERE done_at IS NULL DO NOTHING;
        IF FOUND THEN
            INSERT INTO voyager.group_leases (group_id, lane) VALUES (g.group_id, 'recovery')
                ON CONFLICT DO NOTHING;
            RETURN QUERY SELECT (SELECT gr.name FROM voyager.groups gr WHERE gr.id = g.group_id),
                                cardinality(v_ranges), cardinality(g.stale);
        END IF;
    END LOOP;
END $$;


--
-- Name: probe_candidate_done(text, bigint, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.probe_candidate_done(p_node text, p_release_id bigint, p_kind text) RETURNS boolean
    LANGUAGE sql
    AS $$
    WITH done AS (
        UPDATE voyager.probe_candidates
           SET probed_at = now(), expires_at = NULL
         WHERE release_id = p_release_id AND kind = p_kind AND claimed_by = p_node AND probed_at IS NULL
        RETURNING 1
    )
    SELECT count(*) > 0 FROM done
$$;


--
-- Name: probe_texts(jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.probe_texts(p_facts jsonb) RETURNS TABLE(kind smallint, line text, n bigint)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
SELECT t.kind, left(t.line, 255), t.n
  FROM (SELECT 2::smallint, e ->> 'name', n FROM jsonb_array_elements(
               CASE WHEN jsonb_typeof(p_facts -> 'archive' -> 'entries') = 'array'
                    THEN p_facts -> 'archive' -> 'entries' ELSE '[]' END) WITH ORDINALITY a(e, n)
        UNION ALL SELECT 3::smallint, p_facts -> 'nfo' ->> 'title', 1
        UNION ALL SELECT 4::smallint, (SELECT f ->> 'name' FROM jsonb_array_elements(
               CASE WHEN jsonb_typeof(p_facts -> 'par2' -> 'files') = 'array'
                    THEN p_facts -> 'par2' -> 'files' ELSE '[]' END) f
               ORDER BY (f ->> 'size')::bigint DESC NULLS LAST, f ->> 'name' LIMIT 1), 1
        UNION ALL SELECT 5::smallint, p_facts -> 'media' ->> 'title', 1) t(kind, line, n)
 WHERE t.line IS NOT NULL AND btrim(t.line) <> ''
$$;


--
-- Name: prune_snapshots(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.prune_snapshots() RETURNS TABLE(snapshots integer, bytes bigint)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_last  integer := voyager.setting_int('snapshot_keep_last');
    v_every bigint  := greatest(voyager.setting_int('snapshot_keep_every_articles'), 1);
    v_max   bigint  := voyager.setting_int('snapshot_keep_mb')::bigint << 20;
    v_n     integer;
    v_bytes bigint;
BEGIN
    WITH ranked AS (
        SELECT s.group_id, s.lane, s.article, s.bytes,
               s.article = gl.snapshot_article
                 OR EXISTS (SELECT 1 FROM voyager.recoveries x
                             WHERE x.done_at IS NULL AND x.group_id = s.group_id
                               AND x.snapshot_lane = s.lane AND x.snapshot_article = s.article) AS needed,
               row_number() OVER (PARTITION BY s.group_id, s.lane ORDER BY s.article DESC) AS nth,
               row_number() OVER (PARTITION BY s.group_id, s.lane, (s.article - 1) / v_every
                                  ORDER BY s.article DESC) AS nth_in_stretch
          FROM voyager.snapshots s
          LEFT JOIN voyager.group_leases gl ON gl.group_id = s.group_id AND gl.lane = s.lane
    ), kept AS (
        SELECT r.*, (r.needed OR r.nth <= v_last OR r.nth_in_stretch = 1) AS by_rule
          FROM ranked r
    ), bounded AS (
        SELECT k.*, sum(k.bytes) FILTER (WHERE k.by_rule)
                      OVER (PARTITION BY k.group_id ORDER BY k.needed DESC, k.article DESC, k.lane
                            ROWS UNBOUNDED PRECEDING) AS upto
          FROM kept k
    ), gone AS (
        DELETE FROM voyager.snapshots s USING bounded b
         WHERE s.group_id = b.group_id AND s.lane = b.lane AND s.article = b.article
           AND NOT b.needed AND (NOT b.by_rule OR b.upto > v_max)
        RETURNING s.bytes
    )
    SELECT count(*), coalesce(sum(g.bytes), 0) INTO v_n, v_bytes FROM gone g;
    RETURN QUERY SELECT v_n, v_bytes;
END $$;


--
-- Name: queue_mark(text, text, bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.queue_mark(p_queue text, p_column text, p_ids bigint[]) RETURNS integer
    LANGUAGE plpgsql
    AS $_$
DECLARE
    v_marked integer;
BEGIN
    EXECUTE format('INSERT INTO voyager.%1$I (%2$I)
                    SELECT DISTINCT x FROM unnest($1) x
                     WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM voyager.%1$I q WHERE q.%2$I = x)',
                   p_queue, p_column)
      USING p_ids;
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    RETURN v_marked;
END $_$;


--
-- Name: random_stem(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.random_stem(p_stem text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $_$
SELECT p_stem ~ '^[0-9A-Fa-f]{16,}$'
       OR (p_stem ~ '^[0-9A-Za-z]{24,}$' AND p_stem ~ '[0-9]' AND p_stem ~ '[A-Za-z]')
$_$;


--
-- Name: ranges_ahead(uuid, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.ranges_ahead(p_token uuid, p_count integer DEFAULT 2) RETURNS TABLE(range_id bigint, start_article bigint, end_article bigint, next_article bigint)
    LANGUAGE sql STABLE
    AS $$
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


--
-- Name: rebuild_search_counts(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.rebuild_search_counts() RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_keys bigint;
BEGIN
    -- the folder's lock, the tracking lock, the deltas: the order every writer and the fold keep
    PERFORM pg_advisory_xact_lock(hashtext('voyager.search_counts'));
    PERFORM voyager.search_tracking_lock(true);
    LOCK TABLE voyager.search_count_deltas IN EXCLUSIVE MODE;
    DELETE FROM voyager.search_count_deltas;
    DELETE FROM voyager.search_counts;
    DELETE FROM voyager.search_promotions;
    INSERT INTO voyager.search_counts (key, releases)
    SELECT k.key, count(*)
      FROM voyager.search_keys_of(ARRAY(SELECT id FROM voyager.releases UNION SELECT release_id FROM voyager.release_texts)) k
     GROUP BY k.key
    HAVING k.key NOT LIKE 'w:%' OR count(*) >= voyager.setting_int('search_tracked_min');
    GET DIAGNOSTICS v_keys = ROW_COUNT;
    RETURN v_keys;
END $$;


--
-- Name: recategorize(integer, bigint, bigint, bigint); Type: PROCEDURE; Schema: voyager; Owner: -
--

CREATE PROCEDURE voyager.recategorize(IN batch integer DEFAULT 10000, IN from_id bigint DEFAULT 0, INOUT looked bigint DEFAULT NULL::bigint, INOUT changed bigint DEFAULT NULL::bigint)
    LANGUAGE plpgsql
    AS $$
DECLARE
    b        record;
    at       bigint := from_id;
    reported timestamptz := clock_timestamp();
BEGIN
    IF batch IS NULL OR batch < 1 THEN
        RAISE EXCEPTION 'recategorize: batch must be at least 1, not %', batch;
    END IF;
    looked := 0;
    changed := 0;
    LOOP
        SELECT * INTO b FROM voyager.recategorize_batch(at, batch);
        EXIT WHEN b.looked = 0;
        looked := looked + b.looked;
        changed := changed + b.changed;
        at := b.next_id;
        COMMIT;
        IF clock_timestamp() - reported > interval '10 seconds' THEN
            RAISE NOTICE 'recategorize: % looked at, % changed, at id %', looked, changed, at;
            reported := clock_timestamp();
        END IF;
    END LOOP;
    RAISE NOTICE 'recategorize: % looked at, % changed', looked, changed;
END $$;


--
-- Name: recategorize_batch(bigint, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.recategorize_batch(from_id bigint, batch integer DEFAULT 10000, OUT looked bigint, OUT changed bigint, OUT next_id bigint) RETURNS record
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_custom_plan'
    SET jit TO 'off'
    AS $$
DECLARE
    ids bigint[];
BEGIN
    SELECT coalesce(array_agg(id), '{}') INTO ids
      FROM (SELECT id FROM voyager.releases WHERE id >= from_id ORDER BY id LIMIT batch) b;
    looked := cardinality(ids);
    IF looked = 0 THEN
        changed := 0;
        next_id := from_id;
        RETURN;
    END IF;
    UPDATE voyager.releases r
       SET category = c.category
      FROM voyager.release_categories(ids) c
     WHERE r.id = c.id AND r.category IS DISTINCT FROM c.category;
    GET DIAGNOSTICS changed = ROW_COUNT;
    next_id := ids[looked] + 1;
END $$;


--
-- Name: recategorize_mark(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.recategorize_mark(p_ids bigint[]) RETURNS integer
    LANGUAGE sql
    AS $$ SELECT voyager.queue_mark('recategorize_queue', 'release_id', p_ids) $$;


--
-- Name: recategorize_queued(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.recategorize_queued(p_limit integer DEFAULT NULL::integer) RETURNS TABLE(looked integer, changed integer, kept integer)
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_rows tid[];
    v_marks bigint[];
    v_ids bigint[];
BEGIN
    SELECT coalesce(array_agg(q.ctid), '{}'), coalesce(array_agg(DISTINCT q.release_id), '{}') INTO v_rows, v_marks
      FROM (SELECT q.ctid, q.release_id FROM voyager.recategorize_queue q ORDER BY q.release_id
             LIMIT coalesce(p_limit, voyager.setting_int('recategorize_batch'))
               FOR UPDATE SKIP LOCKED) q;
    SELECT coalesce(array_agg(r.id), '{}') INTO v_ids
      FROM (SELECT r.id FROM voyager.releases r WHERE r.id = ANY (v_marks) ORDER BY r.id
               FOR UPDATE SKIP LOCKED) r;
    UPDATE voyager.releases r
       SET category = c.category
      FROM voyager.release_categories(v_ids) c
     WHERE r.id = c.id AND r.category IS DISTINCT FROM c.category;
    GET DIAGNOSTICS changed = ROW_COUNT;
    WITH taken AS (                                        -- a release gone takes its mark with it
        DELETE FROM voyager.recategorize_queue q
         WHERE q.ctid = ANY (v_rows)
           AND (q.release_id = ANY (v_ids) OR NOT EXISTS (SELECT FROM voyager.releases r WHERE r.id = q.release_id))
        RETURNING q.release_id
    )
    SELECT count(DISTINCT t.release_id) INTO looked FROM taken t;
    kept := cardinality(v_marks) - looked;
    RETURN NEXT;
END $$;


--
-- Name: recategorize_texts(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.recategorize_texts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM voyager.recategorize_mark(ARRAY(SELECT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5));
    RETURN NULL;
END $$;


--
-- Name: record_group_dates(text, jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.record_group_dates(p_group text, p_samples jsonb) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_group integer;
    v_n integer;
BEGIN
    SELECT id INTO v_group FROM voyager.groups WHERE name = p_group;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_group USING ERRCODE = '22023';
    END IF;
    IF p_samples IS NULL OR jsonb_typeof(p_samples) <> 'array' THEN
        RAISE EXCEPTION 'samples must be a JSON array of {"article", "posted_at"}' USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_samples) e
                WHERE jsonb_typeof(e -> 'article') IS DISTINCT FROM 'number'
                   OR (e ->> 'article')::numeric < 1
                   OR jsonb_typeof(e -> 'posted_at') IS DISTINCT FROM 'string') THEN
        RAISE EXCEPTION 'samples must be {"article": n >= 1, "posted_at": "<timestamp>"}' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.group_dates AS d (group_id, article, posted_at)
    SELECT v_group, (e ->> 'article')::bigint, (e ->> 'posted_at')::timestamptz
      FROM jsonb_array_elements(p_samples) e
        ON CONFLICT (group_id, article) DO UPDATE SET posted_at = excluded.posted_at, sampled_at = now();
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;


--
-- Name: recovery_matches(text, text, text, text, text[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.recovery_matches(p_rule text, p_key text, p_poster text, p_tool text, p_groups text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE p_rule
             WHEN 'dropped-poster' THEN p_poster = p_key
             WHEN 'garbage' THEN p_tool = p_key
             WHEN 'crosspost' THEN p_key = ANY (p_groups)
             ELSE false
           END
$$;


--
-- Name: recovery_ranges(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.recovery_ranges(p_token uuid) RETURNS TABLE(range_id bigint, start_article bigint, end_article bigint, resume bigint, stale boolean, group_end boolean)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v voyager.group_leases;
    x voyager.recoveries;
BEGIN
    v := voyager.lease_of(p_token);
    SELECT * INTO x FROM voyager.recoveries r WHERE r.token = p_token AND r.done_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no recovery runs under lease %', p_token USING ERRCODE = '22023';
    END IF;
    RETURN QUERY
    SELECT r.id, r.start_article, r.end_article, greatest(r.start_article, coalesce(x.snapshot_article, 0)),
           r.id = ANY (x.stale),
           NOT EXISTS (SELECT 1 FROM voyager.ranges a WHERE a.group_id = r.group_id
                          AND a.start_article > r.end_article AND a.status IN ('done', 'leased'))
      FROM voyager.ranges r WHERE r.id = ANY (x.ranges)
     ORDER BY r.start_article;
END $$;


--
-- Name: release_categories(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.release_categories(p_ids bigint[]) RETURNS TABLE(id bigint, category integer)
    LANGUAGE sql STABLE
    AS $$
SELECT x.id,
       voyager.category_of(x.name, gs.groups,
           (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
             WHERE (t.release_id = x.id
                    OR t.release_id IN (SELECT m.id FROM voyager.releases m WHERE m.merged_into = x.id))
               AND t.kind IN (2, 3, 5)
             ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(l) DESC, l
             LIMIT 1))
  FROM voyager.releases x
  JOIN voyager.group_sets gs ON gs.id = x.group_set_id
 WHERE x.id = ANY (p_ids)
$$;


--
-- Name: release_file_names(bigint, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.release_file_names(p_release_id bigint, p_posted_at timestamp with time zone) RETURNS text[]
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
SELECT coalesce(voyager.chunk_file_names(coalesce(
           (SELECT c.chunk FROM voyager.release_chunks c
             WHERE c.month = voyager.chunk_month(p_posted_at) AND c.release_id = p_release_id),
           (SELECT c.chunk FROM voyager.release_chunks c WHERE c.release_id = p_release_id LIMIT 1))), '{}')
$$;


--
-- Name: release_group(uuid, bytea, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.release_group(p_token uuid, p_snapshot bytea DEFAULT NULL::bytea, p_article bigint DEFAULT NULL::bigint) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF p_snapshot IS NOT NULL THEN
        PERFORM voyager.store_snapshot(p_token, p_article, p_snapshot);
    END IF;
    PERFORM voyager.replan_since_snapshot(v.group_id, v.lane);
    UPDATE voyager.group_leases
       SET token = NULL, holder = NULL, released_at = now(), range_id = NULL
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN true;
END $$;


--
-- Name: release_of_guid(bytea); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.release_of_guid(p_key bytea) RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    v_id bigint;
BEGIN
    SELECT coalesce(r.merged_into, r.id) INTO v_id FROM voyager.releases r WHERE r.release_key = p_key;
    RETURN v_id;
END $$;


--
-- Name: release_of_id(bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.release_of_id(p_id bigint) RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    v_id bigint;
BEGIN
    SELECT coalesce(r.merged_into, r.id) INTO v_id FROM voyager.releases r WHERE r.id = p_id;
    RETURN v_id;
END $$;


--
-- Name: release_text_posted_at(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.release_text_posted_at() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    SELECT r.posted_at INTO NEW.posted_at FROM voyager.releases r WHERE r.id = NEW.release_id;
    RETURN NEW;
END $$;


--
-- Name: replan_since_snapshot(integer, voyager.lane); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.replan_since_snapshot(p_group integer, p_lane voyager.lane) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_article bigint;
    v_n integer;
BEGIN
    SELECT snapshot_article INTO v_article FROM voyager.group_leases
     WHERE group_id = p_group AND lane = p_lane;
    v_article := coalesce(v_article, 0);
    -- Batches start at resume points and the snapshot stands at one, so a batch is
    -- wholly before or wholly after it.
    DELETE FROM voyager.range_batches b USING voyager.ranges r
     WHERE b.range_id = r.id AND r.group_id = p_group AND r.lane = p_lane
       AND r.status IN ('leased', 'done') AND b.first_article >= v_article;
    UPDATE voyager.ranges r
       SET status = 'planned',
           next_article = greatest(r.start_article, v_article),
           headers = coalesce((SELECT sum(b.headers) FROM voyager.range_batches b WHERE b.range_id = r.id), 0),
           done_at = NULL
     WHERE r.group_id = p_group AND r.lane = p_lane AND r.status IN ('leased', 'done')
       AND r.end_article >= v_article;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    UPDATE voyager.group_leases SET range_id = NULL WHERE group_id = p_group AND lane = p_lane;
    RETURN v_n;
END $$;


--
-- Name: report_spool(text, bigint, integer, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.report_spool(p_node text, p_bytes bigint, p_files integer, p_cap_bytes bigint DEFAULT NULL::bigint) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO voyager.spool_reports AS s (node, bytes, files, cap_bytes, reported_at)
    VALUES (p_node, p_bytes, p_files, p_cap_bytes, now())
        ON CONFLICT (node) DO UPDATE
       SET bytes = excluded.bytes, files = excluded.files,
           cap_bytes = coalesce(excluded.cap_bytes, s.cap_bytes), reported_at = excluded.reported_at
$$;


--
-- Name: retract_rule(text, text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.retract_rule(p_rule text, p_key text, p_note text DEFAULT NULL::text) RETURNS TABLE(rule_version integer, group_name text, ranges integer, stale integer)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_rules jsonb := (voyager.rule_set()).rules;
    v_new   jsonb;
BEGIN
    IF p_rule = 'dropped-poster' THEN
        IF v_rules -> 'dropped_posters' ? p_key THEN
            v_new := jsonb_build_object('dropped_posters', (v_rules -> 'dropped_posters') - p_key);
        END IF;
    ELSIF p_rule = 'garbage' THEN
        IF EXISTS (SELECT 1 FROM jsonb_array_elements(v_rules -> 'garbage') s WHERE s ->> 'tool' = p_key) THEN
            v_new := jsonb_build_object('garbage', coalesce(
                (SELECT jsonb_agg(s) FROM jsonb_array_elements(v_rules -> 'garbage') s WHERE s ->> 'tool' IS DISTINCT FROM p_key),
                '[]'));
        END IF;
    ELSE
        RAISE EXCEPTION 'only a dropped poster (dropped-poster) or a garbage signature''s tool (garbage) can be retracted, not %',
            coalesce(p_rule, 'null') USING ERRCODE = '22023',
            HINT = 'A removed group''s crossposts are recovered by set_group_active(name, false).';
    END IF;
    IF v_new IS NOT NULL THEN
        PERFORM voyager.add_rule_set(v_new, coalesce(p_note, format('retracted %s %s', p_rule, p_key)));
    END IF;
    RETURN QUERY SELECT (SELECT max(rs.version) FROM voyager.rule_sets rs), p.group_name, p.ranges, p.stale
                   FROM voyager.plan_recovery(p_rule, p_key) p;
END $$;


--
-- Name: retry_ranges(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.retry_ranges(p_group text DEFAULT NULL::text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_n integer;
BEGIN
    IF p_group IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.groups WHERE name = p_group) THEN
        RAISE EXCEPTION 'no group named %', p_group USING ERRCODE = '22023';
    END IF;
    UPDATE voyager.ranges r
       SET status = CASE WHEN r.next_article > r.end_article THEN 'done' ELSE 'planned' END::voyager.range_status,
           done_at = CASE WHEN r.next_article > r.end_article THEN now() END
      FROM voyager.groups g
     WHERE g.id = r.group_id AND r.status = 'failed' AND (p_group IS NULL OR g.name = p_group);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;


--
-- Name: rule_sets; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.rule_sets (
    version integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    rules jsonb NOT NULL,
    note text DEFAULT ''::text NOT NULL,
    CONSTRAINT rule_sets_rules_check CHECK ((jsonb_typeof(rules) = 'object'::text))
);


--
-- Name: rule_set(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.rule_set(p_version integer DEFAULT NULL::integer) RETURNS voyager.rule_sets
    LANGUAGE sql STABLE
    AS $$
    SELECT * FROM voyager.rule_sets
     WHERE p_version IS NULL OR version = p_version
     ORDER BY version DESC LIMIT 1
$$;


--
-- Name: run_sql_job(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.run_sql_job(p_name text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_job voyager.jobs;
    v_result jsonb;
BEGIN
    SELECT * INTO v_job FROM voyager.jobs WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no job named %', p_name USING ERRCODE = '22023';
    END IF;
    IF v_job.kind <> 'sql' THEN
        RAISE EXCEPTION 'job % is a python job: voyager tick runs it', p_name USING ERRCODE = '22023';
    END IF;
    -- the function's rows as JSON: one value (a count) as itself, several as an array
    EXECUTE format('SELECT jsonb_agg(to_jsonb(r)) FROM %I.%I() AS r',
                   split_part(v_job.function, '.', 1), split_part(v_job.function, '.', 2))
       INTO v_result;
    RETURN CASE WHEN jsonb_array_length(coalesce(v_result, '[]')) = 1 THEN v_result -> 0
                ELSE coalesce(v_result, '[]') END;
END $$;


--
-- Name: search_category(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_category(p_category integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT coalesce(p_category, 8010)
$$;


--
-- Name: search_category_key(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_category_key(p_category integer) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT 'c:' || voyager.search_category(p_category)::text
$$;


--
-- Name: search_count(text[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_count(p_keys text[]) RETURNS bigint
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    AS $$
BEGIN
    RETURN CASE WHEN EXISTS (SELECT 1 FROM unnest(p_keys) k
                              WHERE k LIKE 'w:%' AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = k))
                THEN NULL
                ELSE coalesce((SELECT sum(c.releases) FROM voyager.search_counts c WHERE c.key = ANY (p_keys)), 0)::bigint
                   + coalesce((SELECT sum(d.delta) FROM voyager.search_count_deltas d WHERE d.key = ANY (p_keys)), 0)::bigint
           END;
END $$;


--
-- Name: search_counts_judgements(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_counts_judgements() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_hide bigint[];
    v_show bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        v_hide := ARRAY(SELECT release_id FROM new_rows WHERE hidden);
    ELSIF TG_OP = 'DELETE' THEN
        v_show := ARRAY(SELECT release_id FROM old_rows WHERE hidden);
    ELSE
        EXECUTE 'SELECT coalesce(array_agg(n.release_id) FILTER (WHERE n.hidden AND NOT o.hidden), ''{}''),
                        coalesce(array_agg(n.release_id) FILTER (WHERE o.hidden AND NOT n.hidden), ''{}'')
                   FROM old_rows o JOIN new_rows n USING (release_id)' INTO v_hide, v_show;
    END IF;
    IF cardinality(v_hide) > 0 OR cardinality(v_show) > 0 THEN
        PERFORM voyager.search_tracking_lock();
    END IF;
    IF cardinality(v_hide) > 0 THEN
        PERFORM voyager.note_search_deltas(array_agg(k.key), array_agg(-1::bigint))
           FROM voyager.search_keys_of(v_hide, true) k HAVING count(*) > 0;
    END IF;
    IF cardinality(v_show) > 0 THEN
        PERFORM voyager.note_search_deltas(array_agg(k.key), array_agg(1::bigint))
           FROM voyager.search_keys_of(v_show, true) k HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: search_counts_releases(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_counts_releases() RETURNS trigger
    LANGUAGE plpgsql
    AS $_$
DECLARE
    v_keys text[];
    v_deltas bigint[];
    v_moved bigint[];
    v_dates timestamptz[];
BEGIN
    -- (each branch names only the transition tables its event has)
    IF TG_OP = 'INSERT' THEN
        EXECUTE $q$
        SELECT array_agg(x.key), array_agg(x.n) FROM (
            SELECT k.key, count(*) AS n
              FROM new_rows n
             CROSS JOIN LATERAL (VALUES ('*'), (voyager.search_category_key(n.category))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = n.id AND j.hidden)
             GROUP BY k.key) x
        $q$ INTO v_keys, v_deltas;
    ELSIF TG_OP = 'DELETE' THEN
        EXECUTE $q$
        SELECT array_agg(x.key), array_agg(-x.n) FROM (
            SELECT k.key, count(*) AS n
              FROM old_rows o
             CROSS JOIN LATERAL (VALUES ('*'), (voyager.search_category_key(o.category))) k(key)
             WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = o.id AND j.hidden)
             GROUP BY k.key) x
        $q$ INTO v_keys, v_deltas;
    ELSE
        -- a release's posting date moved (a date corrected): its texts' with it; the moved
        -- releases found first and their texts read by id (joined in one statement, the texts
        -- were scanned whole on every update of releases, a merge's pointing too)
        EXECUTE 'SELECT array_agg(n.id), array_agg(n.posted_at)
                   FROM old_rows o JOIN new_rows n ON n.id = o.id
                  WHERE o.posted_at IS DISTINCT FROM n.posted_at' INTO v_moved, v_dates;
        IF v_moved IS NOT NULL THEN
            UPDATE voyager.release_texts t SET posted_at = x.posted_at
              FROM unnest(v_moved, v_dates) x(id, posted_at)
             WHERE t.release_id = x.id AND t.posted_at IS DISTINCT FROM x.posted_at;
        END IF;
        -- the releases whose category changed first (a merge's or a settle's rows mostly keep
        -- theirs), the judgements asked of those alone: asked of every row, a stale estimate of
        -- the judgements (a young catalog's, a bench's) made it a scan of them per row
        EXECUTE $q$
        WITH changed AS MATERIALIZED (
            SELECT n.id, o.category AS was, n.category AS now
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE voyager.search_category(o.category) <> voyager.search_category(n.category)
        )
        SELECT array_agg(k.key), array_agg(k.delta)
          FROM changed c
         CROSS JOIN LATERAL (VALUES (voyager.search_category_key(c.was), -1::bigint),
                                    (voyager.search_category_key(c.now), 1::bigint)) k(key, delta)
         WHERE NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = c.id AND j.hidden)
        $q$ INTO v_keys, v_deltas;
    END IF;
    IF v_keys IS NOT NULL THEN
        PERFORM voyager.note_search_deltas(v_keys, v_deltas);
    END IF;
    RETURN NULL;
END $_$;


--
-- Name: search_counts_texts(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_counts_texts() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_new_ids bigint[];
    v_new_texts text[];
    v_old_ids bigint[];
    v_old_texts text[];
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT array_agg(release_id), array_agg(text) INTO v_new_ids, v_new_texts FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT array_agg(release_id), array_agg(text) INTO v_old_ids, v_old_texts FROM old_rows;
    END IF;
    IF v_new_ids IS NOT NULL OR v_old_ids IS NOT NULL THEN
        PERFORM voyager.search_tracking_lock();           -- which words are tracked: fixed till the commit
        PERFORM voyager.search_text_deltas(coalesce(v_new_ids, '{}'), coalesce(v_new_texts, '{}'),
                                           coalesce(v_old_ids, '{}'), coalesce(v_old_texts, '{}'));
    END IF;
    RETURN NULL;
END $$;


--
-- Name: search_counts_truncated(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_counts_truncated() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM voyager.rebuild_search_counts();
    RETURN NULL;
END $$;


--
-- Name: search_day(timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_day(p_posted_at timestamp with time zone) RETURNS date
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT coalesce((p_posted_at AT TIME ZONE 'UTC')::date, date '1970-01-01')
$$;


--
-- Name: search_keys_of(bigint[], boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_keys_of(p_ids bigint[], p_even_hidden boolean DEFAULT false) RETURNS TABLE(release_id bigint, key text)
    LANGUAGE sql STABLE
    AS $$
    WITH ids AS (SELECT i.id FROM unnest(p_ids) i(id)
                  WHERE p_even_hidden OR NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                                      WHERE j.release_id = i.id AND j.hidden)),
         r AS (SELECT r.id, r.category FROM voyager.releases r WHERE r.id IN (SELECT id FROM ids))
    SELECT r.id, '*' FROM r
    UNION ALL
    SELECT r.id, voyager.search_category_key(r.category) FROM r
    UNION ALL
    SELECT DISTINCT t.release_id, 'w:' || w
      FROM voyager.release_texts t, unnest(voyager.search_words(t.text)) w
     WHERE t.release_id IN (SELECT id FROM ids)
$$;


--
-- Name: search_like(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_like(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT '%' || replace(replace(replace(p_text, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;


--
-- Name: search_month_words(text[], date); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_month_words(p_words text[], p_day date) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
    v_month text := voyager.search_period('month', p_day);
BEGIN
    IF cardinality(p_words) = 0 THEN
        RETURN '{}'::text[];
    END IF;
    RETURN string_to_array(v_month || ':' || array_to_string(p_words, ' ' || v_month || ':'), ' ');
END $$;


--
-- Name: search_newest_page(integer[], integer, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_newest_page(p_cats integer[], p_limit integer, p_offset integer) RETURNS TABLE(total bigint, release_id bigint, posted_at timestamp with time zone)
    LANGUAGE plpgsql STABLE ROWS 100
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_total bigint := voyager.search_count(CASE WHEN p_cats IS NULL THEN '{*}'::text[]
                                                ELSE ARRAY(SELECT voyager.search_category_key(c) FROM unnest(p_cats) c) END);
BEGIN
    RETURN QUERY
    SELECT v_total, r.id, r.posted_at FROM voyager.releases r
     WHERE (p_cats IS NULL OR voyager.search_category(r.category) = ANY (p_cats))
       AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)
     ORDER BY r.posted_at DESC, r.id DESC LIMIT greatest(p_limit, 0) OFFSET greatest(p_offset, 0);
    IF NOT FOUND THEN
        RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz;
    END IF;
END $$;


--
-- Name: search_page(jsonb, integer, integer, bigint, bytea, bigint, bytea, bigint, text, integer, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_page(p_query jsonb, p_limit integer, p_offset integer, p_total bigint DEFAULT NULL::bigint, p_shared bytea DEFAULT NULL::bytea, p_substring_total bigint DEFAULT NULL::bigint, p_substring_shared bytea DEFAULT NULL::bytea, p_state bigint DEFAULT NULL::bigint, p_plan text DEFAULT NULL::text, p_probe integer DEFAULT NULL::integer, p_releases bigint DEFAULT NULL::bigint) RETURNS TABLE(total bigint, kept text, state bigint, plan text, substrings boolean, promote boolean, release_id bigint, posted_at timestamp with time zone)
    LANGUAGE plpgsql STABLE ROWS 100
    AS $_$
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
            -- words alone: the texts find and order the matches (returned as one
            -- query: a row at a time cost a tenth of the search); every row
            -- carries the total, so a total of 0 returns none
            RETURN QUERY SELECT w.total, NULL::text, NULL::bigint, 'words'::text, false, w.promote, w.release_id, w.posted_at
                           FROM voyager.search_words_page(array_to_string(v_words, ' '), p_limit, p_offset, v_judged) w
                          WHERE w.total <> 0;
            IF FOUND THEN
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
END $_$;


--
-- Name: search_period(text, date); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_period(p_unit text, p_day date) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE p_unit
           WHEN 'month' THEN '@m' || ((extract(year FROM p_day) * 100 + extract(month FROM p_day))::integer)::text
           ELSE '@d' || ((extract(year FROM p_day) * 10000 + extract(month FROM p_day) * 100
                          + extract(day FROM p_day))::integer)::text END
$$;


--
-- Name: search_terms(text, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_terms(p_text text, p_posted_at timestamp with time zone) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE COST 200 PARALLEL SAFE
    AS $$
DECLARE
    v_words text[] := coalesce(voyager.search_words(p_text), '{}');
    v_day date := voyager.search_day(p_posted_at);
BEGIN
    RETURN v_words || voyager.search_month_words(v_words, v_day) || voyager.search_period('day', v_day);
END $$;


--
-- Name: search_text_deltas(bigint[], text[], bigint[], text[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_text_deltas(p_new_ids bigint[], p_new_texts text[], p_old_ids bigint[], p_old_texts text[]) RETURNS void
    LANGUAGE sql
    AS $$
    WITH changed AS (
        SELECT x.i AS release_id, w, -1 AS c
          FROM unnest(p_new_ids, p_new_texts) x(i, t), unnest(voyager.search_words(x.t)) w
        UNION ALL
        SELECT x.i, w, 1
          FROM unnest(p_old_ids, p_old_texts) x(i, t), unnest(voyager.search_words(x.t)) w
    ), tracked AS (                   -- the statement's words that have a count
        SELECT x.w FROM (SELECT DISTINCT c.w FROM changed c) x
         WHERE EXISTS (SELECT 1 FROM voyager.search_counts k WHERE k.key = 'w:' || x.w)
    ), d AS (
        SELECT release_id, w, sum(c) AS c FROM changed JOIN tracked USING (w) GROUP BY 1, 2
    ), rows_of AS (                   -- per release: texts in the statement's new and old rows
        SELECT i AS release_id, sum(n) AS new_n, sum(o) AS old_n
          FROM (SELECT i, 1 AS n, 0 AS o FROM unnest(p_new_ids) i
                UNION ALL SELECT i, 0, 1 FROM unnest(p_old_ids) i) x
         GROUP BY i
    ), fresh AS (                     -- every text of the release is a new row: nothing before
        SELECT r.release_id FROM rows_of r
         WHERE r.old_n = 0 AND r.release_id IN (SELECT release_id FROM d)
           AND r.new_n = (SELECT count(*) FROM voyager.release_texts t WHERE t.release_id = r.release_id)
    ), now_c AS (
        SELECT t.release_id, w, count(*) AS c
          FROM voyager.release_texts t, unnest(voyager.search_words(t.text)) w
         WHERE t.release_id IN (SELECT release_id FROM d EXCEPT SELECT release_id FROM fresh)
           AND w IN (SELECT w FROM tracked)
         GROUP BY 1, 2
    ), flips AS (
        SELECT d.release_id, d.w, 1 AS delta FROM d JOIN fresh USING (release_id)
        UNION ALL
        SELECT coalesce(now_c.release_id, d.release_id), coalesce(now_c.w, d.w),
               (coalesce(now_c.c, 0) > 0)::int - (coalesce(now_c.c, 0) + coalesce(d.c, 0) > 0)::int
          FROM now_c FULL JOIN (SELECT * FROM d WHERE d.release_id NOT IN (SELECT release_id FROM fresh)) d
            ON d.release_id = now_c.release_id AND d.w = now_c.w
    )
    INSERT INTO voyager.search_count_deltas (key, delta)
    SELECT 'w:' || f.w, sum(f.delta)
      FROM flips f
     WHERE f.delta <> 0
       AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = f.release_id AND j.hidden)
     GROUP BY 1
    HAVING sum(f.delta) <> 0
$$;


--
-- Name: search_tracking_lock(boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_tracking_lock(p_alone boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF p_alone THEN
        PERFORM pg_advisory_xact_lock(hashtext('voyager.search_tracking'));
    ELSE
        PERFORM pg_advisory_xact_lock_shared(hashtext('voyager.search_tracking'));
    END IF;
END $$;


--
-- Name: search_walk_pays(bigint, bigint, boolean, boolean, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_walk_pays(p_total bigint, p_need bigint, p_text boolean, p_indexed boolean, p_releases bigint DEFAULT NULL::bigint) RETURNS boolean
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    v_releases bigint := coalesce(p_releases, (SELECT greatest(greatest(c.reltuples, 0)::bigint, 1) FROM pg_class c
                                                WHERE c.oid = 'voyager.releases'::regclass));
BEGIN
    RETURN p_text AND p_total > 0
           AND (p_need::float8 * greatest(v_releases, p_total) / p_total * 1.2 < p_total OR NOT p_indexed);
END $$;


--
-- Name: search_word_key(text, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_word_key(p_words text, p_judged boolean DEFAULT false) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE WHEN NOT p_judged AND cardinality(voyager.search_words(p_words)) = 1
                THEN 'w:' || (voyager.search_words(p_words))[1] END
$$;


--
-- Name: search_words(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_words(p_text text) RETURNS text[]
    LANGUAGE sql IMMUTABLE COST 200 PARALLEL SAFE
    AS $$
    SELECT array_remove(regexp_split_to_array(CASE WHEN octet_length(p_text) < 64 THEN lower(p_text)
                                                   ELSE regexp_replace(lower(p_text), '([[:alnum:]]{64})', '\1 ', 'g') END,
                                              '[^[:alnum:]]+'), '')
$$;


--
-- Name: search_words_page(text, integer, integer, boolean, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_words_page(p_words text, p_limit integer, p_offset integer, p_judged boolean DEFAULT false, p_plan text DEFAULT NULL::text) RETURNS TABLE(total bigint, release_id bigint, posted_at timestamp with time zone, promote boolean)
    LANGUAGE plpgsql STABLE ROWS 100
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_terms text[] := voyager.search_words(p_words);
    v_key text := voyager.search_word_key(p_words, p_judged);
    v_promote boolean := false;
    v_total bigint;
    v_need bigint := greatest(p_offset, 0)::bigint + greatest(p_limit, 0);   -- 64 bits: any offset plus a limit
    v_newest date;
    v_oldest date;
    v_undated boolean;
    v_days numeric;
    v_plan text := p_plan;
    v_unit text;
    v_day date;
    v_before timestamptz;
    v_probes integer := 0;
    v_ids bigint[] := '{}';
    v_at timestamptz[] := '{}';
    v_more_ids bigint[];
    v_more_at timestamptz[];
BEGIN
    IF cardinality(v_terms) = 0 THEN                  -- no terms would be every text
        RETURN QUERY SELECT 0::bigint, NULL::bigint, NULL::timestamptz, false;
        RETURN;
    END IF;
    IF v_key IS NOT NULL THEN
        v_total := voyager.search_count(ARRAY[v_key]);    -- null: a word not tracked
    END IF;
    IF v_total IS NULL AND p_plan IN ('months', 'days') THEN
        SELECT count(DISTINCT t.release_id) INTO v_total FROM voyager.release_texts t
         WHERE voyager.search_terms(t.text, t.posted_at) @> v_terms
           AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false));
    END IF;
    IF v_total IS NOT NULL THEN
        IF v_total <= p_offset OR p_limit <= 0 THEN
            RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz, false;
            RETURN;
        END IF;
        -- the two ends of releases_newest_idx, and whether it starts with a
        -- release of no date (a text's date is its release's)
        SELECT voyager.search_day(max(r.posted_at)), voyager.search_day(min(r.posted_at)),
               EXISTS (SELECT FROM voyager.releases u WHERE u.posted_at IS NULL)
          INTO v_newest, v_oldest, v_undated FROM voyager.releases r;
        v_days := greatest(v_newest - v_oldest + 1, 1);
        v_plan := coalesce(v_plan, voyager.search_words_plan(v_total, v_need));
    END IF;

    IF v_total IS NULL OR v_plan = 'matches' THEN
        -- every match read once: the page, and the total when it is not kept
        SELECT coalesce(array_agg(m.release_id ORDER BY m.posted_at DESC, m.release_id DESC), '{}'),
               coalesce(array_agg(m.posted_at ORDER BY m.posted_at DESC, m.release_id DESC), '{}')
          INTO v_ids, v_at
          FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
                 WHERE voyager.search_terms(t.text, t.posted_at) @> v_terms
                   AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false))) m;
        IF v_total IS NULL THEN
            v_total := cardinality(v_ids);
            -- a common word now: the fold is to count it and keep its count from then on
            v_promote := v_key IS NOT NULL AND v_total >= voyager.setting_int('search_tracked_min');
        END IF;
        RETURN QUERY SELECT v_total, x.i, x.a, v_promote FROM unnest(v_ids, v_at) WITH ORDINALITY x(i, a, n)
                      WHERE x.n > p_offset AND x.n <= v_need ORDER BY x.n;
        IF NOT FOUND THEN
            RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz, v_promote;
        END IF;
        RETURN;
    END IF;

    -- newest first puts an unknown date first (as ORDER BY posted_at DESC does);
    -- with no undated release there is nothing to probe (the probe costs as
    -- much as a month's: the index reads the words' posting lists either way)
    IF v_undated THEN
        SELECT coalesce(array_agg(x.release_id), '{}'), coalesce(array_agg(x.posted_at), '{}') INTO v_ids, v_at
          FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
                 WHERE voyager.search_terms(t.text, t.posted_at) @> (v_terms || voyager.search_period('day', date '1970-01-01'))
                   AND t.posted_at IS NULL
                   AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                        WHERE j.release_id = t.release_id), false))) x;
    END IF;
    v_unit := CASE v_plan WHEN 'days' THEN 'day' ELSE 'month' END;
    v_day := CASE v_unit WHEN 'day' THEN v_newest ELSE date_trunc('month', v_newest)::date END;
    WHILE v_day >= date_trunc('month', v_oldest)::date AND cardinality(v_ids) < v_need LOOP
        SELECT array_agg(x.release_id), array_agg(x.posted_at) INTO v_more_ids, v_more_at
          FROM (SELECT DISTINCT t.release_id, t.posted_at FROM voyager.release_texts t
                 WHERE voyager.search_terms(t.text, t.posted_at)
                       @> (voyager.search_month_words(v_terms, v_day)
                           || CASE v_unit WHEN 'day' THEN ARRAY[voyager.search_period('day', v_day)] ELSE '{}' END)
                   AND t.posted_at IS NOT NULL
                   AND (v_before IS NULL OR t.posted_at < v_before)
                   AND (p_judged OR NOT coalesce((SELECT j.hidden FROM voyager.release_judgements j
                                                    WHERE j.release_id = t.release_id), false))) x;
        IF v_more_ids IS NOT NULL THEN
            v_ids := v_ids || v_more_ids;
            v_at := v_at || v_more_at;
        END IF;
        v_probes := v_probes + 1;
        IF v_unit = 'day' AND v_probes > 30 + 2 * ceil(v_need * v_days / v_total) THEN
            -- thinner than their average: the rest of this month and the older ones by months
            v_before := v_day::timestamp AT TIME ZONE 'UTC';
            v_unit := 'month';
            v_day := date_trunc('month', v_day - 1)::date;
        ELSIF v_unit = 'day' THEN
            v_day := v_day - 1;
        ELSE
            v_day := (v_day - interval '1 month')::date;
            v_before := NULL;
        END IF;
    END LOOP;
    RETURN QUERY SELECT v_total, x.i, x.a, false FROM unnest(v_ids, v_at) x(i, a)
                  ORDER BY x.a DESC, x.i DESC LIMIT p_limit OFFSET p_offset;
    IF NOT FOUND THEN
        RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz, false;
    END IF;
END $$;


--
-- Name: search_words_plan(bigint, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.search_words_plan(p_total bigint, p_need bigint) RETURNS text
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    v_days numeric;
    v_months numeric;
    v_per numeric;
    v_by_months numeric;
    v_by_days numeric;
BEGIN
    IF p_total <= 0 OR p_need <= 0 THEN
        RETURN 'matches';
    END IF;
    SELECT greatest(voyager.search_day(max(r.posted_at)) - voyager.search_day(min(r.posted_at)) + 1, 1)
      INTO v_days FROM voyager.releases r;
    v_days := coalesce(v_days, 1);
    v_months := greatest(v_days / 30.44, 1);
    v_per := p_total / v_months;
    v_by_months := least(v_months, ceil(p_need / v_per)) * 60 + least(p_total, p_need + v_per) * 2;
    v_per := p_total / v_days;
    v_by_days := least(v_days, ceil(p_need / v_per)) * 60 + least(p_total, p_need + v_per) * 2;
    RETURN CASE WHEN p_total * 3 <= least(v_by_months, v_by_days) THEN 'matches'
                WHEN v_by_days < v_by_months THEN 'days' ELSE 'months' END;
END $$;


--
-- Name: set_aside_ranges(bigint, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.set_aside_ranges(p_first bigint, p_last bigint) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE v_n integer;
BEGIN
    UPDATE voyager.ranges SET status = 'ancient'
     WHERE status = 'planned' AND (end_article < p_first OR start_article > p_last);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;


--
-- Name: set_group_active(text, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.set_group_active(p_name text, p_active boolean) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE v_was boolean;
BEGIN
    SELECT active INTO v_was FROM voyager.groups WHERE name = p_name FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_name USING ERRCODE = '22023';
    END IF;
    UPDATE voyager.groups SET active = p_active WHERE name = p_name;
    IF v_was AND NOT p_active THEN
        PERFORM voyager.plan_recovery('crosspost', p_name);
    END IF;
    RETURN p_active;
END $$;


--
-- Name: setting_bool(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.setting_bool(p_name text) RETURNS boolean
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE v text;
BEGIN
    SELECT value INTO v FROM voyager.settings WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown setting %', p_name USING ERRCODE = '22023';
    END IF;
    RETURN v::boolean;
END $$;


--
-- Name: setting_int(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.setting_int(p_name text) RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE v text;
BEGIN
    SELECT value INTO v FROM voyager.settings WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown setting %', p_name USING ERRCODE = '22023';
    END IF;
    RETURN v::bigint;
END $$;


--
-- Name: settle_complete(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.settle_complete(p_limit integer DEFAULT 10000) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_settled integer;
BEGIN
    -- SKIP LOCKED: a row a store_batch is finishing right now is its to finish
    WITH due AS (
        SELECT r.id FROM voyager.releases r
         WHERE r.settled_at IS NULL AND r.complete
           AND coalesce(r.last_posted_at, r.posted_at)
               < now() - make_interval(mins => voyager.setting_int('settle_quiet_minutes')::integer)
         ORDER BY r.id
         LIMIT p_limit
           FOR UPDATE SKIP LOCKED
    )
    UPDATE voyager.releases r SET settled_at = now(), edge = false FROM due WHERE r.id = due.id;
    GET DIAGNOSTICS v_settled = ROW_COUNT;
    RETURN v_settled;
END $$;


--
-- Name: settle_spots(timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.settle_spots(p_now timestamp with time zone DEFAULT now()) RETURNS jsonb
    LANGUAGE sql
    AS $$
    SELECT voyager.match_spots(NULL, p_now) || jsonb_build_object('alone', voyager.spots_alone(p_now))
$$;


--
-- Name: side_kind(text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.side_kind(p_name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $_$
SELECT CASE WHEN p_name ~* '\.par2$' THEN 'par2'
            WHEN p_name ~* '\.(nfo|sfv|nzb|srr|txt|md5|m3u|cue|log)$' THEN 'sidecar'
            WHEN p_name ~* '\.(jpe?g|png|gif|bmp|webp)$' THEN 'image' END
$_$;


--
-- Name: sign_in(text, text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.sign_in(p_name text, p_key text, p_address text) RETURNS TABLE(user_id integer, throttled boolean)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_window interval := make_interval(mins => voyager.setting_int('sign_in_minutes')::integer);
    v_max integer := voyager.setting_int('sign_in_failures');
    v_user integer;
BEGIN
    IF EXISTS (SELECT 1 FROM voyager.sign_in_failures f
                WHERE f.address = p_address AND f.since > now() - v_window AND f.failures >= v_max) THEN
        RETURN QUERY SELECT NULL::integer, true;
        RETURN;
    END IF;
    SELECT us.id INTO v_user FROM voyager.users us
     WHERE us.api_key_hash = voyager.api_key_hash(p_key) AND us.name = p_name AND NOT us.suspended;
    IF v_user IS NULL THEN
        INSERT INTO voyager.sign_in_failures AS f (address) VALUES (p_address)
            ON CONFLICT (address) DO UPDATE
           SET failures = CASE WHEN f.since > now() - v_window THEN f.failures + 1 ELSE 1 END,
               since = CASE WHEN f.since > now() - v_window THEN f.since ELSE now() END;
    END IF;
    DELETE FROM voyager.sign_in_failures f WHERE f.since < now() - v_window;
    RETURN QUERY SELECT v_user, false;
END $$;


--
-- Name: snapshot(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.snapshot(p_token uuid) RETURNS TABLE(article bigint, taken_at timestamp with time zone, data bytea)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF v.lane = 'recovery' THEN
        RETURN QUERY SELECT s.article, s.taken_at, s.data
                       FROM voyager.recoveries x
                       JOIN voyager.snapshots s ON s.group_id = x.group_id AND s.lane = x.snapshot_lane
                                               AND s.article = x.snapshot_article
                      WHERE x.token = p_token AND x.done_at IS NULL;
        RETURN;
    END IF;
    RETURN QUERY SELECT s.article, s.taken_at, s.data FROM voyager.snapshots s
                  WHERE s.group_id = v.group_id AND s.lane = v.lane AND s.article = v.snapshot_article;
END $$;


--
-- Name: spot_texts(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.spot_texts(p_ids bigint[]) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_written integer;
BEGIN
    DELETE FROM voyager.release_texts t WHERE t.release_id = ANY (p_ids) AND t.kind = 8;
    INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
    SELECT r.id, r.posted_at, 8, string_agg(DISTINCT left(btrim(s.title), 255), E'\n')
      FROM voyager.releases r
      JOIN voyager.releases lr ON coalesce(lr.merged_into, lr.id) = r.id
      JOIN voyager.spot_matches m ON m.release_id = lr.id
      JOIN voyager.spots s ON s.message_id = m.spot_id AND s.disposed_at IS NULL
     WHERE r.id = ANY (p_ids) AND r.merged_into IS NULL AND coalesce(btrim(s.title), '') <> ''
     GROUP BY r.id, r.posted_at
     ORDER BY r.id;
    GET DIAGNOSTICS v_written = ROW_COUNT;
    RETURN v_written;
END $$;


--
-- Name: spots_alone(timestamp with time zone, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.spots_alone(p_now timestamp with time zone DEFAULT now(), p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_made integer;
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS spots_lone (spot_id text, title text, posted timestamptz, newznab integer,
                                                poster text, groups text[], group_id integer, n voyager.spot_nzbs)
        ON COMMIT DROP;
    TRUNCATE spots_lone;
    INSERT INTO spots_lone
    SELECT n.spot_id, left(s.title, 255), coalesce(s.posted_at, s.read_at), s.newznab, coalesce(n.poster, s.facts ->> 'poster', 'spot'),
           ARRAY(SELECT DISTINCT x COLLATE "C" FROM unnest(n.groups) x ORDER BY 1),
           (SELECT g.id FROM unnest(n.groups) WITH ORDINALITY u(name, i) JOIN voyager.groups g ON g.name = u.name
             ORDER BY u.i LIMIT 1), n
      FROM voyager.spot_nzbs n
      JOIN voyager.spots s ON s.message_id = n.spot_id AND s.disposed_at IS NULL
     WHERE n.state = 'read' AND n.chunk IS NOT NULL AND n.files > 0 AND coalesce(btrim(s.title), '') <> ''
       AND greatest(coalesce(s.posted_at, s.read_at), n.inspected_at) <= p_now - interval '24 hours'
       AND NOT EXISTS (SELECT FROM voyager.spot_matches m WHERE m.spot_id = n.spot_id)
     ORDER BY n.inspected_at
     LIMIT p_limit
       FOR UPDATE OF n SKIP LOCKED;

    UPDATE voyager.spot_nzbs n SET error = 'no indexed group', next_try_at = p_now + interval '1 hour'
      FROM spots_lone l WHERE n.spot_id = l.spot_id AND l.group_id IS NULL;
    DELETE FROM spots_lone WHERE group_id IS NULL OR cardinality(groups) = 0;

    INSERT INTO voyager.posters (poster) SELECT DISTINCT poster FROM spots_lone ORDER BY 1 ON CONFLICT (poster) DO NOTHING;
    INSERT INTO voyager.group_sets (groups) SELECT DISTINCT groups FROM spots_lone ORDER BY 1 ON CONFLICT (groups) DO NOTHING;

    WITH made AS (
        INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                                      settled_at, group_id, group_set_id, poster_id, file_total, files, source,
                                      complete, has_par2, edge, release_key, identity_key, name, category, readable)
        SELECT l.posted, l.posted, 0, 0, (l.n).segments, (l.n).bytes, p_now, l.group_id, gs.id, po.id,
               (l.n).files, (l.n).files, 4, true, (l.n).has_par2, false,
               substring(sha256(convert_to('spot' || chr(1) || l.spot_id, 'UTF8')) FROM 1 FOR 20),
               coalesce((l.n).identity_keys[1], substring(sha256(convert_to('spot' || chr(2) || l.spot_id, 'UTF8')) FROM 1 FOR 20)),
               l.title, voyager.category_of(l.title, l.groups, NULL, l.newznab), true
          FROM spots_lone l
          JOIN voyager.posters po ON po.poster = l.poster
          JOIN voyager.group_sets gs ON gs.groups = l.groups
         ORDER BY l.spot_id
        RETURNING id, release_key, posted_at, name
    ), linked AS (
        SELECT m.id, m.posted_at, m.name, l.spot_id, (l.n).chunk AS chunk
          FROM made m JOIN spots_lone l
            ON m.release_key = substring(sha256(convert_to('spot' || chr(1) || l.spot_id, 'UTF8')) FROM 1 FOR 20)
    ), chunks AS (
        INSERT INTO voyager.release_chunks (release_id, month, chunk)
        SELECT k.id, voyager.chunk_month(k.posted_at), k.chunk FROM linked k
    ), texts AS (
        INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
        SELECT k.id, k.posted_at, 1, k.name FROM linked k
    ), links AS (
        INSERT INTO voyager.spot_matches (spot_id, release_id, via, matched_at)
        SELECT k.spot_id, k.id, 'alone', p_now FROM linked k ORDER BY k.spot_id
        RETURNING spot_id
    )
    UPDATE voyager.spot_nzbs n SET next_try_at = NULL FROM links WHERE n.spot_id = links.spot_id;
    GET DIAGNOSTICS v_made = ROW_COUNT;
    PERFORM voyager.apply_spot_matches(p_now);
    RETURN v_made;
END $$;


--
-- Name: spots_disposed(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.spots_disposed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    EXECUTE 'SELECT voyager.take_back_spots(ARRAY(
                 SELECT n.message_id FROM new_rows n JOIN old_rows o ON o.message_id = n.message_id
                  WHERE n.disposed_at IS NOT NULL AND o.disposed_at IS NULL))';
    RETURN NULL;
END $$;


--
-- Name: store_batch(uuid, bigint, bigint, bigint, bigint, voyager.release_in[], voyager.pending_in[], voyager.count_in[], voyager.sample_in[], bytea[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_batch(p_token uuid, p_range_id bigint, p_first_article bigint, p_next_article bigint, p_headers bigint, p_releases voyager.release_in[] DEFAULT '{}'::voyager.release_in[], p_pending voyager.pending_in[] DEFAULT '{}'::voyager.pending_in[], p_counts voyager.count_in[] DEFAULT '{}'::voyager.count_in[], p_samples voyager.sample_in[] DEFAULT '{}'::voyager.sample_in[], p_retracted bytea[] DEFAULT '{}'::bytea[]) RETURNS jsonb
    LANGUAGE plpgsql
    SET jit TO 'off'
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
               complete = i.complete, has_par2 = i.has_par2, edge = coalesce(i.edge, false),
               readable = coalesce(i.readable, true)
          FROM incoming i
         WHERE x.id = ANY (v_ids) AND x.release_key = i.release_key   -- a finished release stays as it is
        RETURNING x.id, x.release_key, x.settled_at IS NOT NULL AS finished, x.posted_at AS stored_at
    ), inserted AS (
        INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                                      settled_at, group_id, group_set_id, poster_id, file_total, files, source,
                                      complete, has_par2, edge, release_key, identity_key, name, category, readable)
        SELECT to_timestamp(i.posted_at), to_timestamp(i.last_posted_at), i.first_article, i.last_article,
               i.segments, i.bytes, CASE WHEN i.finished THEN now() END, v_range.group_id, i.group_set_id,
               i.poster_id, i.file_total, i.files, i.source, i.complete, i.has_par2, coalesce(i.edge, false),
               i.release_key, i.identity_key, i.name, voyager.category_of(i.name, i.groups),
               coalesce(i.readable, true)
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

    -- pending releases: nothing enters the catalog without a name someone could search
    -- for, so the uploads the window found no name for wait outside it for phase 2
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


--
-- Name: store_named(uuid, voyager.release_in); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_named(p_claim uuid, p_release voyager.release_in) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: store_probes(text, jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_probes(p_node text, p_results jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $_$
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
    )
    SELECT jsonb_build_object(
               'stored', (SELECT count(*) FROM live), 'stale', v_stale, 'retry', v_retry,
               'read', (SELECT count(*) FROM live WHERE status = 0),
               'dead', (SELECT count(*) FROM live WHERE status = 1),
               'failed', (SELECT count(*) FROM live WHERE status = 2),
               'cached', (SELECT count(*) FROM live WHERE NOT fresh),
               'hashes', (SELECT count(*) FROM hashes), 'par2_sets', (SELECT count(*) FROM set_rows),
               'par2_files', (SELECT count(*) FROM file_rows), 'cache', (SELECT count(*) FROM cache))
      INTO v_out;
    -- a catalog release's NFO, media ids, password and texts from what was read whole
    RETURN v_out || voyager.store_release_facts((
        SELECT coalesce(jsonb_agg(jsonb_build_object('release_id', l.release_id, 'message_id', l.message_id,
                                                     'facts', l.facts)), '[]')
          FROM jsonb_to_recordset(v_live) AS l(release_id bigint, message_id text, status smallint, facts jsonb)
         WHERE l.release_id IS NOT NULL AND l.status = 0 AND jsonb_typeof(l.facts) = 'object'));
END $_$;


--
-- Name: store_recovered(uuid, bigint, voyager.release_in[], voyager.pending_in[], text[], jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_recovered(p_token uuid, p_range_id bigint, p_releases voyager.release_in[] DEFAULT '{}'::voyager.release_in[], p_pending voyager.pending_in[] DEFAULT '{}'::voyager.pending_in[], p_release_tools text[] DEFAULT '{}'::text[], p_pending_groups jsonb DEFAULT '[]'::jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v        voyager.group_leases;
    x        voyager.recoveries;
    v_at     bigint;
    v_rel    voyager.release_in[];
    v_pend   voyager.pending_in[];
    v_out    jsonb;
BEGIN
    v := voyager.lease_of(p_token);
    SELECT * INTO x FROM voyager.recoveries r WHERE r.token = p_token AND r.done_at IS NULL FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no recovery runs under lease %', p_token USING ERRCODE = '22023';
    END IF;
    IF NOT p_range_id = ANY (x.stale) THEN
        RAISE EXCEPTION 'range % is not one recovery % stores into', p_range_id, x.id USING ERRCODE = '22023';
    END IF;
    IF coalesce(cardinality(p_release_tools), 0) <> coalesce(cardinality(p_releases), 0)
       OR coalesce(jsonb_array_length(p_pending_groups), 0) <> coalesce(cardinality(p_pending), 0) THEN
        RAISE EXCEPTION 'batch refused: the tools and groups must be one for each release and pending release'
            USING ERRCODE = '22023';
    END IF;
    v_rel := ARRAY(SELECT p_releases[i] FROM generate_subscripts(p_releases, 1) i
                    WHERE voyager.recovery_matches(x.rule, x.key, (p_releases[i]).poster, p_release_tools[i],
                                                   (p_releases[i]).groups)
                    ORDER BY i);
    v_pend := ARRAY(SELECT p_pending[i] FROM generate_subscripts(p_pending, 1) i
                     WHERE voyager.recovery_matches(x.rule, x.key, (p_pending[i]).poster, (p_pending[i]).tool,
                                                    ARRAY(SELECT jsonb_array_elements_text(p_pending_groups -> (i - 1))))
                     ORDER BY i);
    IF cardinality(v_rel) = 0 AND cardinality(v_pend) = 0 THEN
        RETURN jsonb_build_object('range', p_range_id, 'releases', 0, 'pending', 0);
    END IF;
    UPDATE voyager.group_leases SET range_id = p_range_id, heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane;
    SELECT next_article INTO v_at FROM voyager.ranges WHERE id = p_range_id;
    v_out := voyager.store_batch(p_token, p_range_id, v_at, v_at, 0, v_rel, v_pend);
    UPDATE voyager.recoveries r
       SET added = r.added + (v_out ->> 'releases')::integer + (v_out ->> 'pending')::integer
     WHERE r.id = x.id;
    RETURN v_out;
END $$;


--
-- Name: store_release_facts(jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_release_facts(p_known jsonb) RETURNS jsonb
    LANGUAGE sql
    AS $_$
    -- the merges' lock shared (a merge holds its releases till it ends, taken a
    -- slice at a time: no one order with them), then the releases in id order
    -- (a second store of one release's facts waits, and reads the first's)
    SELECT voyager.merges_lock(true);
    SELECT count(*) FROM (SELECT FROM voyager.releases r
                           WHERE r.id = ANY (ARRAY(SELECT (e ->> 'release_id')::bigint
                                                     FROM jsonb_array_elements(p_known) e))
                           ORDER BY r.id FOR NO KEY UPDATE) l;
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
        SELECT voyager.merge_settle_mark(ARRAY(SELECT r.merged_into FROM known k
                                                 JOIN voyager.releases r ON r.id = k.release_id)) AS marked
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
                              'resettle', (SELECT marked FROM resettle))
$_$;


--
-- Name: store_snapshot(uuid, bigint, bytea); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_snapshot(p_token uuid, p_article bigint, p_data bytea) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    v voyager.group_leases;
    v_resume bigint;
BEGIN
    v := voyager.lease_of(p_token);
    IF p_data IS NULL OR p_article IS NULL THEN
        RAISE EXCEPTION 'a snapshot needs its data and the article it stands at' USING ERRCODE = '22004';
    END IF;
    SELECT next_article INTO v_resume FROM voyager.ranges WHERE id = v.range_id;
    v_resume := coalesce(v_resume, v.snapshot_article);
    IF v_resume IS DISTINCT FROM p_article THEN
        RAISE EXCEPTION 'snapshot refused: it stands at article % but the lane resumes at %', p_article,
            coalesce(v_resume::text, 'no stored batch yet') USING ERRCODE = 'VY004';
    END IF;
    -- the same article again (a redo after a takeover): the same window, stored again
    INSERT INTO voyager.snapshots AS s (group_id, lane, article, rule_version, bytes, taken_at, data)
    VALUES (v.group_id, v.lane, p_article, CASE WHEN v.rules_token = p_token THEN v.rule_version END,
            octet_length(p_data), now(), p_data)
        ON CONFLICT (group_id, lane, article) DO UPDATE
       SET rule_version = excluded.rule_version, bytes = excluded.bytes, taken_at = excluded.taken_at,
           data = excluded.data;
    UPDATE voyager.group_leases SET snapshot_article = p_article, snapshot_at = now(),
           heartbeat_at = now(), expires_at = voyager.lease_expiry()
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN octet_length(p_data);
END $$;


--
-- Name: store_spot_nzb(text, jsonb, bytea, timestamp with time zone); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_spot_nzb(p_spot text, p_nzb jsonb, p_chunk bytea DEFAULT NULL::bytea, p_now timestamp with time zone DEFAULT now()) RETURNS jsonb
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_state text := p_nzb ->> 'state';
BEGIN
    INSERT INTO voyager.spot_nzbs AS n (spot_id, state, error, files, segments, bytes, has_par2, poster, groups,
                                        identity_keys, message_ids, chunk, inspected_at, tries, next_try_at)
    SELECT p_spot, v_state, p_nzb ->> 'error', coalesce((p_nzb ->> 'files')::integer, 0),
           coalesce((p_nzb ->> 'segments')::bigint, 0), coalesce((p_nzb ->> 'bytes')::bigint, 0),
           coalesce((p_nzb ->> 'has_par2')::boolean, false), p_nzb ->> 'poster',
           ARRAY(SELECT jsonb_array_elements_text(coalesce(p_nzb -> 'groups', '[]'))),
           ARRAY(SELECT decode(x, 'hex') FROM jsonb_array_elements_text(coalesce(p_nzb -> 'identity_keys', '[]')) x),
           ARRAY(SELECT jsonb_array_elements_text(coalesce(p_nzb -> 'message_ids', '[]'))),
           CASE WHEN v_state = 'read' THEN p_chunk END, p_now, 0,
           CASE WHEN v_state = 'read' THEN p_now END
     WHERE EXISTS (SELECT FROM voyager.spots s WHERE s.message_id = p_spot)
    ON CONFLICT (spot_id) DO UPDATE
       SET state = excluded.state, error = excluded.error, files = excluded.files, segments = excluded.segments,
           bytes = excluded.bytes, has_par2 = excluded.has_par2, poster = excluded.poster, groups = excluded.groups,
           identity_keys = excluded.identity_keys, message_ids = excluded.message_ids, chunk = excluded.chunk,
           inspected_at = excluded.inspected_at, next_try_at = excluded.next_try_at;
    IF v_state = 'read' THEN
        RETURN voyager.match_spots(ARRAY[p_spot], p_now);
    END IF;
    RETURN jsonb_build_object('due', 0, 'matched', 0, 'named', 0, 'applied', 0);
END $$;


--
-- Name: store_spots(text, jsonb); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_spots(p_group text, p_spots jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    AS $_$
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
$_$;


--
-- Name: tail_started(integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.tail_started(p_group integer) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$
    SELECT EXISTS (SELECT 1 FROM voyager.group_leases gl
                    WHERE gl.group_id = p_group AND gl.lane = 'tail'
                      AND (gl.token IS NOT NULL OR gl.snapshot_article IS NOT NULL))
        OR EXISTS (SELECT 1 FROM voyager.ranges r WHERE r.group_id = p_group AND r.lane = 'tail')
$$;


--
-- Name: take_back_spots(text[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.take_back_spots(p_spots text[]) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_gone integer;
    v_releases bigint[];
BEGIN
    DELETE FROM voyager.release_passwords pw
     USING voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots) AND m.password_set AND m.prior_status IS NULL
       AND pw.release_id = coalesce(r.merged_into, r.id) AND pw.source IN ('spot-title', 'spot-text');
    UPDATE voyager.release_passwords pw SET status = m.prior_status, password = NULL, source = m.prior_source
      FROM voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots) AND m.password_set AND m.prior_status IS NOT NULL
       AND pw.release_id = coalesce(r.merged_into, r.id) AND pw.source IN ('spot-title', 'spot-text');
    UPDATE voyager.release_own_totals o
       SET password = NULL, password_source = m.prior_source, password_status = m.prior_status
      FROM voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots) AND m.password_set
       AND o.release_id = coalesce(r.merged_into, r.id) AND o.password_source IN ('spot-title', 'spot-text');
    UPDATE voyager.releases r SET category = m.prior_category
      FROM voyager.spot_matches m JOIN voyager.spots s ON s.message_id = m.spot_id
     WHERE m.spot_id = ANY (p_spots) AND m.category_set AND r.id = m.release_id;
    UPDATE voyager.pending_releases p SET status = 0, named = NULL, name_source = NULL, decided_at = NULL
      FROM voyager.spot_matches m
     WHERE m.spot_id = ANY (p_spots) AND m.release_id IS NULL AND p.release_key = m.pending_key
       AND p.status = 4 AND p.name_source = 4;
    SELECT coalesce(array_agg(DISTINCT coalesce(r.merged_into, r.id)), '{}') INTO v_releases
      FROM voyager.spot_matches m JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.spot_id = ANY (p_spots);
    DELETE FROM voyager.spot_matches m WHERE m.spot_id = ANY (p_spots);
    GET DIAGNOSTICS v_gone = ROW_COUNT;
    PERFORM voyager.spot_texts(v_releases);      -- its title no longer finds them
    UPDATE voyager.spot_nzbs n SET next_try_at = NULL WHERE n.spot_id = ANY (p_spots);
    RETURN v_gone;
END $$;


--
-- Name: unmerge_releases(bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.unmerge_releases(p_ids bigint[]) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_out bigint[];
    v_roots bigint[];
BEGIN
    PERFORM voyager.merges_lock();                                  -- merges take turns
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


--
-- Name: user_use(integer, text, bigint, integer, integer[], pg_lsn[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.user_use(p_user_id integer, p_kind text DEFAULT 'request'::text, p_release_id bigint DEFAULT NULL::bigint, p_held integer DEFAULT NULL::integer, p_sent integer[] DEFAULT NULL::integer[], p_sent_lsn pg_lsn[] DEFAULT NULL::pg_lsn[]) RETURNS TABLE(code integer, user_id integer, user_name text, role text, admin boolean, requests integer, requests_max integer, downloads integer, downloads_max integer, catalog_state bigint)
    LANGUAGE plpgsql ROWS 1
    AS $$
#variable_conflict use_column
DECLARE
    u record;
    v_day date := (now() AT TIME ZONE 'UTC')::date;
    v_requests integer;
    v_downloads integer;
    v_held integer := 0;
    v_seen pg_lsn;
    v_code integer := 0;
BEGIN
    IF p_kind NOT IN ('request', 'download', 'none') THEN
        RAISE EXCEPTION 'user_use: unknown kind %', p_kind USING ERRCODE = '22023';
    END IF;
    SELECT us.id, us.name, us.role, us.suspended, r.admin,
           coalesce(us.requests_per_day, r.requests_per_day) AS rmax,
           coalesce(us.downloads_per_day, r.downloads_per_day) AS dmax
      INTO u
      FROM voyager.users us JOIN voyager.roles r ON r.name = us.role
     WHERE us.id = p_user_id;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 100, NULL::integer, NULL::text, NULL::text, false, 0, 0, 0, 0, 0::bigint;
        RETURN;
    END IF;
    IF p_held IS NOT NULL THEN
        -- the WAL this server has: replayed (a standby) or written (the primary)
        v_seen := coalesce(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()
                                ELSE pg_current_wal_insert_lsn() END, '0/0');
        SELECT p_held + coalesce(sum(s.n), 0)::integer INTO v_held
          FROM unnest(p_sent, p_sent_lsn) s(n, lsn) WHERE s.lsn > v_seen;
    END IF;
    IF u.suspended THEN
        v_code := 101;
    ELSIF p_kind = 'download' AND NOT EXISTS (SELECT 1 FROM voyager.releases WHERE id = p_release_id) THEN
        v_code := 300;
    ELSIF p_kind = 'none' THEN
        NULL;
    ELSIF (p_kind = 'request' AND u.rmax = 0) OR (p_kind = 'download' AND u.dmax = 0) THEN
        v_code := CASE p_kind WHEN 'request' THEN 500 ELSE 501 END;
    ELSIF p_held IS NOT NULL THEN
        -- judged, not counted: the day's counts here, the held ones on top
        SELECT d.requests, d.downloads INTO v_requests, v_downloads
          FROM voyager.user_days d WHERE d.user_id = u.id AND d.day = v_day;
        v_requests := coalesce(v_requests, 0) + CASE WHEN p_kind = 'request' THEN v_held ELSE 0 END;
        v_downloads := coalesce(v_downloads, 0) + CASE WHEN p_kind = 'download' THEN v_held ELSE 0 END;
        IF (p_kind = 'request' AND v_requests >= u.rmax) OR (p_kind = 'download' AND v_downloads >= u.dmax) THEN
            v_code := CASE p_kind WHEN 'request' THEN 500 ELSE 501 END;
        ELSIF p_kind = 'request' THEN
            v_requests := v_requests + 1;
        ELSE
            v_downloads := v_downloads + 1;
        END IF;
    ELSE
        -- a lost counter on a crash is fine; a flush per API request is not
        PERFORM set_config('synchronous_commit', 'off', true);
        INSERT INTO voyager.user_days AS x (user_id, day, requests, downloads)
        VALUES (u.id, v_day, (p_kind = 'request')::integer, (p_kind = 'download')::integer)
            ON CONFLICT ON CONSTRAINT user_days_pkey DO UPDATE
           SET requests = x.requests + (p_kind = 'request')::integer,
               downloads = x.downloads + (p_kind = 'download')::integer
         WHERE (p_kind = 'request' AND (u.rmax IS NULL OR x.requests < u.rmax))
            OR (p_kind = 'download' AND (u.dmax IS NULL OR x.downloads < u.dmax))
        RETURNING x.requests, x.downloads INTO v_requests, v_downloads;
        IF NOT FOUND THEN
            v_code := CASE p_kind WHEN 'request' THEN 500 ELSE 501 END;
        ELSIF p_kind = 'download' THEN
            INSERT INTO voyager.release_grabs AS g (release_id, grabs) VALUES (p_release_id, 1)
                ON CONFLICT ON CONSTRAINT release_grabs_pkey DO UPDATE SET grabs = g.grabs + 1, last_grab_at = now();
        END IF;
    END IF;
    IF v_requests IS NULL THEN
        SELECT d.requests, d.downloads INTO v_requests, v_downloads
          FROM voyager.user_days d WHERE d.user_id = u.id AND d.day = v_day;
        v_requests := coalesce(v_requests, 0) + CASE WHEN p_kind = 'request' THEN v_held ELSE 0 END;
        v_downloads := coalesce(v_downloads, 0) + CASE WHEN p_kind = 'download' THEN v_held ELSE 0 END;
    END IF;
    RETURN QUERY SELECT v_code, u.id, u.name, u.role, u.admin, v_requests, u.rmax, v_downloads, u.dmax,
                        CASE WHEN p_kind = 'request' THEN voyager.catalog_state() END;
END $$;


--
-- Name: wildmat(text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.wildmat(pattern text, name text) RETURNS boolean
    LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE
    AS $$
from voyager_pl.wildmat import match
return match(pattern, name)
$$;


--
-- Name: word_bits(jsonb, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.word_bits(map jsonb, word text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT coalesce((map ->> word)::bigint, 0)
$$;


--
-- Name: word_mask(jsonb, text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.word_mask(map jsonb, words text, sep text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT coalesce((map ->> split_part(words, sep, 2))::bigint, 0) | coalesce((map ->> split_part(words, sep, 3))::bigint, 0)
         | coalesce((map ->> split_part(words, sep, 4))::bigint, 0) | coalesce((map ->> split_part(words, sep, 5))::bigint, 0)
         | CASE WHEN split_part(words, sep, 6) = '' THEN 0 ELSE
             coalesce((map ->> split_part(words, sep, 6))::bigint, 0) | coalesce((map ->> split_part(words, sep, 7))::bigint, 0)
             | coalesce((map ->> split_part(words, sep, 8))::bigint, 0) | coalesce((map ->> split_part(words, sep, 9))::bigint, 0)
           | CASE WHEN split_part(words, sep, 10) = '' THEN 0 ELSE
               coalesce((map ->> split_part(words, sep, 10))::bigint, 0) | coalesce((map ->> split_part(words, sep, 11))::bigint, 0)
               | coalesce((map ->> split_part(words, sep, 12))::bigint, 0) | coalesce((map ->> split_part(words, sep, 13))::bigint, 0)
             | CASE WHEN split_part(words, sep, 14) = '' THEN 0 ELSE
                 coalesce((map ->> split_part(words, sep, 14))::bigint, 0) | coalesce((map ->> split_part(words, sep, 15))::bigint, 0)
                 | coalesce((map ->> split_part(words, sep, 16))::bigint, 0) | coalesce((map ->> split_part(words, sep, 17))::bigint, 0)
               | CASE WHEN split_part(words, sep, 18) = '' THEN 0 ELSE
                   voyager.word_mask_from(map, words, sep, 18) END END END END
$$;


--
-- Name: word_mask_from(jsonb, text, text, integer); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.word_mask_from(map jsonb, words text, sep text, first integer) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT coalesce(bit_or((map ->> w)::bigint), 0) FROM unnest((string_to_array(words, sep))[first:]) w
$$;


--
-- Name: catalog_changes; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.catalog_changes (
    id bigint NOT NULL,
    weight bigint DEFAULT 1 NOT NULL,
    CONSTRAINT catalog_changes_weight_check CHECK ((weight > 0))
);


--
-- Name: catalog_changes_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.catalog_changes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.catalog_changes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: categories; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.categories (
    id integer NOT NULL,
    parent_id integer,
    name text NOT NULL,
    CONSTRAINT categories_check CHECK (((parent_id IS NULL) = ((id % 1000) = 0))),
    CONSTRAINT categories_check1 CHECK (((parent_id IS NULL) OR (parent_id = ((id / 1000) * 1000)))),
    CONSTRAINT categories_id_check CHECK (((id >= 1000) AND (id <= 9999)))
);


--
-- Name: file_hashes; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.file_hashes (
    message_id text NOT NULL,
    md5_16k bytea NOT NULL,
    size bigint NOT NULL,
    release_id bigint,
    pending_key bytea,
    file_index integer NOT NULL,
    CONSTRAINT file_hashes_md5_16k_check CHECK ((octet_length(md5_16k) = 16))
);


--
-- Name: group_dates; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.group_dates (
    group_id integer NOT NULL,
    article bigint NOT NULL,
    posted_at timestamp with time zone NOT NULL,
    sampled_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: group_lease_turns; Type: SEQUENCE; Schema: voyager; Owner: -
--

CREATE SEQUENCE voyager.group_lease_turns
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: group_sets; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.group_sets (
    id integer NOT NULL,
    groups text[] NOT NULL,
    CONSTRAINT group_sets_groups_check CHECK (voyager.is_group_set(groups))
);


--
-- Name: group_sets_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.group_sets ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.group_sets_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: groups; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.groups (
    id integer NOT NULL,
    priority integer NOT NULL,
    active boolean DEFAULT true NOT NULL,
    low bigint DEFAULT 0 NOT NULL,
    high bigint DEFAULT 0 NOT NULL,
    added_at timestamp with time zone DEFAULT now() NOT NULL,
    listed_at timestamp with time zone,
    name text NOT NULL,
    CONSTRAINT groups_name_check CHECK (((name <> ''::text) AND (name !~ '[[:space:]]'::text))),
    CONSTRAINT groups_watermarks_check CHECK (((low >= 0) AND (high >= 0)))
);


--
-- Name: groups_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.groups ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.groups_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: jobs; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.jobs (
    name text NOT NULL,
    kind text NOT NULL,
    function text,
    every_setting text NOT NULL,
    timeout interval DEFAULT '00:10:00'::interval NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    next_run_at timestamp with time zone DEFAULT now() NOT NULL,
    last_run_at timestamp with time zone,
    last_finished_at timestamp with time zone,
    last_seconds numeric,
    last_node text,
    last_result jsonb,
    last_error text,
    runs bigint DEFAULT 0 NOT NULL,
    failures bigint DEFAULT 0 NOT NULL,
    claim uuid,
    expires_at timestamp with time zone,
    description text NOT NULL,
    place timestamp with time zone,
    place_id bigint,
    CONSTRAINT jobs_claim_check CHECK (((claim IS NULL) = (expires_at IS NULL))),
    CONSTRAINT jobs_function_check CHECK ((function ~ '^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$'::text)),
    CONSTRAINT jobs_kind_check CHECK ((kind = ANY (ARRAY['sql'::text, 'python'::text]))),
    CONSTRAINT jobs_name_check CHECK ((name ~ '^[a-z][a-z0-9_]*$'::text)),
    CONSTRAINT jobs_sql_function_check CHECK (((kind = 'sql'::text) = (function IS NOT NULL))),
    CONSTRAINT jobs_timeout_check CHECK ((timeout > '00:00:00'::interval))
);


--
-- Name: judge_queue; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.judge_queue (
    release_id bigint NOT NULL,
    marked_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: merge_settle_queue; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.merge_settle_queue (
    survivor_id bigint NOT NULL,
    queued_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: nntp_claims; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.nntp_claims (
    node text NOT NULL,
    role text NOT NULL,
    connections integer NOT NULL,
    want integer NOT NULL,
    claimed_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT nntp_claims_connections_check CHECK ((connections >= 0)),
    CONSTRAINT nntp_claims_node_check CHECK ((node <> ''::text)),
    CONSTRAINT nntp_claims_want_check CHECK ((want >= 0))
);


--
-- Name: nntp_shares; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.nntp_shares (
    role text NOT NULL,
    min_connections integer DEFAULT 0 NOT NULL,
    max_connections integer NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    reserve boolean DEFAULT true NOT NULL,
    CONSTRAINT nntp_shares_bounds_check CHECK ((min_connections <= max_connections)),
    CONSTRAINT nntp_shares_max_connections_check CHECK ((max_connections >= 1)),
    CONSTRAINT nntp_shares_min_connections_check CHECK ((min_connections >= 0)),
    CONSTRAINT nntp_shares_role_check CHECK ((role ~ '^[a-z][a-z0-9_-]*$'::text))
);


--
-- Name: nodes; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.nodes (
    name text NOT NULL,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    seen_at timestamp with time zone DEFAULT now() NOT NULL,
    info jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT nodes_name_check CHECK ((name <> ''::text))
);


--
-- Name: par2_files; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.par2_files (
    set_id bytea NOT NULL,
    file_id bytea NOT NULL,
    name text NOT NULL,
    size bigint NOT NULL,
    md5_16k bytea NOT NULL,
    md5 bytea NOT NULL,
    CONSTRAINT par2_files_file_id_check CHECK ((octet_length(file_id) = 16)),
    CONSTRAINT par2_files_md5_16k_check CHECK ((octet_length(md5_16k) = 16)),
    CONSTRAINT par2_files_md5_check CHECK ((octet_length(md5) = 16))
);


--
-- Name: par2_sets; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.par2_sets (
    set_id bytea NOT NULL,
    creator text,
    name text,
    files integer NOT NULL,
    message_id text NOT NULL,
    found_at timestamp with time zone DEFAULT now() NOT NULL,
    files_dropped_at timestamp with time zone,
    CONSTRAINT par2_sets_set_id_check CHECK ((octet_length(set_id) = 16))
);


--
-- Name: pending_releases; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.pending_releases (
    release_key bytea NOT NULL,
    identity_key bytea NOT NULL,
    posted_at timestamp with time zone,
    last_posted_at timestamp with time zone,
    first_article bigint NOT NULL,
    last_article bigint NOT NULL,
    segments bigint NOT NULL,
    bytes bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    group_id integer NOT NULL,
    files integer NOT NULL,
    file_total integer,
    status smallint DEFAULT 0 NOT NULL,
    finished boolean NOT NULL,
    complete boolean NOT NULL,
    tool text NOT NULL,
    poster text NOT NULL,
    name text NOT NULL,
    candidates jsonb NOT NULL,
    tries smallint DEFAULT 0 NOT NULL,
    named text,
    name_source smallint,
    release_id bigint,
    decided_at timestamp with time zone,
    claim uuid,
    taken_by text,
    expires_at timestamp with time zone,
    CONSTRAINT pending_releases_claim_check CHECK (((status = 5) = (claim IS NOT NULL))),
    CONSTRAINT pending_releases_named_check CHECK (((status <> ALL (ARRAY[1, 4, 5])) OR (named IS NOT NULL))),
    CONSTRAINT pending_releases_release_key_check CHECK ((octet_length(release_key) = 20)),
    CONSTRAINT pending_releases_status_check CHECK (((status >= 0) AND (status <= 5)))
);


--
-- Name: pending_signatures; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.pending_signatures (
    group_id integer NOT NULL,
    probes integer DEFAULT 0 NOT NULL,
    named integer DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    tool text NOT NULL,
    poster text NOT NULL,
    muted boolean GENERATED ALWAYS AS (((probes >= 100) AND ((named * 200) <= probes))) STORED,
    yield real GENERATED ALWAYS AS (((named)::real / (GREATEST(probes, 1))::double precision)) STORED
);


--
-- Name: posters; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.posters (
    id integer NOT NULL,
    poster text NOT NULL
);


--
-- Name: posters_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.posters ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.posters_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: probe_cache; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.probe_cache (
    message_id text NOT NULL,
    kind text NOT NULL,
    status smallint NOT NULL,
    error text,
    bytes integer,
    facts jsonb,
    probed_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT probe_cache_status_check CHECK ((status = ANY (ARRAY[0, 1, 2])))
);


--
-- Name: probe_candidates; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.probe_candidates (
    release_id bigint,
    kind text NOT NULL,
    message_id text NOT NULL,
    file_index integer NOT NULL,
    claimed_by text,
    expires_at timestamp with time zone,
    probed_at timestamp with time zone,
    pending_key bytea,
    claim uuid,
    attempts smallint DEFAULT 0 NOT NULL,
    rank smallint GENERATED ALWAYS AS ((
CASE
    WHEN (pending_key IS NULL) THEN 10
    ELSE 0
END +
CASE kind
    WHEN 'lone'::text THEN 0
    WHEN 'archive'::text THEN 1
    WHEN 'par2'::text THEN 2
    WHEN '7z-tail'::text THEN 3
    WHEN 'nfo'::text THEN 4
    ELSE 5
END)) STORED,
    CONSTRAINT probe_candidates_kind_check CHECK ((kind = ANY (ARRAY['lone'::text, 'archive'::text, 'par2'::text, '7z-tail'::text, 'nfo'::text, 'media'::text]))),
    CONSTRAINT probe_candidates_owner_check CHECK (((release_id IS NULL) <> (pending_key IS NULL)))
);


--
-- Name: range_batches; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.range_batches (
    range_id bigint NOT NULL,
    first_article bigint NOT NULL,
    next_article bigint NOT NULL,
    headers bigint DEFAULT 0 NOT NULL,
    stored_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT range_batches_span_check CHECK ((next_article > first_article))
);


--
-- Name: ranges_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.ranges ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.ranges_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: recategorize_queue; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.recategorize_queue (
    release_id bigint NOT NULL,
    queued_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: recoveries; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.recoveries (
    id bigint NOT NULL,
    rule text NOT NULL,
    key text NOT NULL,
    group_id integer NOT NULL,
    rule_version integer NOT NULL,
    ranges bigint[] NOT NULL,
    stale bigint[] NOT NULL,
    token uuid,
    planned_at timestamp with time zone DEFAULT now() NOT NULL,
    done_at timestamp with time zone,
    added integer DEFAULT 0 NOT NULL,
    snapshot_lane voyager.lane,
    snapshot_article bigint,
    snapshot_rule_version integer,
    CONSTRAINT recoveries_rule_check CHECK ((rule = ANY (ARRAY['dropped-poster'::text, 'garbage'::text, 'crosspost'::text]))),
    CONSTRAINT recoveries_snapshot_check CHECK (((snapshot_lane IS NULL) = (snapshot_article IS NULL))),
    CONSTRAINT recoveries_stale_check CHECK (((stale <@ ranges) AND (cardinality(stale) > 0)))
);


--
-- Name: recoveries_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.recoveries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.recoveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: release_chunks; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_chunks (
    release_id bigint NOT NULL,
    month date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    chunk bytea NOT NULL
)
PARTITION BY RANGE (month);
ALTER TABLE ONLY voyager.release_chunks ALTER COLUMN chunk SET STORAGE EXTERNAL;


--
-- Name: release_chunks_default; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_chunks_default (
    release_id bigint NOT NULL,
    month date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    chunk bytea NOT NULL
);
ALTER TABLE ONLY voyager.release_chunks_default ALTER COLUMN chunk SET STORAGE EXTERNAL;


--
-- Name: release_grabs; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_grabs (
    release_id bigint NOT NULL,
    grabs integer DEFAULT 0 NOT NULL,
    last_grab_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: release_judgements; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_judgements (
    release_id bigint NOT NULL,
    hidden boolean NOT NULL,
    verdict text NOT NULL,
    judged_at timestamp with time zone DEFAULT now() NOT NULL,
    rule_version integer,
    detail jsonb
);


--
-- Name: release_media_ids; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_media_ids (
    kind text NOT NULL,
    value text NOT NULL,
    release_id bigint NOT NULL,
    CONSTRAINT release_media_ids_kind_check CHECK ((kind = ANY (ARRAY['tvdb'::text, 'tvmaze'::text, 'tvrage'::text, 'imdb'::text, 'tmdb'::text, 'trakt'::text])))
);


--
-- Name: release_merges; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_merges (
    merged_id bigint NOT NULL,
    survivor_id bigint NOT NULL,
    via text NOT NULL,
    set_id bytea,
    merged_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT release_merges_check CHECK ((merged_id <> survivor_id)),
    CONSTRAINT release_merges_set_id_check CHECK ((octet_length(set_id) = 16)),
    CONSTRAINT release_merges_via_check CHECK ((via = ANY (ARRAY['par2'::text, 'name'::text, 'inner'::text, 'sidecar'::text])))
);


--
-- Name: release_nfos; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_nfos (
    release_id bigint NOT NULL,
    message_id text NOT NULL,
    text text NOT NULL,
    found_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: release_own_totals; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_own_totals (
    release_id bigint NOT NULL,
    posted_at timestamp with time zone,
    last_posted_at timestamp with time zone,
    first_article bigint NOT NULL,
    last_article bigint NOT NULL,
    segments bigint NOT NULL,
    bytes bigint NOT NULL,
    files integer NOT NULL,
    complete boolean NOT NULL,
    has_par2 boolean NOT NULL,
    source smallint NOT NULL,
    name text NOT NULL,
    password_status smallint,
    password text,
    password_source text
);


--
-- Name: release_passwords; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_passwords (
    release_id bigint NOT NULL,
    status smallint NOT NULL,
    password text,
    found_at timestamp with time zone DEFAULT now() NOT NULL,
    source text,
    CONSTRAINT release_passwords_source_check CHECK ((source = ANY (ARRAY['nzb'::text, 'subject'::text, 'nfo'::text, 'spot-title'::text, 'spot-text'::text, 'archive'::text]))),
    CONSTRAINT release_passwords_status_check CHECK ((status = ANY (ARRAY[0, 1, 2])))
);


--
-- Name: release_texts; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_texts (
    release_id bigint NOT NULL,
    posted_at timestamp with time zone,
    kind smallint NOT NULL,
    text text NOT NULL
);


--
-- Name: releases; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.releases (
    id bigint NOT NULL,
    posted_at timestamp with time zone,
    last_posted_at timestamp with time zone,
    first_article bigint NOT NULL,
    last_article bigint NOT NULL,
    segments bigint NOT NULL,
    bytes bigint NOT NULL,
    settled_at timestamp with time zone,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    group_id integer NOT NULL,
    group_set_id integer NOT NULL,
    poster_id integer NOT NULL,
    file_total integer,
    files integer NOT NULL,
    category integer,
    source smallint NOT NULL,
    complete boolean NOT NULL,
    has_par2 boolean NOT NULL,
    edge boolean DEFAULT false NOT NULL,
    release_key bytea NOT NULL,
    identity_key bytea NOT NULL,
    name text NOT NULL,
    readable boolean DEFAULT true NOT NULL,
    merged_into bigint,
    CONSTRAINT releases_identity_key_check CHECK ((octet_length(identity_key) = 20)),
    CONSTRAINT releases_release_key_check CHECK ((octet_length(release_key) = 20))
);


--
-- Name: releases_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.releases ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.releases_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: roles; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.roles (
    name text NOT NULL,
    requests_per_day integer,
    downloads_per_day integer,
    admin boolean DEFAULT false NOT NULL,
    description text NOT NULL,
    CONSTRAINT roles_downloads_per_day_check CHECK ((downloads_per_day >= 0)),
    CONSTRAINT roles_name_check CHECK ((name ~ '^[a-z][a-z0-9_-]*$'::text)),
    CONSTRAINT roles_requests_per_day_check CHECK ((requests_per_day >= 0))
);


--
-- Name: rule_counts; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.rule_counts (
    range_id bigint NOT NULL,
    first_article bigint NOT NULL,
    rule text NOT NULL,
    key text NOT NULL,
    articles bigint NOT NULL,
    files bigint NOT NULL,
    releases bigint NOT NULL
);


--
-- Name: rule_samples; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.rule_samples (
    range_id bigint NOT NULL,
    first_article bigint NOT NULL,
    release_key bytea NOT NULL,
    rule text NOT NULL,
    key text NOT NULL,
    sample jsonb NOT NULL
);


--
-- Name: rule_sets_version_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.rule_sets ALTER COLUMN version ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.rule_sets_version_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: search_count_deltas; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.search_count_deltas (
    key text NOT NULL,
    delta bigint NOT NULL
);


--
-- Name: search_counts; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.search_counts (
    key text NOT NULL,
    releases bigint NOT NULL
);


--
-- Name: search_promotions; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.search_promotions (
    key text NOT NULL,
    asked_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT search_promotions_key_check CHECK ((key ~~ 'w:%'::text))
);


--
-- Name: search_totals; Type: TABLE; Schema: voyager; Owner: -
--

CREATE UNLOGGED TABLE voyager.search_totals (
    query_hash bytea NOT NULL,
    state bigint NOT NULL,
    total bigint NOT NULL,
    counted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT search_totals_query_hash_check CHECK ((octet_length(query_hash) = 20))
);


--
-- Name: settings; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.settings (
    name text NOT NULL,
    value text NOT NULL,
    description text NOT NULL,
    CONSTRAINT settings_name_check CHECK ((name ~ '^[a-z][a-z0-9_]*$'::text))
);


--
-- Name: sign_in_failures; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.sign_in_failures (
    address text NOT NULL,
    since timestamp with time zone DEFAULT now() NOT NULL,
    failures integer DEFAULT 1 NOT NULL,
    CONSTRAINT sign_in_failures_failures_check CHECK ((failures > 0))
);


--
-- Name: snapshots; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.snapshots (
    group_id integer NOT NULL,
    lane voyager.lane NOT NULL,
    article bigint NOT NULL,
    bytes bigint NOT NULL,
    taken_at timestamp with time zone DEFAULT now() NOT NULL,
    data bytea NOT NULL,
    rule_version integer
);
ALTER TABLE ONLY voyager.snapshots ALTER COLUMN data SET STORAGE EXTERNAL;


--
-- Name: spool_reports; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.spool_reports (
    node text NOT NULL,
    bytes bigint NOT NULL,
    files integer NOT NULL,
    cap_bytes bigint,
    reported_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT spool_reports_bytes_check CHECK ((bytes >= 0)),
    CONSTRAINT spool_reports_cap_bytes_check CHECK ((cap_bytes >= 0)),
    CONSTRAINT spool_reports_files_check CHECK ((files >= 0)),
    CONSTRAINT spool_reports_node_check CHECK ((node <> ''::text))
);


--
-- Name: spot_matches; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.spot_matches (
    spot_id text NOT NULL,
    release_id bigint,
    pending_key bytea,
    via text NOT NULL,
    matched_at timestamp with time zone DEFAULT now() NOT NULL,
    applied_at timestamp with time zone,
    password_set boolean DEFAULT false NOT NULL,
    prior_status smallint,
    prior_source text,
    category_set boolean DEFAULT false NOT NULL,
    prior_category integer,
    CONSTRAINT spot_matches_target_check CHECK (((release_id IS NOT NULL) OR (pending_key IS NOT NULL))),
    CONSTRAINT spot_matches_via_check CHECK ((via = ANY (ARRAY['message-id'::text, 'identity'::text, 'alone'::text])))
);


--
-- Name: spot_nzbs; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.spot_nzbs (
    spot_id text NOT NULL,
    state text NOT NULL,
    error text,
    files integer DEFAULT 0 NOT NULL,
    segments bigint DEFAULT 0 NOT NULL,
    bytes bigint DEFAULT 0 NOT NULL,
    has_par2 boolean DEFAULT false NOT NULL,
    poster text,
    groups text[] DEFAULT '{}'::text[] NOT NULL,
    identity_keys bytea[] DEFAULT '{}'::bytea[] NOT NULL,
    message_ids text[] DEFAULT '{}'::text[] NOT NULL,
    chunk bytea,
    inspected_at timestamp with time zone DEFAULT now() NOT NULL,
    tries integer DEFAULT 0 NOT NULL,
    next_try_at timestamp with time zone,
    CONSTRAINT spot_nzbs_state_check CHECK ((state = ANY (ARRAY['read'::text, 'placeholder'::text, 'gone'::text, 'unreadable'::text, 'none'::text])))
);


--
-- Name: spot_reads; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.spot_reads (
    group_name text NOT NULL,
    last_article bigint NOT NULL,
    read_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: spots; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.spots (
    message_id text NOT NULL,
    article bigint,
    key_id integer,
    verified boolean DEFAULT false NOT NULL,
    trusted boolean DEFAULT false NOT NULL,
    title text,
    category integer,
    subcats text[] DEFAULT '{}'::text[] NOT NULL,
    newznab integer,
    description text,
    website text,
    size bigint,
    nzb text[] DEFAULT '{}'::text[] NOT NULL,
    spotter_id text,
    posted_at timestamp with time zone,
    read_at timestamp with time zone DEFAULT now() NOT NULL,
    disposed_at timestamp with time zone,
    facts jsonb DEFAULT '{}'::jsonb NOT NULL
);


--
-- Name: status_bands; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_bands AS
 WITH s AS (
         SELECT voyager.setting_int('tail_priority'::text) AS tail,
            voyager.setting_int('history_priority'::text) AS hist
        ), b AS (
         SELECT r.id,
            r.start_article,
            r.end_article,
            r.next_article,
            r.headers,
            r.est_date,
            r.stored_at,
            r.leased_at,
            r.done_at,
            r.group_id,
            r.priority,
            r.attempts,
            r.rule_version,
            r.status,
            r.lane,
            r.capture,
            r.error,
                CASE
                    WHEN (r.status = 'ancient'::voyager.range_status) THEN 'ancient'::text
                    WHEN (r.priority <= s.tail) THEN 'tail'::text
                    WHEN r.capture THEN 'capture'::text
                    WHEN (r.priority < s.hist) THEN 'raised'::text
                    ELSE 'history'::text
                END AS kind
           FROM (voyager.ranges r
             CROSS JOIN s)
        ), k AS (
         SELECT b.id,
            b.start_article,
            b.end_article,
            b.next_article,
            b.headers,
            b.est_date,
            b.stored_at,
            b.leased_at,
            b.done_at,
            b.group_id,
            b.priority,
            b.attempts,
            b.rule_version,
            b.status,
            b.lane,
            b.capture,
            b.error,
            b.kind,
                CASE b.kind
                    WHEN 'capture'::text THEN b.priority
                    WHEN 'history'::text THEN ((floor(((b.priority)::numeric / 1000.0)))::integer * 1000)
                    ELSE NULL::integer
                END AS band_from
           FROM b
        )
 SELECT
        CASE k.kind
            WHEN 'capture'::text THEN ('capture '::text || k.band_from)
            WHEN 'history'::text THEN format('history %s-%s'::text, k.band_from, (k.band_from + 999))
            ELSE k.kind
        END AS band,
    k.kind,
    min(k.priority) AS min_priority,
    max(k.priority) AS max_priority,
    count(*) AS ranges,
    count(*) FILTER (WHERE (k.status = 'planned'::voyager.range_status)) AS planned,
    count(*) FILTER (WHERE (k.status = 'leased'::voyager.range_status)) AS leased,
    count(*) FILTER (WHERE (k.status = 'done'::voyager.range_status)) AS done,
    count(*) FILTER (WHERE (k.status = 'failed'::voyager.range_status)) AS failed,
    (sum(((k.end_article - k.start_article) + 1)))::bigint AS articles,
    (COALESCE(sum(((k.end_article - k.next_article) + 1)) FILTER (WHERE (k.status = ANY (ARRAY['planned'::voyager.range_status, 'leased'::voyager.range_status]))), (0)::numeric))::bigint AS articles_todo,
    (sum(
        CASE
            WHEN (k.status = 'ancient'::voyager.range_status) THEN (0)::bigint
            ELSE (k.next_article - k.start_article)
        END))::bigint AS articles_done,
    (sum(k.headers))::bigint AS headers
   FROM k
  GROUP BY k.kind, k.band_from
  ORDER BY (array_position(ARRAY['tail'::text, 'raised'::text, 'capture'::text, 'history'::text, 'ancient'::text], k.kind)), k.band_from;


--
-- Name: status_catalog; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_catalog AS
 WITH rel AS (
         SELECT t.part,
            c.reltablespace,
            pg_total_relation_size((c.oid)::regclass) AS bytes
           FROM (( VALUES ('releases'::text,'hot'::text), ('release_texts'::text,'hot'::text), ('posters'::text,'hot'::text), ('group_sets'::text,'hot'::text), ('rule_counts'::text,'hot'::text), ('rule_samples'::text,'hot'::text), ('search_counts'::text,'hot'::text), ('search_count_deltas'::text,'hot'::text), ('pending_releases'::text,'pending'::text), ('probe_candidates'::text,'pending'::text)) t(name, part)
             JOIN pg_class c ON ((c.oid = (to_regclass(format('voyager.%I'::text, t.name)))::oid)))
        UNION ALL
         SELECT 'chunks'::text,
            c.reltablespace,
            pg_total_relation_size((c.oid)::regclass) AS pg_total_relation_size
           FROM (pg_partition_tree('voyager.release_chunks'::regclass) p(relid, parentrelid, isleaf, level)
             JOIN pg_class c ON ((c.oid = (p.relid)::oid)))
          WHERE p.isleaf
        ), sums AS (
         SELECT (COALESCE(sum(rel.bytes) FILTER (WHERE (rel.part = 'hot'::text)), (0)::numeric))::bigint AS hot_bytes,
            (COALESCE(sum(rel.bytes) FILTER (WHERE (rel.part = 'chunks'::text)), (0)::numeric))::bigint AS chunk_bytes,
            (COALESCE(sum(rel.bytes) FILTER (WHERE (rel.part = 'pending'::text)), (0)::numeric))::bigint AS pending_bytes,
            (COALESCE(sum(rel.bytes) FILTER (WHERE (rel.reltablespace = (0)::oid)), (0)::numeric))::bigint AS used_bytes,
            (COALESCE(sum(rel.bytes) FILTER (WHERE (rel.reltablespace <> (0)::oid)), (0)::numeric))::bigint AS elsewhere_bytes
           FROM rel
        ), x AS (
         SELECT s.hot_bytes,
            s.chunk_bytes,
            s.pending_bytes,
            s.used_bytes,
            s.elsewhere_bytes,
            (( SELECT voyager.setting_int('catalog_max_gb'::text) AS setting_int) * 1073741824) AS cap_bytes,
            (( SELECT COALESCE(sum(r.headers), (0)::numeric) AS "coalesce"
                   FROM voyager.ranges r))::bigint AS headers
           FROM sums s
        )
 SELECT x.cap_bytes,
    x.used_bytes,
    (x.cap_bytes - x.used_bytes) AS room_bytes,
    round(((100.0 * (x.used_bytes)::numeric) / (NULLIF(x.cap_bytes, 0))::numeric), 2) AS used_pct,
    x.hot_bytes,
    x.chunk_bytes,
    x.pending_bytes,
    x.elsewhere_bytes,
    pg_total_relation_size('voyager.snapshots'::regclass) AS snapshot_bytes,
    voyager.estimated_rows('voyager.releases'::regclass) AS releases,
    voyager.estimated_rows('voyager.pending_releases'::regclass) AS pending_releases,
    x.headers,
    round(((x.used_bytes)::numeric / (NULLIF(x.headers, 0))::numeric), 2) AS bytes_per_header,
    (floor(((((x.cap_bytes - x.used_bytes))::numeric * (x.headers)::numeric) / (NULLIF(x.used_bytes, 0))::numeric)))::bigint AS room_headers
   FROM x;


--
-- Name: status_failed; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_failed AS
 SELECT g.name AS group_name,
    r.lane,
    r.id AS range_id,
    r.start_article,
    r.end_article,
    r.next_article,
    ((r.end_article - r.next_article) + 1) AS articles_to_do,
    r.priority,
    r.attempts,
    r.leased_at,
    r.error
   FROM (voyager.ranges r
     JOIN voyager.groups g ON ((g.id = r.group_id)))
  WHERE (r.status = 'failed'::voyager.range_status)
  ORDER BY g.name, r.lane, r.start_article;


--
-- Name: status_groups; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_groups AS
SELECT
    NULL::text AS name,
    NULL::integer AS priority,
    NULL::boolean AS active,
    NULL::bigint AS low,
    NULL::bigint AS high,
    NULL::bigint AS planned_to,
    NULL::bigint AS planned,
    NULL::bigint AS leased,
    NULL::bigint AS done,
    NULL::bigint AS failed,
    NULL::numeric AS articles_todo,
    NULL::numeric AS articles_done,
    NULL::numeric AS ancient_articles,
    NULL::text AS history_holder,
    NULL::text AS tail_holder;


--
-- Name: status_held; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_held AS
 SELECT g.name AS group_name,
    gl.lane,
    gl.holder,
    gl.leased_at AS since,
    date_trunc('second'::text, (now() - gl.leased_at)) AS held_for,
    date_trunc('second'::text, (now() - gl.heartbeat_at)) AS heartbeat_age,
    (gl.expires_at < now()) AS stale,
    r.start_article,
    r.end_article,
    r.next_article,
    s.article AS snapshot_article,
    date_trunc('second'::text, (now() - s.taken_at)) AS snapshot_age,
    s.bytes AS snapshot_bytes,
    gl.takeovers
   FROM (((voyager.group_leases gl
     JOIN voyager.groups g ON ((g.id = gl.group_id)))
     LEFT JOIN voyager.ranges r ON ((r.id = gl.range_id)))
     LEFT JOIN voyager.snapshots s ON (((s.group_id = gl.group_id) AND (s.lane = gl.lane) AND (s.article = gl.snapshot_article))))
  WHERE (gl.token IS NOT NULL)
  ORDER BY g.priority, gl.lane;


--
-- Name: status_jobs; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_jobs AS
 SELECT j.name,
    j.kind,
    j.function,
    make_interval(secs => (voyager.setting_int(j.every_setting))::double precision) AS every,
    j.enabled,
    j.next_run_at,
    GREATEST(date_trunc('second'::text, (j.next_run_at - now())), '00:00:00'::interval) AS due_in,
    COALESCE((j.expires_at >= now()), false) AS running,
    j.last_run_at,
    j.last_seconds,
    j.last_node,
    (j.last_error IS NULL) AS last_ok,
    j.last_result,
    j.last_error,
    j.runs,
    j.failures
   FROM voyager.jobs j
  ORDER BY j.name;


--
-- Name: status_judge; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_judge AS
 SELECT v.verdict,
    COALESCE(c.releases, (0)::bigint) AS releases,
    c.last_judged_at,
    q.backlog,
    q.oldest_mark,
    GREATEST(date_trunc('second'::text, (now() - q.oldest_mark)), '00:00:00'::interval) AS waiting,
    jd.last_run_at AS judge_last_run_at,
    jd.last_result AS judge_last_result,
    jd.last_error AS judge_last_error,
    dl.last_run_at AS daily_last_run_at,
    dl.place AS daily_pass_began,
    dl.place_id AS daily_at_id,
    dl.last_result AS daily_last_result,
    dl.last_error AS daily_last_error
   FROM ((((unnest(ARRAY['dead'::text, 'fake'::text, 'repeated'::text, 'locked'::text, 'unusable'::text]) WITH ORDINALITY v(verdict, ord)
     LEFT JOIN ( SELECT j.verdict,
            count(*) AS releases,
            max(j.judged_at) AS last_judged_at
           FROM voyager.release_judgements j
          WHERE (j.verdict <> 'merged'::text)
          GROUP BY j.verdict) c ON ((c.verdict = v.verdict)))
     CROSS JOIN ( SELECT count(*) AS backlog,
            min(x.marked_at) AS oldest_mark
           FROM voyager.judge_queue x) q)
     LEFT JOIN voyager.jobs jd ON ((jd.name = 'judge'::text)))
     LEFT JOIN voyager.jobs dl ON ((dl.name = 'judge_daily'::text)))
  ORDER BY v.ord;


--
-- Name: status_leases; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_leases AS
 SELECT g.name AS group_name,
    gl.lane,
    gl.holder,
    gl.leased_at,
    date_trunc('second'::text, (now() - gl.heartbeat_at)) AS silent_for,
    (gl.expires_at < now()) AS stale,
    ((r.start_article || '-'::text) || r.end_article) AS range,
    r.next_article,
    gl.snapshot_article,
    date_trunc('second'::text, (now() - gl.snapshot_at)) AS snapshot_age,
    s.bytes AS snapshot_bytes,
    gl.takeovers
   FROM (((voyager.group_leases gl
     JOIN voyager.groups g ON ((g.id = gl.group_id)))
     LEFT JOIN voyager.ranges r ON ((r.id = gl.range_id)))
     LEFT JOIN voyager.snapshots s ON (((s.group_id = gl.group_id) AND (s.lane = gl.lane) AND (s.article = gl.snapshot_article))))
  WHERE (gl.token IS NOT NULL)
  ORDER BY g.priority, gl.lane;


--
-- Name: status_merges; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_merges AS
 SELECT COALESCE(m.via, '(none yet)'::text) AS via,
    COALESCE(m.merged, (0)::bigint) AS merged,
    COALESCE(m.survivors, (0)::bigint) AS survivors,
    m.last_merged_at,
    j.place,
    GREATEST(date_trunc('second'::text, (now() - j.place)), '00:00:00'::interval) AS behind,
    j.last_run_at,
    j.last_result,
    j.last_error
   FROM (voyager.jobs j
     LEFT JOIN ( SELECT rm.via,
            count(*) AS merged,
            count(DISTINCT rm.survivor_id) AS survivors,
            max(rm.merged_at) AS last_merged_at
           FROM voyager.release_merges rm
          GROUP BY rm.via) m ON (true))
  WHERE (j.name = 'merges'::text)
  ORDER BY COALESCE(m.via, '(none yet)'::text);


--
-- Name: status_phase2; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_phase2 AS
 WITH open AS (
         SELECT pc.kind,
            (pc.attempts >= 5) AS stuck,
                CASE
                    WHEN s.muted THEN 'muted'::text
                    WHEN ((r.settled_at IS NOT NULL) OR (p.finished AND (p.status = 0))) THEN 'ready'::text
                    WHEN ((r.id IS NOT NULL) AND (r.settled_at IS NULL)) THEN 'waiting'::text
                    ELSE NULL::text
                END AS state
           FROM (((voyager.probe_candidates pc
             LEFT JOIN voyager.releases r ON ((r.id = pc.release_id)))
             LEFT JOIN voyager.pending_releases p ON ((p.release_key = pc.pending_key)))
             LEFT JOIN voyager.pending_signatures s ON (((s.tool = p.tool) AND (s.group_id = p.group_id) AND (s.poster = p.poster))))
          WHERE (pc.probed_at IS NULL)
        ), ladder AS (
         SELECT p.status,
            count(*) AS n
           FROM voyager.pending_releases p
          GROUP BY p.status
        ), bad AS (
         SELECT c.kind,
            c.status,
            count(*) AS n
           FROM voyager.probe_cache c
          WHERE (c.status > 0)
          GROUP BY c.kind, c.status
        ), hour AS (
         SELECT count(*) AS n
           FROM voyager.probe_cache c
          WHERE (c.probed_at >= (now() - '01:00:00'::interval))
        )
 SELECT ( SELECT count(*) AS count
           FROM voyager.releases r
          WHERE (r.settled_at IS NULL)) AS provisional_releases,
    ( SELECT count(*) AS count
           FROM voyager.releases r
          WHERE ((r.settled_at IS NULL) AND r.complete AND (COALESCE(r.last_posted_at, r.posted_at) < (now() - make_interval(mins => (( SELECT voyager.setting_int('settle_quiet_minutes'::text) AS setting_int))::integer))))) AS settle_due,
    ( SELECT count(*) AS count
           FROM voyager.pending_releases p
          WHERE (p.status = 0)) AS pending_waiting,
    ( SELECT min(p.created_at) AS min
           FROM voyager.pending_releases p
          WHERE (p.status = 0)) AS pending_oldest,
    voyager.estimated_rows('voyager.pending_releases'::regclass) AS pending_releases,
    ( SELECT COALESCE(jsonb_object_agg(
                CASE l.status
                    WHEN 0 THEN 'waiting'::text
                    WHEN 1 THEN 'in_catalog'::text
                    WHEN 2 THEN 'discarded'::text
                    WHEN 3 THEN 'exhausted'::text
                    WHEN 4 THEN 'awaiting_move'::text
                    WHEN 5 THEN 'taken'::text
                    ELSE NULL::text
                END, l.n), '{}'::jsonb) AS "coalesce"
           FROM ladder l) AS pending_by_status,
    ( SELECT count(*) AS count
           FROM voyager.pending_signatures s
          WHERE s.muted) AS signatures_muted,
    ( SELECT count(*) AS count
           FROM open
          WHERE (open.state = 'muted'::text)) AS probe_candidates_muted,
    ( SELECT count(*) AS count
           FROM open
          WHERE ((open.state = 'ready'::text) AND (NOT open.stuck))) AS probe_candidates_ready,
    ( SELECT count(*) AS count
           FROM open
          WHERE (open.state = 'waiting'::text)) AS probe_candidates_waiting,
    ( SELECT COALESCE(jsonb_object_agg(k.kind, k.n), '{}'::jsonb) AS "coalesce"
           FROM ( SELECT open.kind,
                    count(*) AS n
                   FROM open
                  WHERE ((open.state = 'ready'::text) AND (NOT open.stuck))
                  GROUP BY open.kind) k) AS probe_backlog,
    ( SELECT count(*) AS count
           FROM open
          WHERE open.stuck) AS probes_stuck,
    hour.n AS probes_last_hour,
    round(((hour.n)::numeric / 3600.0), 2) AS probes_per_second,
    ( SELECT COALESCE(jsonb_object_agg(bad.kind, bad.n), '{}'::jsonb) AS "coalesce"
           FROM bad
          WHERE (bad.status = 1)) AS probes_dead,
    ( SELECT COALESCE(jsonb_object_agg(bad.kind, bad.n), '{}'::jsonb) AS "coalesce"
           FROM bad
          WHERE (bad.status = 2)) AS probes_failed
   FROM hour;


--
-- Name: status_ranges; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_ranges AS
 SELECT
        CASE
            WHEN (r.status = 'ancient'::voyager.range_status) THEN 'ancient'::text
            WHEN (r.priority <= voyager.setting_int('tail_priority'::text)) THEN 'tail'::text
            WHEN r.capture THEN 'capture'::text
            ELSE 'history'::text
        END AS band,
    r.status,
    count(*) AS ranges,
    sum(((r.end_article - r.start_article) + 1)) AS articles,
    sum(
        CASE
            WHEN (r.status = 'ancient'::voyager.range_status) THEN (0)::bigint
            ELSE (r.next_article - r.start_article)
        END) AS articles_done,
    sum(r.headers) AS headers,
    min(r.priority) AS min_priority,
    max(r.priority) AS max_priority
   FROM voyager.ranges r
  GROUP BY
        CASE
            WHEN (r.status = 'ancient'::voyager.range_status) THEN 'ancient'::text
            WHEN (r.priority <= voyager.setting_int('tail_priority'::text)) THEN 'tail'::text
            WHEN r.capture THEN 'capture'::text
            ELSE 'history'::text
        END, r.status
  ORDER BY
        CASE
            WHEN (r.status = 'ancient'::voyager.range_status) THEN 'ancient'::text
            WHEN (r.priority <= voyager.setting_int('tail_priority'::text)) THEN 'tail'::text
            WHEN r.capture THEN 'capture'::text
            ELSE 'history'::text
        END, r.status;


--
-- Name: status_recoveries; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_recoveries AS
 SELECT x.id,
    g.name AS group_name,
    x.rule,
    x.key,
        CASE
            WHEN (x.done_at IS NOT NULL) THEN 'done'::text
            WHEN (x.token IS NOT NULL) THEN 'running'::text
            ELSE 'planned'::text
        END AS state,
    cardinality(x.ranges) AS ranges,
    cardinality(x.stale) AS stale,
        CASE
            WHEN (x.snapshot_article IS NOT NULL) THEN format('snapshot at %s (%s lane, rule set %s)'::text, x.snapshot_article, x.snapshot_lane, COALESCE((x.snapshot_rule_version)::text, 'none'::text))
            ELSE format('fresh window (no snapshot old enough; lead-in %s h)'::text, voyager.setting_int('recovery_lead_hours'::text))
        END AS starts_from,
    (x.snapshot_article IS NULL) AS fell_back,
    x.rule_version,
    x.planned_at,
    x.done_at,
    x.added
   FROM (voyager.recoveries x
     JOIN voyager.groups g ON ((g.id = x.group_id)))
  ORDER BY (x.done_at IS NULL) DESC, x.id DESC;


--
-- Name: status_search; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_search AS
 SELECT ( SELECT search_counts.releases
           FROM voyager.search_counts
          WHERE (search_counts.key = '*'::text)) AS searchable_folded,
    voyager.search_count('{*}'::text[]) AS searchable_releases,
    ( SELECT count(*) AS count
           FROM voyager.search_counts
          WHERE (search_counts.key ~~ 'w:%'::text)) AS tracked_words,
    voyager.setting_int('search_tracked_min'::text) AS tracked_min,
    ( SELECT count(*) AS count
           FROM voyager.search_count_deltas) AS deltas_waiting,
    ( SELECT count(*) AS count
           FROM voyager.search_promotions) AS promotions_waiting,
    ( SELECT min(search_promotions.asked_at) AS min
           FROM voyager.search_promotions) AS oldest_promotion_at,
    ( SELECT jobs.last_finished_at
           FROM voyager.jobs
          WHERE (jobs.name = 'search_counts'::text)) AS last_fold_at;


--
-- Name: status_spool; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_spool AS
 SELECT s.node,
    s.bytes,
    s.files,
    s.cap_bytes,
    round(((100.0 * (s.bytes)::numeric) / (NULLIF(s.cap_bytes, 0))::numeric), 1) AS used_pct,
    s.reported_at,
    date_trunc('second'::text, (now() - s.reported_at)) AS age,
    (s.reported_at < (now() - make_interval(secs => (( SELECT voyager.setting_int('lease_ttl_seconds'::text) AS setting_int))::double precision))) AS stale
   FROM voyager.spool_reports s
  ORDER BY s.node;


--
-- Name: status_tail; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_tail AS
 SELECT g.name AS group_name,
    count(r.id) AS ranges,
    count(r.id) FILTER (WHERE (r.status = 'leased'::voyager.range_status)) AS leased,
    (COALESCE(sum(((r.end_article - r.next_article) + 1)), (0)::numeric))::bigint AS articles_todo,
    min(r.next_article) AS from_article,
    max(r.end_article) AS to_article,
        CASE
            WHEN (GROUPING(g.name) = 0) THEN max(gl.holder)
            ELSE NULL::text
        END AS holder
   FROM ((voyager.ranges r
     JOIN voyager.groups g ON ((g.id = r.group_id)))
     LEFT JOIN voyager.group_leases gl ON (((gl.group_id = r.group_id) AND (gl.lane = 'tail'::voyager.lane))))
  WHERE ((r.status = ANY (ARRAY['planned'::voyager.range_status, 'leased'::voyager.range_status])) AND (r.priority <= ( SELECT voyager.setting_int('tail_priority'::text) AS setting_int)))
  GROUP BY GROUPING SETS ((g.priority, g.name), ())
  ORDER BY GROUPING(g.name), g.priority;


--
-- Name: status_throughput; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_throughput AS
 WITH b AS (
         SELECT count(*) AS batches,
            (COALESCE(sum(rb.headers), (0)::numeric))::bigint AS headers,
            (COALESCE(sum((rb.next_article - rb.first_article)), (0)::numeric))::bigint AS articles
           FROM voyager.range_batches rb
          WHERE (rb.stored_at > (now() - '01:00:00'::interval))
        )
 SELECT '01:00:00'::interval AS period,
    b.batches,
    b.headers AS headers_indexed,
    b.articles AS articles_covered,
    round(((b.headers)::numeric / 3600.0), 1) AS headers_per_second,
    ( SELECT count(*) AS count
           FROM voyager.releases r
          WHERE (r.first_seen_at > (now() - '01:00:00'::interval))) AS releases_stored,
    ( SELECT count(*) AS count
           FROM voyager.ranges r
          WHERE (r.done_at > (now() - '01:00:00'::interval))) AS ranges_done
   FROM b;


--
-- Name: user_days; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.user_days (
    user_id integer NOT NULL,
    day date NOT NULL,
    requests integer DEFAULT 0 NOT NULL,
    downloads integer DEFAULT 0 NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.users (
    id integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    requests_per_day integer,
    downloads_per_day integer,
    suspended boolean DEFAULT false NOT NULL,
    role text DEFAULT 'user'::text NOT NULL,
    name text NOT NULL,
    api_key text,
    api_key_hash bytea NOT NULL,
    CONSTRAINT users_api_key_check CHECK ((api_key IS NULL)),
    CONSTRAINT users_api_key_hash_check CHECK ((octet_length(api_key_hash) = 32)),
    CONSTRAINT users_downloads_per_day_check CHECK ((downloads_per_day >= 0)),
    CONSTRAINT users_name_check CHECK ((name ~ '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$'::text)),
    CONSTRAINT users_requests_per_day_check CHECK ((requests_per_day >= 0))
);


--
-- Name: users_id_seq; Type: SEQUENCE; Schema: voyager; Owner: -
--

ALTER TABLE voyager.users ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME voyager.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: web_sessions; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.web_sessions (
    token_hash bytea NOT NULL,
    user_id integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT web_sessions_token_hash_check CHECK ((octet_length(token_hash) = 32))
);


--
-- Name: release_chunks_default; Type: TABLE ATTACH; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_chunks ATTACH PARTITION voyager.release_chunks_default DEFAULT;


--
-- Name: catalog_changes catalog_changes_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.catalog_changes
    ADD CONSTRAINT catalog_changes_pkey PRIMARY KEY (id);


--
-- Name: categories categories_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.categories
    ADD CONSTRAINT categories_pkey PRIMARY KEY (id);


--
-- Name: file_hashes file_hashes_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.file_hashes
    ADD CONSTRAINT file_hashes_pkey PRIMARY KEY (message_id);


--
-- Name: group_dates group_dates_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_dates
    ADD CONSTRAINT group_dates_pkey PRIMARY KEY (group_id, article);


--
-- Name: group_leases group_leases_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_leases
    ADD CONSTRAINT group_leases_pkey PRIMARY KEY (group_id, lane);


--
-- Name: group_leases group_leases_token_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_leases
    ADD CONSTRAINT group_leases_token_key UNIQUE (token);


--
-- Name: group_sets group_sets_groups_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_sets
    ADD CONSTRAINT group_sets_groups_key UNIQUE (groups);


--
-- Name: group_sets group_sets_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_sets
    ADD CONSTRAINT group_sets_pkey PRIMARY KEY (id);


--
-- Name: groups groups_name_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.groups
    ADD CONSTRAINT groups_name_key UNIQUE (name);


--
-- Name: groups groups_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.groups
    ADD CONSTRAINT groups_pkey PRIMARY KEY (id);


--
-- Name: groups groups_priority_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.groups
    ADD CONSTRAINT groups_priority_key UNIQUE (priority);


--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (name);


--
-- Name: nntp_claims nntp_claims_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.nntp_claims
    ADD CONSTRAINT nntp_claims_pkey PRIMARY KEY (node, role);


--
-- Name: nntp_shares nntp_shares_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.nntp_shares
    ADD CONSTRAINT nntp_shares_pkey PRIMARY KEY (role);


--
-- Name: nodes nodes_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.nodes
    ADD CONSTRAINT nodes_pkey PRIMARY KEY (name);


--
-- Name: par2_files par2_files_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.par2_files
    ADD CONSTRAINT par2_files_pkey PRIMARY KEY (set_id, file_id);


--
-- Name: par2_sets par2_sets_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.par2_sets
    ADD CONSTRAINT par2_sets_pkey PRIMARY KEY (set_id);


--
-- Name: pending_releases pending_releases_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.pending_releases
    ADD CONSTRAINT pending_releases_pkey PRIMARY KEY (release_key);


--
-- Name: pending_signatures pending_signatures_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.pending_signatures
    ADD CONSTRAINT pending_signatures_pkey PRIMARY KEY (tool, group_id, poster);


--
-- Name: posters posters_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.posters
    ADD CONSTRAINT posters_pkey PRIMARY KEY (id);


--
-- Name: posters posters_poster_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.posters
    ADD CONSTRAINT posters_poster_key UNIQUE (poster);


--
-- Name: probe_cache probe_cache_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.probe_cache
    ADD CONSTRAINT probe_cache_pkey PRIMARY KEY (message_id);


--
-- Name: range_batches range_batches_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.range_batches
    ADD CONSTRAINT range_batches_pkey PRIMARY KEY (range_id, first_article);


--
-- Name: ranges ranges_group_start_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.ranges
    ADD CONSTRAINT ranges_group_start_key UNIQUE (group_id, start_article);


--
-- Name: ranges ranges_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.ranges
    ADD CONSTRAINT ranges_pkey PRIMARY KEY (id);


--
-- Name: recoveries recoveries_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.recoveries
    ADD CONSTRAINT recoveries_pkey PRIMARY KEY (id);


--
-- Name: release_chunks release_chunks_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_chunks
    ADD CONSTRAINT release_chunks_pkey PRIMARY KEY (month, release_id);


--
-- Name: release_chunks_default release_chunks_default_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_chunks_default
    ADD CONSTRAINT release_chunks_default_pkey PRIMARY KEY (month, release_id);


--
-- Name: release_grabs release_grabs_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_grabs
    ADD CONSTRAINT release_grabs_pkey PRIMARY KEY (release_id);


--
-- Name: release_judgements release_judgements_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_judgements
    ADD CONSTRAINT release_judgements_pkey PRIMARY KEY (release_id);


--
-- Name: release_media_ids release_media_ids_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_media_ids
    ADD CONSTRAINT release_media_ids_pkey PRIMARY KEY (kind, value, release_id);


--
-- Name: release_merges release_merges_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_merges
    ADD CONSTRAINT release_merges_pkey PRIMARY KEY (merged_id);


--
-- Name: release_nfos release_nfos_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_nfos
    ADD CONSTRAINT release_nfos_pkey PRIMARY KEY (release_id);


--
-- Name: release_own_totals release_own_totals_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_own_totals
    ADD CONSTRAINT release_own_totals_pkey PRIMARY KEY (release_id);


--
-- Name: release_passwords release_passwords_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_passwords
    ADD CONSTRAINT release_passwords_pkey PRIMARY KEY (release_id);


--
-- Name: releases releases_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_pkey PRIMARY KEY (id);


--
-- Name: releases releases_release_key_excl; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_release_key_excl EXCLUDE USING hash (release_key WITH =);


--
-- Name: roles roles_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.roles
    ADD CONSTRAINT roles_pkey PRIMARY KEY (name);


--
-- Name: rule_counts rule_counts_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.rule_counts
    ADD CONSTRAINT rule_counts_pkey PRIMARY KEY (range_id, first_article, rule, key);


--
-- Name: rule_samples rule_samples_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.rule_samples
    ADD CONSTRAINT rule_samples_pkey PRIMARY KEY (range_id, first_article, release_key);


--
-- Name: rule_sets rule_sets_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.rule_sets
    ADD CONSTRAINT rule_sets_pkey PRIMARY KEY (version);


--
-- Name: search_counts search_counts_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.search_counts
    ADD CONSTRAINT search_counts_pkey PRIMARY KEY (key);


--
-- Name: search_promotions search_promotions_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.search_promotions
    ADD CONSTRAINT search_promotions_pkey PRIMARY KEY (key);


--
-- Name: search_totals search_totals_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.search_totals
    ADD CONSTRAINT search_totals_pkey PRIMARY KEY (query_hash);


--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (name);


--
-- Name: sign_in_failures sign_in_failures_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.sign_in_failures
    ADD CONSTRAINT sign_in_failures_pkey PRIMARY KEY (address);


--
-- Name: snapshots snapshots_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.snapshots
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (group_id, lane, article);


--
-- Name: spool_reports spool_reports_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spool_reports
    ADD CONSTRAINT spool_reports_pkey PRIMARY KEY (node);


--
-- Name: spot_matches spot_matches_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spot_matches
    ADD CONSTRAINT spot_matches_pkey PRIMARY KEY (spot_id);


--
-- Name: spot_nzbs spot_nzbs_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spot_nzbs
    ADD CONSTRAINT spot_nzbs_pkey PRIMARY KEY (spot_id);


--
-- Name: spot_reads spot_reads_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spot_reads
    ADD CONSTRAINT spot_reads_pkey PRIMARY KEY (group_name);


--
-- Name: spots spots_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spots
    ADD CONSTRAINT spots_pkey PRIMARY KEY (message_id);


--
-- Name: user_days user_days_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.user_days
    ADD CONSTRAINT user_days_pkey PRIMARY KEY (user_id, day);


--
-- Name: users users_api_key_hash_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.users
    ADD CONSTRAINT users_api_key_hash_key UNIQUE (api_key_hash);


--
-- Name: users users_name_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.users
    ADD CONSTRAINT users_name_key UNIQUE (name);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: web_sessions web_sessions_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.web_sessions
    ADD CONSTRAINT web_sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: file_hashes_hash_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX file_hashes_hash_idx ON voyager.file_hashes USING btree (md5_16k, size);


--
-- Name: file_hashes_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX file_hashes_release_idx ON voyager.file_hashes USING btree (release_id) WHERE (release_id IS NOT NULL);


--
-- Name: group_leases_free_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX group_leases_free_idx ON voyager.group_leases USING btree (lane, released_at NULLS FIRST);


--
-- Name: judge_queue_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX judge_queue_release_idx ON voyager.judge_queue USING btree (release_id);


--
-- Name: merge_settle_queue_survivor_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX merge_settle_queue_survivor_idx ON voyager.merge_settle_queue USING btree (survivor_id);


--
-- Name: par2_files_hash_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX par2_files_hash_idx ON voyager.par2_files USING btree (md5_16k, size);


--
-- Name: par2_sets_found_brin; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX par2_sets_found_brin ON voyager.par2_sets USING brin (found_at);


--
-- Name: par2_sets_listed_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX par2_sets_listed_idx ON voyager.par2_sets USING btree (found_at) WHERE (files_dropped_at IS NULL);


--
-- Name: par2_sets_message_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX par2_sets_message_idx ON voyager.par2_sets USING btree (message_id);


--
-- Name: pending_releases_identity_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX pending_releases_identity_idx ON voyager.pending_releases USING hash (identity_key);


--
-- Name: pending_releases_named_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX pending_releases_named_idx ON voyager.pending_releases USING btree (decided_at) WHERE (status = ANY (ARRAY[4, 5]));


--
-- Name: pending_releases_waiting_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX pending_releases_waiting_idx ON voyager.pending_releases USING btree (created_at) WHERE (status = 0);


--
-- Name: probe_cache_bad_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX probe_cache_bad_idx ON voyager.probe_cache USING btree (kind, status) WHERE (status > 0);


--
-- Name: probe_cache_par2_set_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX probe_cache_par2_set_idx ON voyager.probe_cache USING btree ((((facts -> 'par2'::text) ->> 'set_id'::text))) WHERE (((facts -> 'par2'::text) ->> 'set_id'::text) IS NOT NULL);


--
-- Name: probe_cache_probed_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX probe_cache_probed_idx ON voyager.probe_cache USING brin (probed_at);


--
-- Name: probe_candidates_message_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX probe_candidates_message_idx ON voyager.probe_candidates USING btree (message_id);


--
-- Name: probe_candidates_open_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX probe_candidates_open_idx ON voyager.probe_candidates USING btree (rank, release_id, pending_key) WHERE (probed_at IS NULL);


--
-- Name: probe_candidates_pending_kind_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE UNIQUE INDEX probe_candidates_pending_kind_idx ON voyager.probe_candidates USING btree (pending_key, kind) WHERE (pending_key IS NOT NULL);


--
-- Name: probe_candidates_release_kind_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE UNIQUE INDEX probe_candidates_release_kind_idx ON voyager.probe_candidates USING btree (release_id, kind);


--
-- Name: range_batches_stored_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX range_batches_stored_idx ON voyager.range_batches USING btree (stored_at);


--
-- Name: ranges_failed_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX ranges_failed_idx ON voyager.ranges USING btree (group_id, lane) WHERE (status = 'failed'::voyager.range_status);


--
-- Name: ranges_lane_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX ranges_lane_idx ON voyager.ranges USING btree (group_id, lane, end_article) WHERE (lane IS NOT NULL);


--
-- Name: ranges_planned_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX ranges_planned_idx ON voyager.ranges USING btree (group_id, start_article) INCLUDE (end_article, next_article, priority, capture) WHERE (status = 'planned'::voyager.range_status);


--
-- Name: recategorize_queue_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX recategorize_queue_release_idx ON voyager.recategorize_queue USING btree (release_id);


--
-- Name: recoveries_open_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE UNIQUE INDEX recoveries_open_idx ON voyager.recoveries USING btree (group_id, rule, key) WHERE (done_at IS NULL);


--
-- Name: release_judgements_hidden_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_judgements_hidden_idx ON voyager.release_judgements USING btree (release_id) WHERE hidden;


--
-- Name: release_media_ids_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_media_ids_release_idx ON voyager.release_media_ids USING btree (release_id);


--
-- Name: release_merges_survivor_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_merges_survivor_idx ON voyager.release_merges USING btree (survivor_id);


--
-- Name: release_texts_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_texts_release_idx ON voyager.release_texts USING btree (release_id);


--
-- Name: release_texts_trgm_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_texts_trgm_idx ON voyager.release_texts USING gin (text voyager.gin_trgm_ops) WITH (fastupdate='on', gin_pending_list_limit='256');


--
-- Name: release_texts_words_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_texts_words_idx ON voyager.release_texts USING gin (voyager.search_terms(text, posted_at)) WITH (fastupdate='on', gin_pending_list_limit='256');


--
-- Name: releases_first_seen_brin; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_first_seen_brin ON voyager.releases USING brin (first_seen_at);


--
-- Name: releases_identity_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_identity_idx ON voyager.releases USING hash (identity_key);


--
-- Name: releases_merged_into_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_merged_into_idx ON voyager.releases USING btree (merged_into) WHERE (merged_into IS NOT NULL);


--
-- Name: releases_newest_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_newest_idx ON voyager.releases USING btree (posted_at DESC);


--
-- Name: releases_poster_posted_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_poster_posted_idx ON voyager.releases USING btree (poster_id, posted_at);


--
-- Name: releases_provisional_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_provisional_idx ON voyager.releases USING btree (id) WHERE (settled_at IS NULL);


--
-- Name: releases_small_settled_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_small_settled_idx ON voyager.releases USING btree (settled_at) WHERE ((files <= 3) AND (bytes < 1048576));


--
-- Name: search_count_deltas_key_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX search_count_deltas_key_idx ON voyager.search_count_deltas USING btree (key);


--
-- Name: spot_matches_pending_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX spot_matches_pending_idx ON voyager.spot_matches USING btree (pending_key) WHERE (release_id IS NULL);


--
-- Name: spot_matches_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX spot_matches_release_idx ON voyager.spot_matches USING btree (release_id);


--
-- Name: spot_nzbs_due; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX spot_nzbs_due ON voyager.spot_nzbs USING btree (next_try_at) WHERE (next_try_at IS NOT NULL);


--
-- Name: spots_dispose_target; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX spots_dispose_target ON voyager.spots USING btree (((facts ->> 'target'::text))) WHERE ((facts ->> 'command'::text) = 'dispose'::text);


--
-- Name: spots_posted_at; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX spots_posted_at ON voyager.spots USING btree (posted_at DESC) WHERE (disposed_at IS NULL);


--
-- Name: web_sessions_user_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX web_sessions_user_idx ON voyager.web_sessions USING btree (user_id);


--
-- Name: release_chunks_default_pkey; Type: INDEX ATTACH; Schema: voyager; Owner: -
--

ALTER INDEX voyager.release_chunks_pkey ATTACH PARTITION voyager.release_chunks_default_pkey;


--
-- Name: probe_cache_par2_set_stats; Type: STATISTICS; Schema: voyager; Owner: -
--

CREATE STATISTICS voyager.probe_cache_par2_set_stats ON ((facts -> 'par2'::text) ->> 'set_id'::text) FROM voyager.probe_cache;


--
-- Name: status_groups _RETURN; Type: RULE; Schema: voyager; Owner: -
--

CREATE OR REPLACE VIEW voyager.status_groups AS
 SELECT g.name,
    g.priority,
    g.active,
    g.low,
    g.high,
    COALESCE(max(r.end_article), (0)::bigint) AS planned_to,
    count(r.id) FILTER (WHERE (r.status = 'planned'::voyager.range_status)) AS planned,
    count(r.id) FILTER (WHERE (r.status = 'leased'::voyager.range_status)) AS leased,
    count(r.id) FILTER (WHERE (r.status = 'done'::voyager.range_status)) AS done,
    count(r.id) FILTER (WHERE (r.status = 'failed'::voyager.range_status)) AS failed,
    COALESCE(sum(((r.end_article - r.next_article) + 1)) FILTER (WHERE (r.status = ANY (ARRAY['planned'::voyager.range_status, 'leased'::voyager.range_status]))), (0)::numeric) AS articles_todo,
    COALESCE(sum((r.next_article - r.start_article)) FILTER (WHERE (r.status <> 'ancient'::voyager.range_status)), (0)::numeric) AS articles_done,
    COALESCE(sum(((r.end_article - r.start_article) + 1)) FILTER (WHERE (r.status = 'ancient'::voyager.range_status)), (0)::numeric) AS ancient_articles,
    ( SELECT gl.holder
           FROM voyager.group_leases gl
          WHERE ((gl.group_id = g.id) AND (gl.lane = 'history'::voyager.lane))) AS history_holder,
    ( SELECT gl.holder
           FROM voyager.group_leases gl
          WHERE ((gl.group_id = g.id) AND (gl.lane = 'tail'::voyager.lane))) AS tail_holder
   FROM (voyager.groups g
     LEFT JOIN voyager.ranges r ON ((r.group_id = g.id)))
  GROUP BY g.id
  ORDER BY g.priority;


--
-- Name: file_hashes file_hashes_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER file_hashes_judge_insert AFTER INSERT ON voyager.file_hashes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_file_hashes();


--
-- Name: file_hashes file_hashes_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER file_hashes_judge_update AFTER UPDATE ON voyager.file_hashes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_file_hashes();


--
-- Name: pending_releases pending_probe_candidates_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER pending_probe_candidates_insert AFTER INSERT ON voyager.pending_releases REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION voyager.pending_probe_candidates();


--
-- Name: pending_releases pending_probe_candidates_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER pending_probe_candidates_update AFTER UPDATE ON voyager.pending_releases REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION voyager.pending_probe_candidates();


--
-- Name: probe_cache probe_cache_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER probe_cache_judge_insert AFTER INSERT ON voyager.probe_cache REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_cache();


--
-- Name: probe_cache probe_cache_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER probe_cache_judge_update AFTER UPDATE ON voyager.probe_cache REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_cache();


--
-- Name: probe_candidates probe_candidates_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER probe_candidates_judge_insert AFTER INSERT ON voyager.probe_candidates REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_candidates();


--
-- Name: probe_candidates probe_candidates_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER probe_candidates_judge_update AFTER UPDATE ON voyager.probe_candidates REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_probe_candidates();


--
-- Name: release_judgements release_judgements_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_judgements_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_judgements FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_judgements release_judgements_search_counts_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_judgements_search_counts_delete AFTER DELETE ON voyager.release_judgements REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();


--
-- Name: release_judgements release_judgements_search_counts_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_judgements_search_counts_insert AFTER INSERT ON voyager.release_judgements REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();


--
-- Name: release_judgements release_judgements_search_counts_truncate; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_judgements_search_counts_truncate AFTER TRUNCATE ON voyager.release_judgements FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();


--
-- Name: release_judgements release_judgements_search_counts_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_judgements_search_counts_update AFTER UPDATE ON voyager.release_judgements REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();


--
-- Name: release_media_ids release_media_ids_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_media_ids_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_media_ids FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_merges release_merges_judge_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_merges_judge_delete AFTER DELETE ON voyager.release_merges REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('merged_id', 'survivor_id');


--
-- Name: release_merges release_merges_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_merges_judge_insert AFTER INSERT ON voyager.release_merges REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('merged_id', 'survivor_id');


--
-- Name: release_merges release_merges_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_merges_judge_update AFTER UPDATE ON voyager.release_merges REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('merged_id', 'survivor_id');


--
-- Name: release_passwords release_passwords_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_passwords_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_passwords FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_passwords release_passwords_judge_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_passwords_judge_delete AFTER DELETE ON voyager.release_passwords REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');


--
-- Name: release_passwords release_passwords_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_passwords_judge_insert AFTER INSERT ON voyager.release_passwords REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');


--
-- Name: release_passwords release_passwords_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_passwords_judge_update AFTER UPDATE ON voyager.release_passwords REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');


--
-- Name: release_texts release_texts_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_texts FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_texts release_texts_judge_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_judge_delete AFTER DELETE ON voyager.release_texts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_texts();


--
-- Name: release_texts release_texts_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_judge_insert AFTER INSERT ON voyager.release_texts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_texts();


--
-- Name: release_texts release_texts_posted_at; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_posted_at BEFORE INSERT ON voyager.release_texts FOR EACH ROW WHEN ((new.posted_at IS NULL)) EXECUTE FUNCTION voyager.release_text_posted_at();


--
-- Name: release_texts release_texts_recategorize_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_recategorize_insert AFTER INSERT ON voyager.release_texts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.recategorize_texts();


--
-- Name: release_texts release_texts_recategorize_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_recategorize_update AFTER UPDATE ON voyager.release_texts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.recategorize_texts();


--
-- Name: release_texts release_texts_search_counts_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_search_counts_delete AFTER DELETE ON voyager.release_texts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();


--
-- Name: release_texts release_texts_search_counts_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_search_counts_insert AFTER INSERT ON voyager.release_texts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();


--
-- Name: release_texts release_texts_search_counts_truncate; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_search_counts_truncate AFTER TRUNCATE ON voyager.release_texts FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();


--
-- Name: release_texts release_texts_search_counts_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_search_counts_update AFTER UPDATE ON voyager.release_texts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();


--
-- Name: releases releases_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.releases FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: releases releases_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_judge_insert AFTER INSERT ON voyager.releases REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_releases();


--
-- Name: releases releases_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_judge_update AFTER UPDATE ON voyager.releases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_releases();


--
-- Name: releases releases_search_counts_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_search_counts_delete AFTER DELETE ON voyager.releases REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_releases();


--
-- Name: releases releases_search_counts_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_search_counts_insert AFTER INSERT ON voyager.releases REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_releases();


--
-- Name: releases releases_search_counts_truncate; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_search_counts_truncate AFTER TRUNCATE ON voyager.releases FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();


--
-- Name: releases releases_search_counts_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_search_counts_update AFTER UPDATE ON voyager.releases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_releases();


--
-- Name: spot_matches spot_matches_judge_delete; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER spot_matches_judge_delete AFTER DELETE ON voyager.spot_matches REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');


--
-- Name: spot_matches spot_matches_judge_insert; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER spot_matches_judge_insert AFTER INSERT ON voyager.spot_matches REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');


--
-- Name: spot_matches spot_matches_judge_update; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER spot_matches_judge_update AFTER UPDATE ON voyager.spot_matches REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');


--
-- Name: spots spots_disposed; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER spots_disposed AFTER UPDATE ON voyager.spots REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.spots_disposed();


--
-- Name: categories categories_parent_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.categories
    ADD CONSTRAINT categories_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES voyager.categories(id);


--
-- Name: group_dates group_dates_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_dates
    ADD CONSTRAINT group_dates_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: group_leases group_leases_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_leases
    ADD CONSTRAINT group_leases_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: group_leases group_leases_range_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_leases
    ADD CONSTRAINT group_leases_range_id_fkey FOREIGN KEY (range_id) REFERENCES voyager.ranges(id) ON DELETE SET NULL;


--
-- Name: group_leases group_leases_rule_version_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.group_leases
    ADD CONSTRAINT group_leases_rule_version_fkey FOREIGN KEY (rule_version) REFERENCES voyager.rule_sets(version);


--
-- Name: jobs jobs_every_setting_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.jobs
    ADD CONSTRAINT jobs_every_setting_fkey FOREIGN KEY (every_setting) REFERENCES voyager.settings(name);


--
-- Name: nntp_claims nntp_claims_role_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.nntp_claims
    ADD CONSTRAINT nntp_claims_role_fkey FOREIGN KEY (role) REFERENCES voyager.nntp_shares(role) ON DELETE CASCADE;


--
-- Name: pending_releases pending_releases_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.pending_releases
    ADD CONSTRAINT pending_releases_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: pending_signatures pending_signatures_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.pending_signatures
    ADD CONSTRAINT pending_signatures_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: range_batches range_batches_range_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.range_batches
    ADD CONSTRAINT range_batches_range_id_fkey FOREIGN KEY (range_id) REFERENCES voyager.ranges(id) ON DELETE CASCADE;


--
-- Name: ranges ranges_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.ranges
    ADD CONSTRAINT ranges_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: ranges ranges_rule_version_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.ranges
    ADD CONSTRAINT ranges_rule_version_fkey FOREIGN KEY (rule_version) REFERENCES voyager.rule_sets(version);


--
-- Name: recoveries recoveries_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.recoveries
    ADD CONSTRAINT recoveries_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: recoveries recoveries_rule_version_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.recoveries
    ADD CONSTRAINT recoveries_rule_version_fkey FOREIGN KEY (rule_version) REFERENCES voyager.rule_sets(version);


--
-- Name: rule_counts rule_counts_range_id_first_article_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.rule_counts
    ADD CONSTRAINT rule_counts_range_id_first_article_fkey FOREIGN KEY (range_id, first_article) REFERENCES voyager.range_batches(range_id, first_article) ON DELETE CASCADE;


--
-- Name: rule_samples rule_samples_range_id_first_article_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.rule_samples
    ADD CONSTRAINT rule_samples_range_id_first_article_fkey FOREIGN KEY (range_id, first_article) REFERENCES voyager.range_batches(range_id, first_article) ON DELETE CASCADE;


--
-- Name: snapshots snapshots_group_id_lane_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.snapshots
    ADD CONSTRAINT snapshots_group_id_lane_fkey FOREIGN KEY (group_id, lane) REFERENCES voyager.group_leases(group_id, lane);


--
-- Name: snapshots snapshots_rule_version_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.snapshots
    ADD CONSTRAINT snapshots_rule_version_fkey FOREIGN KEY (rule_version) REFERENCES voyager.rule_sets(version);


--
-- Name: spot_matches spot_matches_spot_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spot_matches
    ADD CONSTRAINT spot_matches_spot_id_fkey FOREIGN KEY (spot_id) REFERENCES voyager.spots(message_id) ON DELETE CASCADE;


--
-- Name: spot_nzbs spot_nzbs_spot_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.spot_nzbs
    ADD CONSTRAINT spot_nzbs_spot_id_fkey FOREIGN KEY (spot_id) REFERENCES voyager.spots(message_id) ON DELETE CASCADE;


--
-- Name: user_days user_days_user_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.user_days
    ADD CONSTRAINT user_days_user_id_fkey FOREIGN KEY (user_id) REFERENCES voyager.users(id) ON DELETE CASCADE;


--
-- Name: users users_role_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.users
    ADD CONSTRAINT users_role_fkey FOREIGN KEY (role) REFERENCES voyager.roles(name) ON UPDATE CASCADE;


--
-- Name: web_sessions web_sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.web_sessions
    ADD CONSTRAINT web_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES voyager.users(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--
