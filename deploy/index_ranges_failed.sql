-- Deploy voyager:index_ranges_failed to pg
BEGIN;
-- Failed ranges are few and each stops a lane: status_failed and the lease's
-- check find them without reading the planned and done ones.
CREATE INDEX ranges_failed_idx ON voyager.ranges (group_id, lane) WHERE status = 'failed';
COMMIT;
