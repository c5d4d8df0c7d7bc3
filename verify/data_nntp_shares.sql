-- Verify voyager:data_nntp_shares on pg
SELECT 1/(count(*) = 3)::int FROM voyager.nntp_shares WHERE role IN ('headers', 'probes', 'spots');
