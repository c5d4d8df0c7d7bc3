-- Deploy voyager:function_file_stem to pg
BEGIN;
-- A file name without its folder and its packaging: a par2 volume or index,
-- a rar part, a split number (with the extension before it), one extension.
-- "x/Ab12.part01.rar", "Ab12.vol03+04.par2", "Ab12.7z.001" and "Ab12.mkv" are all "Ab12".
CREATE FUNCTION voyager.file_stem(p_name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT regexp_replace(regexp_replace(p_name, '^.*[/\\]', ''),
                      '(\.vol[0-9]+[+-][0-9]+\.par2|\.par2|\.part[0-9]+\.rar|(\.[a-z0-9]{1,4})?\.[0-9]{2,3}|\.[a-z0-9]{1,4})$',
                      '', 'i')
$$;
COMMENT ON FUNCTION voyager.file_stem(text) IS
    'A file name without its folder, volume, part, split number and extension';
COMMIT;
