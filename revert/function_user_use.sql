-- Revert voyager:function_user_use from pg: back to the check that always counts
BEGIN;
DROP FUNCTION voyager.user_use(integer, text, bigint, integer, integer[], pg_lsn[]);
-- A user's quotas by the user's id: what api_use does once it has found the
-- key's user, and what the pages do for a signed-in user (who has no key at
-- hand: only its hash is stored). p_kind: 'request' counts an API request,
-- 'download' an NZB (and the release's grab), 'none' only reads. code: 0 fine,
-- 100 no such user, 101 suspended, 300 no such release (download), 500/501 the
-- day's quota is used up.
CREATE FUNCTION voyager.user_use(p_user_id integer, p_kind text DEFAULT 'request', p_release_id bigint DEFAULT NULL)
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
COMMENT ON FUNCTION voyager.user_use(integer, text, bigint)
    IS 'A user''s day''s counts and quotas by id; counts a request or a download (and the grab) unless refused';
ALTER FUNCTION voyager.user_use(integer, text, bigint) ROWS 1;
COMMIT;
