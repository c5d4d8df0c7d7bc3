-- Revert voyager:table_release_nfos from pg
BEGIN;
DROP TABLE voyager.release_nfos;
COMMIT;
