-- Verify voyager:data_job_spots_inspect on pg
SELECT 1 / (count(*) - 1) FROM voyager.jobs WHERE name IN ('spots_inspect', 'spot_matches');
