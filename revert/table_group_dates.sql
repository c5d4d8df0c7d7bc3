-- Revert voyager:table_group_dates from pg
BEGIN;
DROP TABLE voyager.group_dates;
COMMIT;
