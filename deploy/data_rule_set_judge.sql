-- Deploy voyager:data_rule_set_judge to pg
-- Rule set 1 gains the junk judge's section (the window's DEFAULT_RULES holds
-- it too, and ignores it): the rules in their order, a start shared by
-- repeat_releases releases, unusable unusable_after_hours after settling, the
-- program extensions, and media_name, a film, episode or music name as a
-- case-insensitive regex (~*).
BEGIN;
UPDATE voyager.rule_sets
   SET rules = rules || jsonb_build_object('judge', jsonb_build_object(
           'version', 1,
           'enabled', jsonb_build_array('dead', 'fake', 'repeated', 'locked', 'unusable'),
           'repeat_releases', 20,
           'unusable_after_hours', 24,
           'program_extensions', jsonb_build_array('exe', 'com', 'scr', 'bat', 'cmd', 'msi', 'pif', 'vbs', 'js',
                                                   'jar', 'apk', 'lnk', 'dll'),
           'media_name', '(^|[^[:alnum:]])(s[0-9]{1,2} ?e[0-9]{1,3}|[0-9]{1,2}x[0-9]{2,3}|(480|576|720|1080|2160)[pi]|[xh]\.?26[45]|hevc|xvid|divx|blu-?ray|bdrip|brrip|web-?dl|web-?rip|hdtv|dvd-?rip|hdrip|remux|flac|mp3|aac|[0-9]{3} ?kbps)([^[:alnum:]]|$)|[[:alpha:]][^[:alnum:]]+\(?(19|20)[0-9]{2}\)?([^[:alnum:]]|$)'))
 WHERE version = 1;
COMMIT;
