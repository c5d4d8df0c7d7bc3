-- Verify voyager:data_roles on pg
SELECT 1/(count(*) = 3)::int FROM voyager.roles WHERE name IN ('admin', 'power', 'user');
