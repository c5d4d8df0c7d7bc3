-- Deploy voyager:alter_nntp_shares_reserve to pg
BEGIN;
-- Whether a role may take the reserve (nntp_reserve): the bulk roles, headers and
-- probes, may not; it is kept for the spotter, the spot inspector, the plain
-- connection and reconnects, so the account never goes over its limit.
ALTER TABLE voyager.nntp_shares ADD COLUMN reserve boolean NOT NULL DEFAULT true;
COMMENT ON COLUMN voyager.nntp_shares.reserve
    IS 'The role may take the reserve (nntp_reserve); headers and probes may not';
UPDATE voyager.nntp_shares SET reserve = false WHERE role IN ('headers', 'probes');
COMMIT;
