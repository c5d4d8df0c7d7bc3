-- Deploy voyager:function_sign_in to pg
BEGIN;
-- The web's sign-in by name and API key. An address past its failures in the
-- window is refused before the key is looked at, so guessing costs a window
-- per sign_in_failures guesses whatever the key; a success leaves the count
-- as it is (an account of one's own must not reset the guesses at another's).
CREATE FUNCTION voyager.sign_in(p_name text, p_key text, p_address text)
RETURNS TABLE (user_id integer, throttled boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_window interval := make_interval(mins => voyager.setting_int('sign_in_minutes')::integer);
    v_max integer := voyager.setting_int('sign_in_failures');
    v_user integer;
BEGIN
    IF EXISTS (SELECT 1 FROM voyager.sign_in_failures f
                WHERE f.address = p_address AND f.since > now() - v_window AND f.failures >= v_max) THEN
        RETURN QUERY SELECT NULL::integer, true;
        RETURN;
    END IF;
    SELECT us.id INTO v_user FROM voyager.users us
     WHERE us.api_key_hash = voyager.api_key_hash(p_key) AND us.name = p_name AND NOT us.suspended;
    IF v_user IS NULL THEN
        INSERT INTO voyager.sign_in_failures AS f (address) VALUES (p_address)
            ON CONFLICT (address) DO UPDATE
           SET failures = CASE WHEN f.since > now() - v_window THEN f.failures + 1 ELSE 1 END,
               since = CASE WHEN f.since > now() - v_window THEN f.since ELSE now() END;
    END IF;
    DELETE FROM voyager.sign_in_failures f WHERE f.since < now() - v_window;
    RETURN QUERY SELECT v_user, false;
END $$;
COMMENT ON FUNCTION voyager.sign_in(text, text, text)
    IS 'The user a web sign-in names (null when refused), its address''s failures counted; throttled past sign_in_failures';
COMMIT;
