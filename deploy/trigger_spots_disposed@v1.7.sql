-- Deploy voyager:trigger_spots_disposed to pg
BEGIN;
-- store_spots marks a disposed spot (disposed_at): its links go with it.
CREATE FUNCTION voyager.spots_disposed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.take_back_spots(ARRAY(
        SELECT n.message_id FROM new_rows n JOIN old_rows o ON o.message_id = n.message_id
         WHERE n.disposed_at IS NOT NULL AND o.disposed_at IS NULL));
    RETURN NULL;
END $$;
CREATE TRIGGER spots_disposed AFTER UPDATE ON voyager.spots
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.spots_disposed();
COMMIT;
