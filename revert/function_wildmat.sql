-- Revert voyager:function_wildmat from pg
BEGIN;
DROP FUNCTION voyager.date_curve_interpolate(bigint[], double precision[], bigint[]);
DROP FUNCTION voyager.wildmat(text, text);
COMMIT;
