-- Revert voyager:data_roles from pg
BEGIN;
DELETE FROM voyager.roles WHERE name IN ('admin', 'power', 'user');
COMMIT;
