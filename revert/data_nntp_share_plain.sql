-- Revert voyager:data_nntp_share_plain from pg
BEGIN;
DELETE FROM voyager.nntp_shares WHERE role = 'plain';
COMMIT;
