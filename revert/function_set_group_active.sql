-- Revert voyager:function_set_group_active from pg: a removal plans nothing
BEGIN;
-- A removed group gets no new leases and no new ranges; its catalog stays.
CREATE OR REPLACE FUNCTION voyager.set_group_active(p_name text, p_active boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE voyager.groups SET active = p_active WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_name USING ERRCODE = '22023';
    END IF;
    RETURN p_active;
END $$;
COMMENT ON FUNCTION voyager.set_group_active(text, boolean) IS 'Removes (false) or re-adds (true) a group';
COMMIT;
