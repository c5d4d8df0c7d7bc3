-- Deploy voyager:table_user_days to pg
BEGIN;
CREATE TABLE voyager.user_days (
    user_id   integer NOT NULL REFERENCES voyager.users (id) ON DELETE CASCADE,
    day       date NOT NULL,                  -- UTC
    requests  integer NOT NULL DEFAULT 0,
    downloads integer NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, day)
);
COMMENT ON TABLE voyager.user_days IS 'API requests and NZB downloads per user and UTC day: the quotas count here';
COMMIT;
