-- Deploy voyager:function_new_api_key to pg
BEGIN;
-- The one place a key is made: 32 hex digits from two random UUIDs (pg_strong_random).
CREATE FUNCTION voyager.new_api_key() RETURNS text
LANGUAGE sql VOLATILE AS $$
    SELECT left(encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'), 32)
$$;
COMMENT ON FUNCTION voyager.new_api_key() IS 'A fresh random API key (32 hex digits); only its api_key_hash is stored';
COMMIT;
