-- Verify voyager:comment_releases_source on pg
SELECT 1 / count(*) FROM pg_description d JOIN pg_attribute a ON a.attrelid = d.objoid AND a.attnum = d.objsubid
 WHERE d.objoid = 'voyager.releases'::regclass AND a.attname = 'source';
