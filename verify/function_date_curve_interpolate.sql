-- Verify voyager:function_date_curve_interpolate on pg
SELECT 'voyager.date_curve_interpolate(bigint[], double precision[], bigint[])'::regprocedure;
