-- Deploy voyager:function_wildmat to pg
BEGIN;
CREATE FUNCTION voyager.wildmat(pattern text, name text) RETURNS boolean
LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE AS $$
from voyager_pl.wildmat import match
return match(pattern, name)
$$;
COMMENT ON FUNCTION voyager.wildmat(text, text) IS 'RFC 3977 wildmat (alt.binaries.*,!*.d): true when the name is accepted';

CREATE FUNCTION voyager.date_curve_interpolate(articles bigint[], epochs double precision[], points bigint[])
RETURNS double precision[]
LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE AS $$
from voyager_pl.dates import interpolate
return interpolate(articles, epochs, points)
$$;
COMMENT ON FUNCTION voyager.date_curve_interpolate(bigint[], double precision[], bigint[])
    IS 'Posting time (epoch) of each point on a monotone curve through the sampled (article, epoch) pairs';
COMMIT;
