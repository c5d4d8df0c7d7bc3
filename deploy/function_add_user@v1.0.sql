-- Deploy voyager:function_add_user to pg
BEGIN;
-- Users and their quotas in one call per API request: the key is checked, the
-- day's counter moves (or the quota refuses), and the catalog's change counter
-- comes along so the web knows whether its cached totals still hold.
CREATE FUNCTION voyager.add_user(p_name text, p_role text DEFAULT 'user') RETURNS text
LANGUAGE sql AS $$
    INSERT INTO voyager.users (name, role, api_key)
    VALUES (p_name, p_role, left(encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'), 32))
    RETURNING api_key
$$;
COMMENT ON FUNCTION voyager.add_user(text, text) IS 'A new user with a fresh random API key (returned)';
COMMIT;
