-- Deploy voyager:alter_users_api_key_hash to pg
BEGIN;
-- Keys hashed in place: every client keeps working with the key it has, and
-- the plain keys are gone from the table. The unique index is the key check's
-- one lookup. The plain column stays, empty and held empty by its check (the
-- baseline's verify of table_users names it).
ALTER TABLE voyager.users ADD COLUMN api_key_hash bytea;
UPDATE voyager.users SET api_key_hash = voyager.api_key_hash(api_key);
ALTER TABLE voyager.users
    ALTER COLUMN api_key_hash SET NOT NULL,
    ADD CONSTRAINT users_api_key_hash_check CHECK (octet_length(api_key_hash) = 32),
    ADD CONSTRAINT users_api_key_hash_key UNIQUE (api_key_hash),
    DROP CONSTRAINT users_api_key_key,
    DROP CONSTRAINT users_api_key_check,
    ALTER COLUMN api_key DROP NOT NULL;
UPDATE voyager.users SET api_key = NULL;
ALTER TABLE voyager.users ADD CONSTRAINT users_api_key_check CHECK (api_key IS NULL);
COMMENT ON COLUMN voyager.users.api_key IS 'Always null: keys are kept as api_key_hash only';
COMMENT ON COLUMN voyager.users.api_key_hash IS 'voyager.api_key_hash of the user''s key; the key itself is shown once, when made';
COMMENT ON TABLE voyager.users IS 'API users: one key each, kept as its hash (voyager users add NAME prints the key once), a role, optional own quotas';
COMMIT;
