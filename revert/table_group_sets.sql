-- Revert voyager:table_group_sets from pg
BEGIN;
DROP TABLE voyager.group_sets;
COMMIT;
