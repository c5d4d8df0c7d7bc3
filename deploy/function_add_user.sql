-- Deploy voyager:function_add_user to pg
BEGIN;
-- The new key is returned once and stored as its hash only.
CREATE OR REPLACE FUNCTION voyager.add_user(p_name text, p_role text DEFAULT 'user') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_key text := voyager.new_api_key();
BEGIN
    INSERT INTO voyager.users (name, role, api_key_hash) VALUES (p_name, p_role, voyager.api_key_hash(v_key));
    RETURN v_key;
END $$;
COMMENT ON FUNCTION voyager.add_user(text, text) IS 'A new user with a fresh random API key, returned once (only its hash is kept)';
COMMIT;
