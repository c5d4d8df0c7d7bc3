-- Deploy voyager:function_set_group_active to pg
BEGIN;
-- A removed group gets no new leases and no new ranges; its catalog stays. It
-- owns no crossposts from then on (lease_rules's owner list holds active groups
-- only), and the crossposts other groups skipped for it are recovered: their
-- ranges whose counts show them are replayed (plan_recovery 'crosspost').
CREATE OR REPLACE FUNCTION voyager.set_group_active(p_name text, p_active boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE v_was boolean;
BEGIN
    SELECT active INTO v_was FROM voyager.groups WHERE name = p_name FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_name USING ERRCODE = '22023';
    END IF;
    UPDATE voyager.groups SET active = p_active WHERE name = p_name;
    IF v_was AND NOT p_active THEN
        PERFORM voyager.plan_recovery('crosspost', p_name);
    END IF;
    RETURN p_active;
END $$;
COMMENT ON FUNCTION voyager.set_group_active(text, boolean)
    IS 'Removes (false) or re-adds (true) a group; a removal recovers the crossposts other groups skipped for it';
COMMIT;
