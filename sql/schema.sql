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
    'tail'
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
	members text[],
	candidates text[]
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
-- Name: add_rule_set(jsonb, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.add_rule_set(p_rules jsonb, p_note text DEFAULT ''::text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE v integer;
BEGIN
    IF p_rules IS NULL OR jsonb_typeof(p_rules) <> 'object' THEN
        RAISE EXCEPTION 'a rule set is a JSON object' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.rule_sets (rules, note) VALUES (p_rules, coalesce(p_note, '')) RETURNING version INTO v;
    RETURN v;
END $$;


--
-- Name: add_user(text, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.add_user(p_name text, p_role text DEFAULT 'user'::text) RETURNS text
    LANGUAGE sql
    AS $$
    INSERT INTO voyager.users (name, role, api_key)
    VALUES (p_name, p_role, left(encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'), 32))
    RETURNING api_key
$$;


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
    UPDATE voyager.group_leases SET heartbeat_at = now() WHERE group_id = v.group_id AND lane = v.lane;
    RETURN r;
END $$;


--
-- Name: api_use(text, text, bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.api_use(p_key text, p_kind text DEFAULT 'request'::text, p_release_id bigint DEFAULT NULL::bigint) RETURNS TABLE(code integer, user_id integer, user_name text, role text, admin boolean, requests integer, requests_max integer, downloads integer, downloads_max integer, catalog_state bigint)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    u record;
    v_day date := (now() AT TIME ZONE 'UTC')::date;
    v_requests integer;
    v_downloads integer;
    v_code integer := 0;
BEGIN
    IF p_kind NOT IN ('request', 'download', 'none') THEN
        RAISE EXCEPTION 'api_use: unknown kind %', p_kind USING ERRCODE = '22023';
    END IF;
    SELECT us.id, us.name, us.role, us.suspended, r.admin,
           coalesce(us.requests_per_day, r.requests_per_day) AS rmax,
           coalesce(us.downloads_per_day, r.downloads_per_day) AS dmax
      INTO u
      FROM voyager.users us JOIN voyager.roles r ON r.name = us.role
     WHERE us.api_key = p_key;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 100, NULL::integer, NULL::text, NULL::text, false, 0, 0, 0, 0, 0::bigint;
        RETURN;
    END IF;
    IF u.suspended THEN
        v_code := 101;
    ELSIF p_kind = 'download' AND NOT EXISTS (SELECT 1 FROM voyager.releases WHERE id = p_release_id) THEN
        v_code := 300;
    ELSIF p_kind <> 'none' THEN
        -- a lost counter on a crash is fine; a flush per API request is not
        PERFORM set_config('synchronous_commit', 'off', true);
        IF (p_kind = 'request' AND u.rmax = 0) OR (p_kind = 'download' AND u.dmax = 0) THEN
            v_code := CASE p_kind WHEN 'request' THEN 500 ELSE 501 END;
        ELSE
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
    END IF;
    IF v_requests IS NULL THEN
        SELECT d.requests, d.downloads INTO v_requests, v_downloads
          FROM voyager.user_days d WHERE d.user_id = u.id AND d.day = v_day;
    END IF;
    RETURN QUERY SELECT v_code, u.id, u.name, u.role, u.admin, coalesce(v_requests, 0), u.rmax,
                        coalesce(v_downloads, 0), u.dmax,
                        CASE WHEN p_kind = 'request' THEN voyager.catalog_state() END;
END $$;


--
-- Name: catalog_state(); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.catalog_state() RETURNS bigint
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(sum(weight), 0)::bigint FROM voyager.catalog_changes
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
    v_low numeric;
    v_high numeric;
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
               OR (e ->> f)::numeric <> trunc((e ->> f)::numeric)
               OR (e ->> f)::numeric < 0 OR (e ->> f)::numeric > 9223372036854775807 THEN
                RAISE EXCEPTION 'listing row % (%): % must be a whole number >= 0: %', n, e ->> 'name', f, e
                    USING ERRCODE = '22023';
            END IF;
        END LOOP;
        v_low := (e ->> 'low')::numeric;
        v_high := (e ->> 'high')::numeric;
        -- RFC 3977: an empty group reports high = low - 1 (or 0 0); anything lower is reversed.
        IF v_high < v_low - 1 THEN
            RAISE EXCEPTION 'listing row % (%): reversed watermarks, low % above high %', n, e ->> 'name', v_low, v_high
                USING ERRCODE = '22023';
        END IF;
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
-- Name: date_curve_interpolate(bigint[], double precision[], bigint[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.date_curve_interpolate(articles bigint[], epochs double precision[], points bigint[]) RETURNS double precision[]
    LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE
    AS $$
from voyager_pl.dates import interpolate
return interpolate(articles, epochs, points)
$$;


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
-- Name: heartbeat(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.heartbeat(p_token uuid) RETURNS timestamp with time zone
    LANGUAGE plpgsql
    AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    UPDATE voyager.group_leases SET heartbeat_at = now() WHERE group_id = v.group_id AND lane = v.lane;
    UPDATE voyager.nodes SET seen_at = now() WHERE name = v.holder;
    RETURN now() + make_interval(secs => voyager.setting_int('lease_ttl_seconds'));
END $$;


--
-- Name: lease_group(text, text, integer, integer, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.lease_group(p_lane text, p_node text DEFAULT NULL::text, p_min_priority integer DEFAULT NULL::integer, p_max_priority integer DEFAULT NULL::integer, p_capture_only boolean DEFAULT NULL::boolean) RETURNS TABLE(token uuid, group_id integer, group_name text, lane voyager.lane, holder text, snapshot_article bigint, snapshot_bytes bigint, taken_over boolean)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
    v_lane    voyager.lane;
    v_ttl     interval := make_interval(secs => voyager.setting_int('lease_ttl_seconds'));
    v_tail    integer := voyager.setting_int('tail_priority');
    v_min     integer;
    v_max     integer;
    v_capture boolean;
    v_turn    bigint;
    v_group   integer;
    v_held    boolean;
    v_node    text := coalesce(nullif(p_node, ''), 'unnamed');
BEGIN
    IF p_lane IS NULL OR p_lane NOT IN ('history', 'tail') THEN
        RAISE EXCEPTION 'lane must be history or tail, not %', coalesce(p_lane, 'null') USING ERRCODE = '22023';
    END IF;
    v_lane := p_lane::voyager.lane;
    IF v_lane = 'tail' THEN
        -- The tail lane works the tail planner's ranges, whatever the bounds.
        v_min := -2147483648; v_max := v_tail; v_capture := false;
    ELSE
        v_min := greatest(coalesce(p_min_priority, voyager.setting_int('lease_min_priority')::integer), v_tail + 1);
        v_max := coalesce(p_max_priority, voyager.setting_int('lease_max_priority')::integer);
        v_capture := coalesce(p_capture_only, voyager.setting_bool('lease_capture_only'));
    END IF;
    IF v_min > v_max THEN
        RAISE EXCEPTION 'empty priority bounds % .. %', v_min, v_max USING ERRCODE = '22023';
    END IF;
    v_turn := nextval('voyager.group_lease_turns');

    SELECT gl.group_id, gl.token IS NOT NULL INTO v_group, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
     CROSS JOIN LATERAL (
            SELECT coalesce((SELECT sum(r.end_article - r.next_article + 1)
                               FROM voyager.ranges r
                              WHERE r.group_id = gl.group_id AND r.status = 'planned'
                                AND r.priority BETWEEN v_min AND v_max
                                AND (NOT v_capture OR r.capture)), 0)
                 -- a silent holder's unfinished range is work too
                 + coalesce((SELECT sum(r.end_article - r.next_article + 1)
                               FROM voyager.ranges r
                              WHERE r.group_id = gl.group_id AND r.lane = gl.lane
                                AND r.status = 'leased'), 0) AS articles
           ) todo
     WHERE gl.lane = v_lane AND g.active AND todo.articles > 0
       AND (gl.token IS NULL OR gl.heartbeat_at < now() - v_ttl)
     ORDER BY CASE WHEN v_turn % 2 = 1 THEN todo.articles END DESC NULLS LAST,
              gl.released_at ASC NULLS FIRST,
              g.priority
     LIMIT 1
       FOR UPDATE OF gl SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_held THEN
        PERFORM voyager.replan_since_snapshot(v_group, v_lane);
    END IF;
    UPDATE voyager.group_leases gl
       SET token = gen_random_uuid(), holder = v_node, leased_at = now(), heartbeat_at = now(),
           range_id = NULL, min_priority = v_min, max_priority = v_max, capture_only = v_capture,
           takeovers = gl.takeovers + v_held::integer
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
    INSERT INTO voyager.nodes AS n (name) VALUES (v_node)
        ON CONFLICT (name) DO UPDATE SET seen_at = now();

    RETURN QUERY
    SELECT gl.token, gl.group_id, g.name, gl.lane, gl.holder, gl.snapshot_article, s.bytes, v_held
      FROM voyager.group_leases gl
      JOIN voyager.groups g ON g.id = gl.group_id
      LEFT JOIN voyager.snapshots s ON s.group_id = gl.group_id AND s.lane = gl.lane
     WHERE gl.group_id = v_group AND gl.lane = v_lane;
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
    CONSTRAINT group_leases_holder_check CHECK (((token IS NULL) = (holder IS NULL)))
);


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
    UPDATE voyager.group_leases gl SET heartbeat_at = now()
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
                   error = NULL, rule_version = (SELECT max(rs.version) FROM voyager.rule_sets rs)
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
-- Name: nzb(bigint); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.nzb(p_release_id bigint) RETURNS text
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    r record;
BEGIN
    SELECT rel.name, p.poster, extract(epoch FROM rel.posted_at)::bigint AS posted, gs.groups,
           rel.category, c.chunk
      INTO r
      FROM voyager.releases rel
      JOIN voyager.posters p ON p.id = rel.poster_id
      JOIN voyager.group_sets gs ON gs.id = rel.group_set_id
      JOIN voyager.release_chunks c ON c.release_id = rel.id
     WHERE rel.id = p_release_id;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    RETURN voyager.nzb_from_chunk(r.chunk, r.name, r.poster, r.posted, r.groups, r.category::text, NULL);
END $$;


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
-- Name: plan_groups(jsonb, text); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.plan_groups(listing jsonb, wildmat text DEFAULT NULL::text) RETURNS TABLE(group_name text, priority integer, added boolean, ranges_added integer, ranges_grown integer, articles_planned bigint)
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
    INSERT INTO plan_listing
    SELECT x.name, x.low, x.high, x.priority
      FROM jsonb_to_recordset(listing) AS x(name text, low bigint, high bigint, priority integer)
     WHERE wildmat IS NULL OR voyager.wildmat(wildmat, x.name);

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
        v_last := NULL;
        RETURN NEXT;
    END LOOP;
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
-- Name: set_group_active(text, boolean); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.set_group_active(p_name text, p_active boolean) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE voyager.groups SET active = p_active WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_name USING ERRCODE = '22023';
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
-- Name: snapshot(uuid); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.snapshot(p_token uuid) RETURNS TABLE(article bigint, taken_at timestamp with time zone, data bytea)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    RETURN QUERY SELECT s.article, s.taken_at, s.data FROM voyager.snapshots s
                  WHERE s.group_id = v.group_id AND s.lane = v.lane;
END $$;


--
-- Name: store_batch(uuid, bigint, bigint, bigint, bigint, voyager.release_in[], voyager.pending_in[], voyager.count_in[], voyager.sample_in[], bytea[]); Type: FUNCTION; Schema: voyager; Owner: -
--

CREATE FUNCTION voyager.store_batch(p_token uuid, p_range_id bigint, p_first_article bigint, p_next_article bigint, p_headers bigint, p_releases voyager.release_in[] DEFAULT '{}'::voyager.release_in[], p_pending voyager.pending_in[] DEFAULT '{}'::voyager.pending_in[], p_counts voyager.count_in[] DEFAULT '{}'::voyager.count_in[], p_samples voyager.sample_in[] DEFAULT '{}'::voyager.sample_in[], p_retracted bytea[] DEFAULT '{}'::bytea[]) RETURNS jsonb
    LANGUAGE plpgsql
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
    v_keys bytea[];
    v_fresh boolean[];
BEGIN
    -- a malformed batch is refused whole, with the first reason
    SELECT CASE
             WHEN r.release_key IS NULL OR octet_length(r.release_key) <> 20 THEN 'a release key is not 20 bytes'
             WHEN r.identity_key IS NULL OR octet_length(r.identity_key) <> 20 THEN 'an identity key is not 20 bytes'
             WHEN r.name IS NULL OR r.poster IS NULL THEN 'a release has no name or poster'
             WHEN r.chunk IS NULL THEN 'a release has no chunk'
             WHEN r.files IS NULL OR r.files < 1 OR r.segments IS NULL OR r.segments < 0 THEN 'bad file or segment counts'
           END INTO v_bad
      FROM unnest(p_releases) r
     WHERE r.release_key IS NULL OR octet_length(r.release_key) <> 20 OR r.identity_key IS NULL
        OR octet_length(r.identity_key) <> 20 OR r.name IS NULL OR r.poster IS NULL OR r.chunk IS NULL
        OR r.files IS NULL OR r.files < 1 OR r.segments IS NULL OR r.segments < 0
     LIMIT 1;
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'batch refused: %', v_bad USING ERRCODE = '22023';
    END IF;
    IF (SELECT count(*) <> count(DISTINCT r.release_key) FROM unnest(p_releases) r) THEN
        RAISE EXCEPTION 'batch refused: a release key twice in one batch' USING ERRCODE = '22023';
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
    SELECT DISTINCT ARRAY(SELECT DISTINCT g FROM unnest(r.groups) g ORDER BY g) FROM unnest(p_releases) r
        ON CONFLICT (groups) DO NOTHING;

    -- what was written is kept in arrays (a temp table a call would churn the catalog)
    WITH incoming AS (
        SELECT r.*, p.id AS poster_id, gs.id AS group_set_id
          FROM unnest(p_releases) r
          JOIN voyager.posters p ON p.poster = r.poster
          JOIN voyager.group_sets gs ON gs.groups = ARRAY(SELECT DISTINCT g FROM unnest(r.groups) g ORDER BY g)
    ), written AS (
        INSERT INTO voyager.releases AS x (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                                           settled_at, group_id, group_set_id, poster_id, file_total, files, source,
                                           complete, has_par2, edge, release_key, identity_key, name)
        SELECT to_timestamp(i.posted_at), to_timestamp(i.last_posted_at), i.first_article, i.last_article,
               i.segments, i.bytes, CASE WHEN i.finished THEN now() END, v_range.group_id, i.group_set_id,
               i.poster_id, i.file_total, i.files, i.source, i.complete, i.has_par2, coalesce(i.edge, false),
               i.release_key, i.identity_key, i.name
          FROM incoming i
            ON CONFLICT (release_key) DO UPDATE
           SET last_posted_at = excluded.last_posted_at, last_article = excluded.last_article,
               segments = excluded.segments, bytes = excluded.bytes, settled_at = excluded.settled_at,
               group_set_id = excluded.group_set_id, file_total = excluded.file_total, files = excluded.files,
               complete = excluded.complete, has_par2 = excluded.has_par2, edge = excluded.edge
         WHERE x.settled_at IS NULL              -- a finished release stays as it is
        RETURNING x.id, x.release_key, (x.xmax = 0) AS fresh, x.settled_at IS NOT NULL AS finished
    )
    SELECT coalesce(array_agg(w.id), '{}'), coalesce(array_agg(w.release_key), '{}'),
           coalesce(array_agg(w.fresh), '{}'), count(*), count(*) FILTER (WHERE w.finished)
      INTO v_ids, v_keys, v_fresh, v_releases, v_finished
      FROM written w;

    -- chunks: a provisional one is replaced by the record that finishes or rewrites it
    DELETE FROM voyager.release_chunks c
     USING unnest(v_ids, v_fresh) AS w(id, fresh) WHERE c.release_id = w.id AND NOT w.fresh;
    INSERT INTO voyager.release_chunks (release_id, month, chunk)
    SELECT w.id, coalesce(date_trunc('month', to_timestamp(r.posted_at))::date, date '1970-01-01'), r.chunk
      FROM unnest(v_ids, v_keys) AS w(id, release_key) JOIN unnest(p_releases) r ON r.release_key = w.release_key;

    -- texts: the name (kind 1) and an album's members (kind 6, the first 20)
    INSERT INTO voyager.release_texts (release_id, kind, text)
    SELECT w.id, 1, left(r.name, 255)
      FROM unnest(v_ids, v_keys) AS w(id, release_key) JOIN unnest(p_releases) r ON r.release_key = w.release_key
    UNION
    SELECT w.id, 6, left(m, 255)
      FROM unnest(v_ids, v_keys) AS w(id, release_key) JOIN unnest(p_releases) r ON r.release_key = w.release_key
     CROSS JOIN LATERAL unnest(r.members[1:20]) m
        ON CONFLICT DO NOTHING;

    -- probe candidates: (kind, message-id, file index) triples
    INSERT INTO voyager.probe_candidates (release_id, kind, message_id, file_index)
    SELECT w.id, r.candidates[3 * k + 1], r.candidates[3 * k + 2], r.candidates[3 * k + 3]::integer
      FROM unnest(v_ids, v_keys) AS w(id, release_key) JOIN unnest(p_releases) r ON r.release_key = w.release_key
     CROSS JOIN LATERAL generate_series(0, coalesce(array_length(r.candidates, 1), 0) / 3 - 1) k
        ON CONFLICT (release_id, kind) DO UPDATE SET message_id = excluded.message_id, file_index = excluded.file_index;

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

    -- a provisional release the rules dropped once it settled
    DELETE FROM voyager.releases WHERE release_key = ANY (p_retracted) AND settled_at IS NULL;
    GET DIAGNOSTICS v_retracted = ROW_COUNT;

    RETURN jsonb_build_object('range', v_range.id, 'next_article', v_range.next_article,
                              'status', v_range.status, 'releases', v_releases, 'finished', v_finished,
                              'pending', v_pending, 'retracted', v_retracted);
END $$;


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
    INSERT INTO voyager.snapshots AS s (group_id, lane, article, bytes, taken_at, data)
    VALUES (v.group_id, v.lane, p_article, octet_length(p_data), now(), p_data)
        ON CONFLICT (group_id, lane) DO UPDATE
       SET article = excluded.article, bytes = excluded.bytes, taken_at = excluded.taken_at, data = excluded.data;
    UPDATE voyager.group_leases SET snapshot_article = p_article, snapshot_at = now(), heartbeat_at = now()
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN octet_length(p_data);
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
    groups text[] NOT NULL
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
-- Name: nntp_shares; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.nntp_shares (
    role text NOT NULL,
    min_connections integer DEFAULT 0 NOT NULL,
    max_connections integer NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
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
    CONSTRAINT pending_releases_release_key_check CHECK ((octet_length(release_key) = 20))
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
-- Name: probe_candidates; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.probe_candidates (
    release_id bigint NOT NULL,
    kind text NOT NULL,
    message_id text NOT NULL,
    file_index integer NOT NULL,
    CONSTRAINT probe_candidates_kind_check CHECK ((kind = ANY (ARRAY['archive'::text, 'par2'::text, 'lone'::text, '7z-tail'::text])))
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
    judged_at timestamp with time zone DEFAULT now() NOT NULL
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
-- Name: release_passwords; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_passwords (
    release_id bigint NOT NULL,
    status smallint NOT NULL,
    password text,
    found_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT release_passwords_status_check CHECK ((status = ANY (ARRAY[0, 1, 2])))
);


--
-- Name: release_texts; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.release_texts (
    release_id bigint NOT NULL,
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
-- Name: snapshots; Type: TABLE; Schema: voyager; Owner: -
--

CREATE TABLE voyager.snapshots (
    group_id integer NOT NULL,
    lane voyager.lane NOT NULL,
    article bigint NOT NULL,
    bytes bigint NOT NULL,
    taken_at timestamp with time zone DEFAULT now() NOT NULL,
    data bytea NOT NULL
);
ALTER TABLE ONLY voyager.snapshots ALTER COLUMN data SET STORAGE EXTERNAL;


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
-- Name: status_leases; Type: VIEW; Schema: voyager; Owner: -
--

CREATE VIEW voyager.status_leases AS
 SELECT g.name AS group_name,
    gl.lane,
    gl.holder,
    gl.leased_at,
    date_trunc('second'::text, (now() - gl.heartbeat_at)) AS silent_for,
    (gl.heartbeat_at < (now() - make_interval(secs => (voyager.setting_int('lease_ttl_seconds'::text))::double precision))) AS stale,
    ((r.start_article || '-'::text) || r.end_article) AS range,
    r.next_article,
    gl.snapshot_article,
    date_trunc('second'::text, (now() - gl.snapshot_at)) AS snapshot_age,
    s.bytes AS snapshot_bytes,
    gl.takeovers
   FROM (((voyager.group_leases gl
     JOIN voyager.groups g ON ((g.id = gl.group_id)))
     LEFT JOIN voyager.ranges r ON ((r.id = gl.range_id)))
     LEFT JOIN voyager.snapshots s ON (((s.group_id = gl.group_id) AND (s.lane = gl.lane))))
  WHERE (gl.token IS NOT NULL)
  ORDER BY g.priority, gl.lane;


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
    api_key text NOT NULL,
    CONSTRAINT users_api_key_check CHECK ((api_key ~ '^[0-9a-f]{32}$'::text)),
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
-- Name: pending_releases pending_releases_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.pending_releases
    ADD CONSTRAINT pending_releases_pkey PRIMARY KEY (release_key);


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
-- Name: probe_candidates probe_candidates_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.probe_candidates
    ADD CONSTRAINT probe_candidates_pkey PRIMARY KEY (release_id, kind);


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
-- Name: release_passwords release_passwords_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_passwords
    ADD CONSTRAINT release_passwords_pkey PRIMARY KEY (release_id);


--
-- Name: release_texts release_texts_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_texts
    ADD CONSTRAINT release_texts_pkey PRIMARY KEY (release_id, kind, text);


--
-- Name: releases releases_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_pkey PRIMARY KEY (id);


--
-- Name: releases releases_release_key_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_release_key_key UNIQUE (release_key);


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
-- Name: snapshots snapshots_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.snapshots
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (group_id, lane);


--
-- Name: user_days user_days_pkey; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.user_days
    ADD CONSTRAINT user_days_pkey PRIMARY KEY (user_id, day);


--
-- Name: users users_api_key_key; Type: CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.users
    ADD CONSTRAINT users_api_key_key UNIQUE (api_key);


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
-- Name: group_leases_free_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX group_leases_free_idx ON voyager.group_leases USING btree (lane, released_at NULLS FIRST);


--
-- Name: pending_releases_waiting_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX pending_releases_waiting_idx ON voyager.pending_releases USING btree (created_at) WHERE (status = 0);


--
-- Name: ranges_lane_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX ranges_lane_idx ON voyager.ranges USING btree (group_id, lane, end_article) WHERE (lane IS NOT NULL);


--
-- Name: ranges_planned_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX ranges_planned_idx ON voyager.ranges USING btree (group_id, start_article) INCLUDE (end_article, next_article, priority, capture) WHERE (status = 'planned'::voyager.range_status);


--
-- Name: release_judgements_hidden_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_judgements_hidden_idx ON voyager.release_judgements USING btree (release_id) WHERE hidden;


--
-- Name: release_media_ids_release_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_media_ids_release_idx ON voyager.release_media_ids USING btree (release_id);


--
-- Name: release_texts_trgm_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX release_texts_trgm_idx ON voyager.release_texts USING gin (text voyager.gin_trgm_ops) WITH (fastupdate='on');


--
-- Name: releases_identity_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_identity_idx ON voyager.releases USING btree (identity_key, group_id);


--
-- Name: releases_newest_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_newest_idx ON voyager.releases USING btree (posted_at DESC);


--
-- Name: releases_provisional_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX releases_provisional_idx ON voyager.releases USING btree (id) WHERE (settled_at IS NULL);


--
-- Name: web_sessions_user_idx; Type: INDEX; Schema: voyager; Owner: -
--

CREATE INDEX web_sessions_user_idx ON voyager.web_sessions USING btree (user_id);


--
-- Name: release_chunks_default_pkey; Type: INDEX ATTACH; Schema: voyager; Owner: -
--

ALTER INDEX voyager.release_chunks_pkey ATTACH PARTITION voyager.release_chunks_default_pkey;


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
-- Name: release_judgements release_judgements_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_judgements_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_judgements FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_media_ids release_media_ids_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_media_ids_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_media_ids FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_passwords release_passwords_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_passwords_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_passwords FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: release_texts release_texts_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER release_texts_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.release_texts FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


--
-- Name: releases releases_catalog_change; Type: TRIGGER; Schema: voyager; Owner: -
--

CREATE TRIGGER releases_catalog_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON voyager.releases FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();


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
-- Name: pending_releases pending_releases_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.pending_releases
    ADD CONSTRAINT pending_releases_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: probe_candidates probe_candidates_release_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.probe_candidates
    ADD CONSTRAINT probe_candidates_release_id_fkey FOREIGN KEY (release_id) REFERENCES voyager.releases(id) ON DELETE CASCADE;


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
-- Name: release_grabs release_grabs_release_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_grabs
    ADD CONSTRAINT release_grabs_release_id_fkey FOREIGN KEY (release_id) REFERENCES voyager.releases(id) ON DELETE CASCADE;


--
-- Name: release_judgements release_judgements_release_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_judgements
    ADD CONSTRAINT release_judgements_release_id_fkey FOREIGN KEY (release_id) REFERENCES voyager.releases(id) ON DELETE CASCADE;


--
-- Name: release_media_ids release_media_ids_release_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_media_ids
    ADD CONSTRAINT release_media_ids_release_id_fkey FOREIGN KEY (release_id) REFERENCES voyager.releases(id) ON DELETE CASCADE;


--
-- Name: release_passwords release_passwords_release_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_passwords
    ADD CONSTRAINT release_passwords_release_id_fkey FOREIGN KEY (release_id) REFERENCES voyager.releases(id) ON DELETE CASCADE;


--
-- Name: release_texts release_texts_release_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.release_texts
    ADD CONSTRAINT release_texts_release_id_fkey FOREIGN KEY (release_id) REFERENCES voyager.releases(id) ON DELETE CASCADE;


--
-- Name: releases releases_category_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_category_fkey FOREIGN KEY (category) REFERENCES voyager.categories(id);


--
-- Name: releases releases_group_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_group_id_fkey FOREIGN KEY (group_id) REFERENCES voyager.groups(id);


--
-- Name: releases releases_group_set_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_group_set_id_fkey FOREIGN KEY (group_set_id) REFERENCES voyager.group_sets(id);


--
-- Name: releases releases_poster_id_fkey; Type: FK CONSTRAINT; Schema: voyager; Owner: -
--

ALTER TABLE ONLY voyager.releases
    ADD CONSTRAINT releases_poster_id_fkey FOREIGN KEY (poster_id) REFERENCES voyager.posters(id);


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
