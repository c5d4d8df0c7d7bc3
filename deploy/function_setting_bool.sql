-- Deploy voyager:function_setting_bool to pg
BEGIN;
CREATE FUNCTION voyager.setting_bool(p_name text) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
DECLARE v text;
BEGIN
    SELECT value INTO v FROM voyager.settings WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown setting %', p_name USING ERRCODE = '22023';
    END IF;
    RETURN v::boolean;
END $$;
COMMENT ON FUNCTION voyager.setting_bool(text) IS 'A boolean tunable from voyager.settings';
COMMIT;
