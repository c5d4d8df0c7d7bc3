-- Deploy voyager:function_category_of to pg
BEGIN;
CREATE FUNCTION voyager.category_of(name text, groups text[], inner_name text DEFAULT NULL,
                                    spot_category integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    n    text := name;   -- the name being read: the release's, then the inner one
    s    text;           -- n lowercased, each run of other than [a-z0-9] one space, padded: ' show s01e02 1080p '
    s0   text;           -- s of the release's name, for the hash test at the end
    m    bigint;         -- the OR of the masks of the words of s in category_map('name'), later ('group')
    ep   boolean;        -- an episode, season or daily date
    lang boolean;        -- a language tag where scene names put one
    c    integer;
BEGIN
    -- A pass for the name, one for the inner name.
    LOOP
        IF n IS NOT NULL THEN
            -- The words: a name of letters, digits, . _ - and spaces (most) by three
            -- replace(), any other by the regex. (For those characters lower() in "C"
            -- is lower() in the database's locale, but in a Turkish one; the
            -- cluster's is C.UTF-8.)
            s := ' ' || replace(replace(replace(lower(n COLLATE "C"), '.', ' '), '_', ' '), '-', ' ') || ' ';
            ep := s ~ '[^a-z0-9 ]| [se]p?\d|\dx\d';     -- other characters, or maybe an episode
            IF ep THEN
                IF s ~ '[^a-z0-9 ]' THEN
                    s := ' ' || regexp_replace(lower(n), '[^a-z0-9]+', ' ', 'g') || ' ';
                END IF;
                ep := s ~ ' (s\d{1,3}(e\d{1,4})*|\d{1,2}x\d{2,3}|ep?\d{2,4}) ';
            END IF;
            WHILE strpos(s, '  ') > 0 LOOP
                s := replace(s, '  ', ' ');
            END LOOP;
            m := voyager.word_mask(voyager.category_map('name'), s, ' ');
            -- An episode, a season or (below) a daily date; but "Season 1 Soundtrack [FLAC]" is no video.
            ep := (ep OR (m & voyager.category_bits('season') <> 0
                          AND s ~ ' (season|saison|staffel|seizoen|series|episode|folge|temporada|stagione) \d{1,3} |complete (season|series)'))
                  AND NOT (m & voyager.category_bits('ep_audio') <> 0 AND m & voyager.category_bits('ep_video') = 0);
            lang := m & voyager.category_bits('lang') <> 0
                AND (m & voyager.category_bits('lang_sub') <> 0
                     OR s ~ ' ((19|20)\d\d|s\d{1,3}(e\d{1,4})*|\d{3,4}p) (.* )?(german|ger|deutsch|french|vf|vff|vfq|dutch|flemish|nl|spanish|latino|esp|italian|ita|swedish|danish|norwegian|nordic|finnish|polish|pl|russian|rus|czech|hungarian|portuguese|brazilian|turkish|hindi|tamil|telugu|korean|kor|japanese|jap|chinese|chs|cht|mandarin|cantonese|greek|hebrew|arabic|thai|multi\d*) '
                     OR s ~ ' (german|ger|deutsch|french|vf|vff|vfq|dutch|flemish|nl|spanish|latino|esp|italian|ita|swedish|danish|norwegian|nordic|finnish|polish|pl|russian|rus|czech|hungarian|portuguese|brazilian|turkish|hindi|tamil|telugu|korean|kor|japanese|jap|chinese|mandarin|cantonese|greek|hebrew|arabic|thai|multi\d*) (dl|dual|ac3|dts|dubbed|dub|subbed|subs?|\d{3,4}p|web|webrip|webdl|bluray|bdrip|dvdrip|dvdr|xvid|x264|x265|h264|hevc|hdtv|edition|epub|pdf|mobi|ebook|retail|mp3|flac|audiobook|hoerbuch) ');
            -- (split_part(s, ' ', -2) is the last word, -3 the one before it.)
            c := CASE
                -- XXX: its tags or studios, then the format.
                WHEN m & voyager.category_bits('xxx') <> 0 THEN CASE
                    WHEN m & voyager.category_bits('xxx_images') <> 0 THEN 6060
                    WHEN m & voyager.category_bits('xxx_pack') <> 0 THEN 6050
                    WHEN m & voyager.category_bits('uhd') <> 0 THEN 6045
                    WHEN m & voyager.category_bits('web') <> 0 THEN 6090
                    WHEN m & voyager.category_bits('xxx_hd') <> 0 THEN 6040
                    WHEN m & voyager.category_bits('xxx_sd') <> 0 THEN 6030
                    WHEN m & voyager.category_bits('dvd') <> 0 THEN 6010
                    WHEN m & voyager.category_bits('xxx_clip') <> 0 THEN 6020
                    WHEN m & voyager.category_bits('xxx_low') <> 0 THEN 6080
                    ELSE 6070 END

                -- Anime fansubs: "[Group] Title - 12 [1080p]", "[Group] Title [ABCD1234]".
                WHEN n LIKE '[%'
                     AND n ~* '^\[(?!private\])[^]]{2,40}\](([^[]*[ _]-[ _]?(\d{1,3}|1[0-8]\d\d)(v\d)?([ _.[(]|$))|(.*\[[0-9a-f]{8}\]))'
                    THEN 5070

                -- Consoles, by platform tag.
                WHEN m & voyager.category_bits('console') <> 0 AND NOT (strpos(s, ' 3ds ') > 0 AND strpos(s, ' max ') > 0)
                    THEN voyager.console_category(s)

                -- Video: an episode, season or daily date (TV), or a resolution, source or
                -- codec (a movie, unless the date makes it TV).
                WHEN ep OR m & voyager.category_bits('video') <> 0 THEN CASE
                    -- A music video: "Artist-Title-720p-x264-2019-GROUP" (the year after the tags).
                    WHEN NOT ep
                         AND (m & voyager.category_bits('musicvideo') <> 0
                              OR (m & voyager.category_bits('musicvideo_tag') <> 0
                                  AND split_part(s, ' ', -3) LIKE ANY ('{19__,20__}') AND split_part(s, ' ', -3) ~ '^(19|20)\d\d$'
                                  AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -4))
                                      & voyager.category_bits('musicvideo_tag') <> 0)) THEN 3020
                    -- sport, anime, documentaries
                    WHEN m & voyager.category_bits('sports anime docu') <> 0
                         OR (m & voyager.category_bits('phrase') <> 0 AND strpos(s, ' formula 1 ') > 0) THEN CASE
                        WHEN m & voyager.category_bits('sports') <> 0 OR strpos(s, ' formula 1 ') > 0 THEN 5060
                        WHEN m & voyager.category_bits('anime') <> 0 THEN 5070
                        ELSE 5080 END
                    -- TV (a daily date: a year and two words of two digits)
                    WHEN ep OR (m & voyager.category_bits('two_digits') <> 0
                                AND s ~ ' ((19|20)\d\d \d\d \d\d|\d\d \d\d (19|20)\d\d) ') THEN CASE
                        WHEN lang THEN 5020
                        WHEN m & voyager.category_bits('uhd') <> 0 THEN 5045
                        WHEN m & voyager.category_bits('hevc') <> 0 THEN 5090
                        WHEN m & voyager.category_bits('web streamer') <> 0 THEN 5010
                        WHEN m & voyager.category_bits('tv_hd') <> 0 THEN 5040
                        WHEN m & voyager.category_bits('tv_sd') <> 0 THEN 5030
                        ELSE 5050 END
                    -- a movie
                    WHEN lang THEN 2010
                    WHEN m & voyager.category_bits('3d') <> 0 THEN 2060
                    WHEN m & voyager.category_bits('uhd') <> 0 THEN 2045
                    WHEN m & voyager.category_bits('hevc') <> 0 THEN 2090
                    WHEN m & voyager.category_bits('disc') <> 0
                         OR (m & voyager.category_bits('bluray') <> 0   -- a whole disc: AVC, COMPLETE, or "BluRay-GROUP"
                             AND (m & voyager.category_bits('disc_codec') <> 0
                                  OR (voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -3))
                                          & voyager.category_bits('bluray_tag') <> 0
                                      AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -2))
                                          & voyager.category_bits('codec_tag') = 0))) THEN 2050
                    WHEN m & voyager.category_bits('movie_dvd') <> 0 THEN 2070
                    WHEN m & voyager.category_bits('web streamer') <> 0 THEN 2080
                    WHEN m & voyager.category_bits('hd') <> 0 THEN 2040
                    WHEN m & voyager.category_bits('cam') <> 0 THEN 2020
                    WHEN m & voyager.category_bits('movie_sd') <> 0 THEN 2030
                    WHEN m & voyager.category_bits('movie_x264') <> 0 THEN 2040
                    ELSE 2020 END

                -- Audio and books, by format.
                WHEN m & voyager.category_bits('audiobook musicvideo lossless mp3 comics technical magazine ebook') <> 0
                     OR (m & voyager.category_bits('phrase') <> 0
                         AND (strpos(s, ' graphic novel') > 0 OR strpos(s, ' no starch ') > 0
                              OR strpos(s, ' e book ') > 0)) THEN CASE
                    WHEN m & voyager.category_bits('audiobook') <> 0 THEN 3030
                    WHEN m & voyager.category_bits('musicvideo') <> 0 THEN 3020
                    WHEN m & voyager.category_bits('lossless') <> 0 THEN CASE WHEN lang THEN 3060 ELSE 3040 END
                    WHEN m & voyager.category_bits('mp3') <> 0 THEN CASE WHEN lang THEN 3060 ELSE 3010 END
                    WHEN m & voyager.category_bits('comics') <> 0 OR strpos(s, ' graphic novel') > 0
                        THEN CASE WHEN lang THEN 7060 ELSE 7030 END
                    WHEN m & voyager.category_bits('technical') <> 0 OR strpos(s, ' no starch ') > 0
                        THEN CASE WHEN lang THEN 7060 ELSE 7040 END
                    WHEN m & voyager.category_bits('magazine') <> 0
                         OR (m & voyager.category_bits('pdf_epub') <> 0 AND m & voyager.category_bits('month') <> 0
                             AND s ~ ' (january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec) (\d{1,2} )?(19|20)\d\d ')
                        THEN CASE WHEN lang THEN 7060 ELSE 7010 END
                    ELSE CASE WHEN lang THEN 7060 ELSE 7020 END END       -- an e-book

                -- Scene music: "Artist-Album-WEB-2019-GROUP", "Artist-Album-(CDM)-2001-GROUP".
                WHEN m & voyager.category_bits('scene_tag') <> 0
                     AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -4))
                         & voyager.category_bits('scene_tag') <> 0
                     AND split_part(s, ' ', -3) ~ '^(19|20)\d\d$'
                    THEN CASE WHEN lang THEN 3060 ELSE 3010 END

                -- Other music, then software. A PC game group counts as the last word
                -- ("Game.Name-CODEX"): many of them are words too.
                WHEN m & voyager.category_bits('software') <> 0
                     OR (m & voyager.category_bits('pc_group') <> 0
                         AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -2))
                             & voyager.category_bits('pc_group') <> 0)
                     OR left(s, 4) = ' va ' THEN CASE
                    WHEN m & voyager.category_bits('other_music') <> 0 OR left(s, 4) = ' va '
                        THEN CASE WHEN lang THEN 3060 ELSE 3050 END
                    WHEN m & voyager.category_bits('ios') <> 0 THEN 4060
                    WHEN m & voyager.category_bits('android') <> 0 THEN 4070
                    WHEN m & voyager.category_bits('mobile') <> 0 THEN 4040
                    WHEN m & voyager.category_bits('mac') <> 0 THEN 4030
                    WHEN m & voyager.category_bits('pc_game') <> 0
                         OR (m & voyager.category_bits('pc_group') <> 0
                             AND voyager.word_bits(voyager.category_map('name'), split_part(s, ' ', -2))
                                 & voyager.category_bits('pc_group') <> 0) THEN 4050
                    WHEN m & voyager.category_bits('iso') <> 0 THEN 4020
                    ELSE 4010 END

                -- "Tool.v2.1.4-GROUP"
                WHEN (strpos(s, ' v') > 0 OR m & voyager.category_bits('phrase') <> 0)
                     AND s ~ ' (v\d{1,3}( \d{1,4})+|build \d{3,}) ' THEN 4010
                END;
            IF c IS NOT NULL THEN
                RETURN c;
            END IF;
            s0 := coalesce(s0, CASE WHEN name IS NOT NULL THEN s END);   -- s of the release's name, not the inner one
        END IF;
        EXIT WHEN inner_name IS NULL OR n IS NOT DISTINCT FROM inner_name;
        n := inner_name;
    END LOOP;

    -- A spot's category, when it is one of the tree (a subcategory we lack: its
    -- parent). The ids are table_categories' rows; tests/test_categories.py
    -- checks the two agree.
    IF spot_category IS NOT NULL THEN
        IF spot_category = ANY ('{1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070, 1080, 1090, 1110, 1120, 1130, 1140, 1180,
                                 2000, 2010, 2020, 2030, 2040, 2045, 2050, 2060, 2070, 2080, 2090,
                                 3000, 3010, 3020, 3030, 3040, 3050, 3060,
                                 4000, 4010, 4020, 4030, 4040, 4050, 4060, 4070,
                                 5000, 5010, 5020, 5030, 5040, 5045, 5050, 5060, 5070, 5080, 5090,
                                 6000, 6010, 6020, 6030, 6040, 6045, 6050, 6060, 6070, 6080, 6090,
                                 7000, 7010, 7020, 7030, 7040, 7050, 7060,
                                 8000, 8010, 8020}'::integer[]) THEN
            RETURN spot_category;
        ELSIF spot_category BETWEEN 1000 AND 8999 THEN
            RETURN spot_category / 1000 * 1000;
        END IF;
    END IF;

    -- The groups: their names cut into words ("alt.binaries.sounds.mp3.complete_cd").
    IF groups IS NOT NULL THEN
        -- ('alt' and 'binaries', 'a' and 'b' are in no set: fewer words to look up.)
        s := replace(replace('.' || replace(replace(lower(array_to_string(groups, '.')), '-', '.'), '_', '.') || '.',
                             '.alt.binaries.', '.'), '.a.b.', '.');
        WHILE strpos(s, '..') > 0 LOOP
            s := replace(s, '..', '.');
        END LOOP;
        m := voyager.word_mask(voyager.category_map('group'), s, '.');
        c := CASE
            WHEN m & voyager.category_bits('any', 'group') = 0 THEN NULL
            WHEN m & voyager.category_bits('erotica', 'group') <> 0
                THEN CASE WHEN m & voyager.category_bits('pictures', 'group') <> 0 THEN 6060 ELSE 6070 END
            WHEN m & voyager.category_bits('anime', 'group') <> 0 THEN 5070
            WHEN m & voyager.category_bits('audiobook', 'group') <> 0 THEN 3030
            WHEN m & voyager.category_bits('book', 'group') <> 0 THEN CASE
                WHEN m & voyager.category_bits('technical', 'group') <> 0 THEN 7040
                WHEN m & voyager.category_bits('magazine', 'group') <> 0 THEN 7010
                WHEN m & voyager.category_bits('comics', 'group') <> 0 THEN 7030
                ELSE 7020 END
            WHEN m & voyager.category_bits('comics', 'group') <> 0 THEN 7030
            WHEN m & voyager.category_bits('magazine', 'group') <> 0 THEN 7010
            WHEN m & voyager.category_bits('lossless', 'group') <> 0 THEN 3040
            WHEN m & voyager.category_bits('musicvideo', 'group') <> 0
                 OR (m & voyager.category_bits('video', 'group') <> 0
                     AND m & voyager.category_bits('music', 'group') <> 0) THEN 3020
            WHEN m & voyager.category_bits('mp3', 'group') <> 0 THEN 3010
            WHEN m & voyager.category_bits('audio', 'group') <> 0
                 AND m & voyager.category_bits('warez', 'group') = 0 THEN 3050
            WHEN m & voyager.category_bits('documentary', 'group') <> 0 THEN 5080
            WHEN m & voyager.category_bits('sports', 'group') <> 0 THEN 5060
            WHEN m & voyager.category_bits('console', 'group') <> 0 THEN CASE
                WHEN m & voyager.category_bits('3ds', 'group') <> 0 THEN 1110
                WHEN m & voyager.category_bits('nds', 'group') <> 0
                     OR (m & voyager.category_bits('nintendo', 'group') <> 0
                         AND m & voyager.category_bits('ds', 'group') <> 0) THEN 1010
                WHEN m & voyager.category_bits('psp', 'group') <> 0 THEN 1020
                WHEN m & voyager.category_bits('wiiu', 'group') <> 0 THEN 1130
                WHEN m & voyager.category_bits('wii', 'group') <> 0 THEN 1030
                WHEN m & voyager.category_bits('xboxone', 'group') <> 0 THEN 1140
                WHEN m & voyager.category_bits('x360', 'group') <> 0 THEN 1050
                WHEN m & voyager.category_bits('xbox', 'group') <> 0 THEN 1040
                WHEN m & voyager.category_bits('ps4', 'group') <> 0 THEN 1180
                WHEN m & voyager.category_bits('ps3', 'group') <> 0 THEN 1080
                WHEN m & voyager.category_bits('psvita', 'group') <> 0 THEN 1120
                ELSE 1090 END
            WHEN m & voyager.category_bits('dvd', 'group') <> 0 THEN 2070
            WHEN m & voyager.category_bits('hd', 'group') <> 0 THEN 2040
            WHEN m & voyager.category_bits('sd', 'group') <> 0 THEN 2030
            WHEN m & voyager.category_bits('movies', 'group') <> 0 THEN 2020
            WHEN m & voyager.category_bits('uhdtv', 'group') <> 0 THEN 5045
            WHEN m & voyager.category_bits('hdtv', 'group') <> 0 THEN 5040
            WHEN m & voyager.category_bits('tv', 'group') <> 0 THEN 5050
            WHEN m & voyager.category_bits('games', 'group') <> 0 THEN 4050
            WHEN m & voyager.category_bits('mac', 'group') <> 0 THEN 4030
            WHEN m & voyager.category_bits('ios', 'group') <> 0 THEN 4060
            WHEN m & voyager.category_bits('android', 'group') <> 0 THEN 4070
            WHEN m & voyager.category_bits('mobile', 'group') <> 0 THEN 4040
            WHEN m & voyager.category_bits('iso', 'group') <> 0 THEN 4020
            ELSE 4010 END;
        IF c IS NOT NULL THEN
            RETURN c;
        END IF;
    END IF;

    -- Nothing to go by: a hash or random name (32/40-hex, a long token of
    -- letters and digits), else Misc. Either needs a word of 16 or more.
    RETURN CASE
        WHEN octet_length(s0) >= 18
             AND (split_part(s0, ' ', 6) <> ''
                  OR greatest(octet_length(split_part(s0, ' ', 2)), octet_length(split_part(s0, ' ', 3)),
                              octet_length(split_part(s0, ' ', 4)), octet_length(split_part(s0, ' ', 5))) >= 16)
             AND (s0 ~ ' [0-9a-f]{16,} '
                  OR (octet_length(s0) >= 22 AND substring(s0 FROM ' ([a-z0-9]{20,}) ') ~ '[0-9]')) THEN 8020
        ELSE 8010 END;
END $$;
COMMENT ON FUNCTION voyager.category_of(text, text[], text, integer) IS
    'The Newznab category of a release: from its name, else the inner name, else a spot''s category, '
    'else its groups, else 8020 (a hash or random name) or 8010; always an id of voyager.categories';
COMMIT;
