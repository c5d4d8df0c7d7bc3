-- Deploy voyager:table_jobs to pg
BEGIN;
-- The periodic SQL's schedule, kept in the database so that any number of
-- `voyager tick` processes (on any machine) share it: a job is claimed by
-- moving its next_run_at a period ahead (FOR UPDATE SKIP LOCKED), and a claim
-- is a token with a lease (running_until), not a held lock. Periods are
-- settings (seconds), like every other tunable.
CREATE TABLE voyager.jobs (
    name             text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]*$'),
    -- sql: `function` is called without arguments by voyager.run_sql_job;
    -- python: a handler of that name registered in voyager.tick (it needs more than SQL)
    kind             text NOT NULL CHECK (kind IN ('sql', 'python')),
    function         text CHECK (function ~ '^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$'),
    every_setting    text NOT NULL REFERENCES voyager.settings (name),   -- its period, in seconds
    timeout          interval NOT NULL DEFAULT '10 minutes' CHECK (timeout > '0'),  -- a run's lease
    enabled          boolean NOT NULL DEFAULT true,
    next_run_at      timestamptz NOT NULL DEFAULT now(),
    last_run_at      timestamptz,            -- the last claim
    last_finished_at timestamptz,
    last_seconds     numeric,
    last_node        text,                   -- the tick that claimed it last
    last_result      jsonb,
    last_error       text,                   -- null when the last run succeeded
    runs             bigint NOT NULL DEFAULT 0,
    failures         bigint NOT NULL DEFAULT 0,
    claim            uuid,                   -- the running tick's token; null when not running
    running_until    timestamptz,            -- the claim's lease: past it, a dead tick's job is free
    description      text NOT NULL,
    CONSTRAINT jobs_sql_function_check CHECK ((kind = 'sql') = (function IS NOT NULL)),
    CONSTRAINT jobs_claim_check CHECK ((claim IS NULL) = (running_until IS NULL))
);
COMMENT ON TABLE voyager.jobs
    IS 'Periodic jobs voyager tick runs: period by setting, due time, last result or error; claimed with SKIP LOCKED';
COMMIT;
