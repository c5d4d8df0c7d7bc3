-- Deploy voyager:type_lane to pg
BEGIN;
-- history: the group''s past in article order; tail: what the tail planner adds.
CREATE TYPE voyager.lane AS ENUM ('history', 'tail');
COMMENT ON TYPE voyager.lane IS 'A group has one lease per lane: history and tail';
COMMIT;
