-- Revert voyager:function_api_use from pg: back to the check that always counts
BEGIN;
DROP FUNCTION voyager.api_use(text, text, bigint, integer, integer[], pg_lsn[]);
-- An API key's user by one lookup of the key's hash in its unique index, then
-- user_use: a bad key (code 100) costs that lookup and nothing more.
-- PL/pgSQL: every API request calls it, and a SQL function (volatile, so not
-- inlined) had its body parsed and planned again at every call.
CREATE FUNCTION voyager.api_use(p_key text, p_kind text DEFAULT 'request', p_release_id bigint DEFAULT NULL)
RETURNS TABLE (code integer, user_id integer, user_name text, role text, admin boolean,
               requests integer, requests_max integer, downloads integer, downloads_max integer,
               catalog_state bigint)
LANGUAGE plpgsql ROWS 1 AS $$
BEGIN
    RETURN QUERY SELECT * FROM voyager.user_use(
        (SELECT us.id FROM voyager.users us WHERE us.api_key_hash = voyager.api_key_hash(p_key)), p_kind, p_release_id);
END $$;
COMMENT ON FUNCTION voyager.api_use(text, text, bigint)
    IS 'An API key''s user (looked up by its hash), its day''s counts and quotas; counts a request or a download (and the grab) unless refused';
COMMIT;
