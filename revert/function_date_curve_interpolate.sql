-- Revert voyager:function_date_curve_interpolate from pg
BEGIN;
DROP FUNCTION voyager.date_curve_interpolate(bigint[], double precision[], bigint[]);
COMMIT;
