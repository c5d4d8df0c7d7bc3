-- Revert voyager:table_web_sessions from pg
BEGIN;
DROP TABLE voyager.web_sessions;
COMMIT;
