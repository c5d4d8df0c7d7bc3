-- Revert voyager:data_job_spots_inspect from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name IN ('spots_inspect', 'spot_matches');
DELETE FROM voyager.settings WHERE name IN ('spots_inspect_seconds', 'spots_inspect_batch', 'spots_nzb_articles',
                                            'spots_nzb_segments', 'spot_matches_seconds');
UPDATE voyager.nntp_shares SET max_connections = 1 WHERE role = 'spots';
COMMIT;
