-- Deploy voyager:function_settle_spots to pg
BEGIN;
-- The spots' periodic pass (the tick's spot_matches job, and the inspector
-- after its reads): the unmatched due again matched, the moved pending
-- releases' links applied, the ones unmatched for 24 hours standing alone.
CREATE FUNCTION voyager.settle_spots(p_now timestamptz DEFAULT now())
RETURNS jsonb
LANGUAGE sql AS $$
    SELECT voyager.match_spots(NULL, p_now) || jsonb_build_object('alone', voyager.spots_alone(p_now))
$$;
COMMENT ON FUNCTION voyager.settle_spots(timestamptz) IS
    'The spots'' periodic pass: due spots matched, links applied, the long-unmatched standing alone';
COMMIT;
