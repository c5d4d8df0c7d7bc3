-- Verify voyager:data_nntp_share_plain on pg
SELECT 1/(count(*) = 1)::int FROM voyager.nntp_shares WHERE role = 'plain' AND reserve;
