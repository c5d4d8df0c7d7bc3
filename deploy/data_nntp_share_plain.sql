-- Deploy voyager:data_nntp_share_plain to pg
BEGIN;
-- The plain connection: the tail planner's LIST ACTIVE and other short control
-- commands, claimed like everything else, out of the reserve.
INSERT INTO voyager.nntp_shares (role, min_connections, max_connections, priority, reserve)
VALUES ('plain', 0, 2, 3, true)
ON CONFLICT (role) DO NOTHING;
COMMIT;
