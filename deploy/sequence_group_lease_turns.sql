-- Deploy voyager:sequence_group_lease_turns to pg
BEGIN;
-- The lease order alternates on this sequence: odd turns take the group with the
-- most planned articles, even turns the longest unheld one (never held first).
CREATE SEQUENCE voyager.group_lease_turns;
COMMENT ON SEQUENCE voyager.group_lease_turns IS 'Alternates the lease order between the biggest backlog and the longest unheld group';
COMMIT;
