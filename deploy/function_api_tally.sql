-- Deploy voyager:function_api_tally to pg
BEGIN;
-- The API requests, downloads and grabs a web held (it judged them on a
-- replica with api_use's p_held, which writes nothing), written in one call
-- on the primary: each user's day and each release's grabs in one row
-- apiece, whatever the requests were. A user or a release gone since is
-- skipped; the day is the call's (UTC).
CREATE FUNCTION voyager.api_tally(p_users integer[], p_requests integer[], p_downloads integer[],
                                  p_releases bigint[], p_grabs integer[])
RETURNS void LANGUAGE plpgsql AS $$
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
COMMENT ON FUNCTION voyager.api_tally(integer[], integer[], integer[], bigint[], integer[])
    IS 'The API requests, downloads and grabs a web judged on a replica (api_use with p_held), counted in one call';
COMMIT;
