-- Revert voyager:table_users from pg
BEGIN;
DROP TABLE voyager.users;
COMMIT;
