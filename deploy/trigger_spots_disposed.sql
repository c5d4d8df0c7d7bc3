-- Deploy voyager:trigger_spots_disposed to pg: the transition tables joined by EXECUTE
BEGIN;
-- store_spots marks a disposed spot (disposed_at): its links go with it.
-- (the two transition tables joined by EXECUTE, planned for this statement's
-- rows: cached, the plan of the session's first statement, a nested loop after
-- an empty one, made a big update quadratic)
CREATE OR REPLACE FUNCTION voyager.spots_disposed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT voyager.take_back_spots(ARRAY(
                 SELECT n.message_id FROM new_rows n JOIN old_rows o ON o.message_id = n.message_id
                  WHERE n.disposed_at IS NOT NULL AND o.disposed_at IS NULL))';
    RETURN NULL;
END $$;
COMMIT;
