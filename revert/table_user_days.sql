-- Revert voyager:table_user_days from pg
BEGIN;
DROP TABLE voyager.user_days;
COMMIT;
