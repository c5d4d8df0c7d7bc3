-- Deploy voyager:table_web_sessions to pg
BEGIN;
CREATE TABLE voyager.web_sessions (
    token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),   -- sha256 of the cookie
    user_id    integer NOT NULL REFERENCES voyager.users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX web_sessions_user_idx ON voyager.web_sessions (user_id);
COMMENT ON TABLE voyager.web_sessions IS 'Signed-in browsers: the hash of the session cookie, never the cookie';
COMMIT;
