-- Deploy voyager:function_user_use to pg: a check that counts nothing (p_held)
BEGIN;
-- A user's quotas by the user's id: what api_use does once it has found the
-- key's user, and what the pages do for a signed-in user (who has no key at
-- hand: only its hash is stored). p_kind: 'request' counts an API request,
-- 'download' an NZB (and the release's grab), 'none' only reads. code: 0 fine,
-- 100 no such user, 101 suspended, 300 no such release (download), 500/501 the
-- day's quota is used up.
--
-- With p_held (a web reading from replicas, which refuse writes) nothing is
-- written: the request is judged as if p_held more of its kind had been
-- counted already (what that web served or is serving, to write later with
-- api_tally), and each p_sent[i] more while this server has not reached
-- p_sent_lsn[i] (a write of the web's, not seen here yet: a standby's replay
-- before it, or a write still under way, 'FFFFFFFF/FFFFFFFF'). The counts
-- returned include the request when it is allowed, as a counted one's do.
DROP FUNCTION voyager.user_use(integer, text, bigint);
CREATE FUNCTION voyager.user_use(p_user_id integer, p_kind text DEFAULT 'request', p_release_id bigint DEFAULT NULL,
                                 p_held integer DEFAULT NULL, p_sent integer[] DEFAULT NULL,
                                 p_sent_lsn pg_lsn[] DEFAULT NULL)
RETURNS TABLE (code integer, user_id integer, user_name text, role text, admin boolean,
               requests integer, requests_max integer, downloads integer, downloads_max integer,
               catalog_state bigint)
LANGUAGE plpgsql AS $$
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
COMMENT ON FUNCTION voyager.user_use(integer, text, bigint, integer, integer[], pg_lsn[])
    IS 'A user''s day''s counts and quotas by id; counts a request or a download (and the grab) unless refused, or with p_held judges it without counting';
ALTER FUNCTION voyager.user_use(integer, text, bigint, integer, integer[], pg_lsn[]) ROWS 1;
COMMIT;
