-- Deploy voyager:function_fold_common_words to pg
BEGIN;
-- Words of 4 or more letters that say nothing of which upload a sidecar is
-- beside: packaging, sidecars' own words, and tags one poster's uploads share.
CREATE FUNCTION voyager.fold_common_words() RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT '{part,sample,proof,cover,covers,front,back,thumb,thumbs,folder,screen,screens,info,file,files,
         yenc,jpeg,complete,proper,repack,internal,remux,bluray,webrip,hdtv,multi,dubbed,subbed,german,french,
         dutch,nordic,season,episode}'::text[]
$$;
COMMENT ON FUNCTION voyager.fold_common_words() IS
    'Words of 4+ letters the sidecar fold does not match a sidecar to its upload by';
COMMIT;
