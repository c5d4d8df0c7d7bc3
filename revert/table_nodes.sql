-- Revert voyager:table_nodes from pg
BEGIN;
DROP TABLE voyager.nodes;
COMMIT;
