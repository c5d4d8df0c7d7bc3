-- Revert voyager:table_users from pg
BEGIN;
DROP TABLE voyager.web_sessions;
DROP TABLE voyager.user_days;
DROP TABLE voyager.users;
DROP TABLE voyager.roles;
COMMIT;
