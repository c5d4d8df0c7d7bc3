-- Verify voyager:function_mark_capture on pg
SELECT 'voyager.mark_capture(timestamp with time zone, timestamp with time zone, integer, text)'::regprocedure;
