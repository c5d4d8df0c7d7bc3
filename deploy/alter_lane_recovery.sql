-- Deploy voyager:alter_lane_recovery to pg
BEGIN;
-- A third kind of group lease: a recovery replaying done ranges of a group for a
-- retracted rule (lease_recovery), beside the history and tail lanes, which
-- never lease it.
ALTER TYPE voyager.lane ADD VALUE IF NOT EXISTS 'recovery';
COMMIT;
