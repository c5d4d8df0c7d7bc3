-- Revert voyager:table_groups from pg
BEGIN;
DROP TABLE voyager.groups;
COMMIT;
