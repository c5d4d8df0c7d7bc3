-- Revert voyager:data_nntp_shares from pg
BEGIN;
DELETE FROM voyager.nntp_shares WHERE role IN ('headers', 'probes', 'spots');
COMMIT;
