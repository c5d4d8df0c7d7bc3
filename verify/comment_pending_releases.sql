-- Verify voyager:comment_pending_releases on pg
SELECT 1/(obj_description('voyager.pending_releases'::regclass, 'pg_class') NOT LIKE '%decision%')::int;
