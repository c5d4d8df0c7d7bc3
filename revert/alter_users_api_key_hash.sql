-- Revert voyager:alter_users_api_key_hash from pg
-- a hash gives no key back: every user gets a new plain key (voyager users set
-- NAME --new-key hands out one that is known)
BEGIN;
ALTER TABLE voyager.users DROP CONSTRAINT users_api_key_check;
UPDATE voyager.users SET api_key = left(encode(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea), 'hex'), 32);
ALTER TABLE voyager.users
    ALTER COLUMN api_key SET NOT NULL,
    ADD CONSTRAINT users_api_key_check CHECK (api_key ~ '^[0-9a-f]{32}$'),
    ADD CONSTRAINT users_api_key_key UNIQUE (api_key),
    DROP COLUMN api_key_hash;
COMMENT ON COLUMN voyager.users.api_key IS NULL;
COMMENT ON TABLE voyager.users IS 'API users: one key each (voyager users add NAME prints it), a role, optional own quotas';
COMMIT;
