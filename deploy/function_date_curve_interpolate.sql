-- Deploy voyager:function_date_curve_interpolate to pg
BEGIN;
CREATE FUNCTION voyager.date_curve_interpolate(articles bigint[], epochs double precision[], points bigint[])
RETURNS double precision[]
LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE AS $$
from voyager_pl.dates import interpolate
return interpolate(articles, epochs, points)
$$;
COMMENT ON FUNCTION voyager.date_curve_interpolate(bigint[], double precision[], bigint[])
    IS 'Posting time (epoch) of each point on a monotone curve through the sampled (article, epoch) pairs';
COMMIT;
