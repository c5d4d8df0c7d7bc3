-- Deploy voyager:table_pending_signatures to pg
BEGIN;
-- How well a signature (posting tool, group, poster) of pending releases
-- names: `probes` its pending releases the ladder looked at after their
-- probes, `named` those it named. One that never names (100 looks or more,
-- 0.5% named or less) is muted: its candidates are not claimed any more;
-- one that names well (`yield`) is probed first.
CREATE TABLE voyager.pending_signatures (
    group_id   integer NOT NULL REFERENCES voyager.groups (id),
    probes     integer NOT NULL DEFAULT 0,
    named      integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    tool       text NOT NULL,
    poster     text NOT NULL,
    muted      boolean GENERATED ALWAYS AS (probes >= 100 AND named * 200 <= probes) STORED,
    yield      real GENERATED ALWAYS AS (named::real / greatest(probes, 1)) STORED,
    PRIMARY KEY (tool, group_id, poster)
);
COMMENT ON TABLE voyager.pending_signatures
    IS 'Per posting tool, group and poster: pending releases looked at and named; muted when it never names';
COMMIT;
