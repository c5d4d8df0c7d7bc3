-- Revert voyager:table_sign_in_failures from pg
BEGIN;
DROP TABLE voyager.sign_in_failures;
COMMIT;
