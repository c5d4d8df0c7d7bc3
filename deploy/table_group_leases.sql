-- Deploy voyager:table_group_leases to pg
BEGIN;
CREATE TABLE voyager.group_leases (
    group_id         integer NOT NULL REFERENCES voyager.groups (id),
    lane             voyager.lane NOT NULL,
    token            uuid UNIQUE,            -- the holder's proof; null when free
    holder           text,                   -- node name of the holder
    leased_at        timestamptz,
    heartbeat_at     timestamptz,
    released_at      timestamptz,            -- last time it went free (null: never held)
    range_id         bigint REFERENCES voyager.ranges (id) ON DELETE SET NULL,  -- the cursor
    snapshot_article bigint,                 -- the article the stored snapshot stands at (a resume point)
    snapshot_at      timestamptz,
    -- The bounds the history lane was leased with, so next_range hands out the same kind.
    min_priority     integer,
    max_priority     integer,
    capture_only     boolean NOT NULL DEFAULT false,
    takeovers        integer NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, lane),
    CONSTRAINT group_leases_holder_check CHECK ((token IS NULL) = (holder IS NULL))
);
COMMENT ON TABLE voyager.group_leases IS 'One row per group and lane: who holds it, its cursor and the snapshot it stands at';
CREATE INDEX group_leases_free_idx ON voyager.group_leases (lane, released_at NULLS FIRST);
COMMIT;
