-- Verify voyager:trigger_spots_disposed on pg
SELECT 1 / count(*) FROM pg_trigger WHERE tgname = 'spots_disposed';
