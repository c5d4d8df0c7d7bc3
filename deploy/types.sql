-- Deploy voyager:types to pg
BEGIN;
-- planned: waiting to be handed out; leased: handed to a lane's holder;
-- done: every article stored; failed: given up after errors;
-- ancient: below the low watermark when the group was planned, never leased.
CREATE TYPE voyager.range_status AS ENUM ('planned', 'leased', 'done', 'failed', 'ancient');
COMMENT ON TYPE voyager.range_status IS 'Where a range stands; ancient ranges are never leased';
-- history: the group''s past in article order; tail: what the tail planner adds.
CREATE TYPE voyager.lane AS ENUM ('history', 'tail');
COMMENT ON TYPE voyager.lane IS 'A group has one lease per lane: history and tail';
COMMIT;
