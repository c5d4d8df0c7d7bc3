-- Verify voyager:trigger_spots_disposed on pg
SELECT 1 / count(*) FROM pg_trigger WHERE tgname = 'spots_disposed';
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.spots_disposed()'::regprocedure AND prosrc LIKE '%EXECUTE%';   -- planned for each statement's rows
