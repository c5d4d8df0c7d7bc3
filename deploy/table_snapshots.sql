-- Deploy voyager:table_snapshots to pg
BEGIN;
CREATE TABLE voyager.snapshots (
    group_id   integer NOT NULL,
    lane       voyager.lane NOT NULL,
    article    bigint NOT NULL,              -- the resume point the window stands at
    bytes      bigint NOT NULL,
    taken_at   timestamptz NOT NULL DEFAULT now(),
    data       bytea NOT NULL,               -- the serialized window, compressed by the worker
    PRIMARY KEY (group_id, lane),
    FOREIGN KEY (group_id, lane) REFERENCES voyager.group_leases (group_id, lane)
);
-- Already compressed: store out of line without trying to compress again.
ALTER TABLE voyager.snapshots ALTER COLUMN data SET STORAGE EXTERNAL;
COMMENT ON TABLE voyager.snapshots IS 'The carried window of each group and lane (up to hundreds of MB for the busiest group)';
COMMIT;
