-- Deploy voyager:data_job_spots_read to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('spots_read_seconds', '120', 'voyager tick: free.pt''s new spots read this often (spots_read job)');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('spots_read', 'python', NULL, 'spots_read_seconds', '10 minutes',
   'The spotter: free.pt''s new spots read, verified and stored (store_spots), on the spots role''s connection');
COMMIT;
