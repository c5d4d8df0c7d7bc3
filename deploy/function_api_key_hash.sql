-- Deploy voyager:function_api_key_hash to pg
BEGIN;
-- API keys are kept as this hash only: a copy of the users table, a backup or
-- a log of the rows gives no key that works. Keys are random 128-bit values,
-- so a plain SHA-256 suffices (no salt or stretching: there is nothing to guess).
CREATE FUNCTION voyager.api_key_hash(p_key text) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT sha256(convert_to(lower(p_key), 'UTF8'))
$$;
COMMENT ON FUNCTION voyager.api_key_hash(text) IS 'The stored form of an API key: SHA-256 of the lower-cased key';
COMMIT;
