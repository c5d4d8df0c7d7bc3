-- Deploy voyager:type_range_status to pg
BEGIN;
-- planned: waiting to be handed out; leased: handed to a lane's holder;
-- done: every article stored; failed: given up after errors;
-- ancient: below the low watermark when the group was planned, never leased.
CREATE TYPE voyager.range_status AS ENUM ('planned', 'leased', 'done', 'failed', 'ancient');
COMMENT ON TYPE voyager.range_status IS 'Where a range stands; ancient ranges are never leased';
COMMIT;
