-- Deploy voyager:function_console_category to pg
BEGIN;
-- The platform of a console release, from s (see category_of).
CREATE FUNCTION voyager.console_category(s text) RETURNS integer
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    m bigint := voyager.word_mask(voyager.category_map('console'), s, ' ');
BEGIN
    RETURN CASE
        WHEN m & voyager.category_bits('x360', 'console') <> 0
             AND m & voyager.category_bits('dlc_xbla', 'console') <> 0 THEN 1070
        WHEN m & voyager.category_bits('xboxone', 'console') <> 0 OR strpos(s, ' xbox one ') > 0 THEN 1140
        WHEN m & voyager.category_bits('x360', 'console') <> 0 THEN 1050
        WHEN m & voyager.category_bits('xbox', 'console') <> 0 THEN 1040
        WHEN m & voyager.category_bits('wiiware', 'console') <> 0
             OR (m & voyager.category_bits('wii', 'console') <> 0
                 AND m & voyager.category_bits('vc_dlc', 'console') <> 0) THEN 1060
        WHEN m & voyager.category_bits('wiiu', 'console') <> 0 OR strpos(s, ' wii u ') > 0 THEN 1130
        WHEN m & voyager.category_bits('wii', 'console') <> 0 THEN 1030
        WHEN m & voyager.category_bits('ps4', 'console') <> 0 THEN 1180
        WHEN m & voyager.category_bits('ps3', 'console') <> 0 THEN 1080
        WHEN m & voyager.category_bits('psv', 'console') <> 0 THEN 1120
        WHEN m & voyager.category_bits('psp', 'console') <> 0 THEN 1020
        WHEN m & voyager.category_bits('3ds', 'console') <> 0 THEN 1110
        WHEN m & voyager.category_bits('nds', 'console') <> 0 THEN 1010
        ELSE 1090 END;
END $$;
COMMENT ON FUNCTION voyager.console_category(text) IS
    'category_of''s console subcategory, from the words of a name that has a platform tag';
COMMIT;
