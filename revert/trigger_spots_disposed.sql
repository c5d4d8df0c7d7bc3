-- Revert voyager:trigger_spots_disposed from pg: the statements over transition tables as cached plans again
BEGIN;
-- store_spots marks a disposed spot (disposed_at): its links go with it.
CREATE OR REPLACE FUNCTION voyager.spots_disposed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.take_back_spots(ARRAY(
        SELECT n.message_id FROM new_rows n JOIN old_rows o ON o.message_id = n.message_id
         WHERE n.disposed_at IS NOT NULL AND o.disposed_at IS NULL));
    RETURN NULL;
END $$;
COMMIT;
