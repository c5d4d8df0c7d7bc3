-- Revert voyager:table_roles from pg
BEGIN;
DROP TABLE voyager.roles;
COMMIT;
