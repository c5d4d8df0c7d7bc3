-- Revert voyager:function_add_user from pg: back to @v1.0's body, the plain key stored
BEGIN;
-- (its column comes back with the alter's revert, after this one)
SET LOCAL check_function_bodies = off;
CREATE OR REPLACE FUNCTION voyager.add_user(p_name text, p_role text DEFAULT 'user') RETURNS text
LANGUAGE sql AS $$
    INSERT INTO voyager.users (name, role, api_key)
    VALUES (p_name, p_role, left(encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'), 32))
    RETURNING api_key
$$;
COMMENT ON FUNCTION voyager.add_user(text, text) IS 'A new user with a fresh random API key (returned)';
COMMIT;
