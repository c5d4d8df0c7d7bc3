-- Deploy voyager:function_setting_int to pg
BEGIN;
CREATE FUNCTION voyager.setting_int(p_name text) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE v text;
BEGIN
    SELECT value INTO v FROM voyager.settings WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown setting %', p_name USING ERRCODE = '22023';
    END IF;
    RETURN v::bigint;
END $$;
COMMENT ON FUNCTION voyager.setting_int(text) IS 'A numeric tunable from voyager.settings';
COMMIT;
