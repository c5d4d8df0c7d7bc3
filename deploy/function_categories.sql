-- Deploy voyager:function_categories to pg
-- Newznab categories from a release's name (seeds part 9): category_of() reads
-- the name, else the inner name the prober found, else a spot's category, else
-- the groups, else Other (Misc, or Hashed for a hash); recategorize() brings
-- the old rows in line, batch by batch.
--
-- Speed: category_of runs for every stored release. A name is lowercased and cut
-- into words once (one regexp_replace); most tests are then `words ?| t`, a
-- binary search per word in a jsonb object that word_set() builds at plan time,
-- and only a handful of regexes (kept few and short: Postgres caches 32
-- compiled ones per backend, and a long alternation costs microseconds a call).
BEGIN;

CREATE FUNCTION voyager.word_set(words text) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT coalesce(jsonb_object_agg(w, 0), '{}') FROM unnest(string_to_array(words, ' ')) w WHERE w <> ''
$$;
COMMENT ON FUNCTION voyager.word_set(text) IS
    'A jsonb object keyed by the space-separated words: `word_set(''a b'') ?| words` tests for any of them; '
    'with constant words it is folded into the plan once';

CREATE FUNCTION voyager.category_of(name text, groups text[], inner_name text DEFAULT NULL,
                                    spot_category integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    n    text := name;   -- the name being read: the release's, then the inner one
    s    text;           -- n lowercased, each run of other than [a-z0-9] one space, padded: ' show s01e02 1080p '
    t    text[];         -- the words of s, with '' at both ends (no set holds ''): t[k - 1] is the last word
    s0   text;           -- s of the release's name, for the hash test at the end
    k    integer;        -- cardinality(t)
    ep   boolean;        -- an episode, season or daily date
    lang boolean;        -- a language tag where scene names put one
    c    integer;
BEGIN
    FOR pass IN 1..2 LOOP
        IF pass = 2 THEN
            EXIT WHEN inner_name IS NULL;
            n := inner_name;
        END IF;
        CONTINUE WHEN n IS NULL;
        s := ' ' || btrim(regexp_replace(lower(n), '[^a-z0-9]+', ' ', 'g')) || ' ';
        IF pass = 1 THEN
            s0 := s;
        END IF;
        t := string_to_array(s, ' ');

        -- XXX: its tags or studios, then the format.
        IF voyager.word_set('xxx porn porno pornhub pornstar imageset pictureset hentai jav javhd milf brazzers '
                            'bangbros realitykings naughtyamerica blacked blackedraw tushy tushyraw evilangel '
                            'digitalplayground nubiles teamskeet mofos clips4sale onlyfans manyvids fakehub '
                            'sdx264xxx ktr yapg sexors hushhush') ?| t THEN
            RETURN CASE
                WHEN voyager.word_set('imageset pictureset photoset images pics jpg jpeg png') ?| t THEN 6060
                WHEN voyager.word_set('pack siterip megapack collection') ?| t THEN 6050
                WHEN voyager.word_set('2160p 4320p 4k uhd') ?| t THEN 6045
                WHEN voyager.word_set('web webdl webrip webhd') ?| t THEN 6090
                WHEN voyager.word_set('720p 1080p 1080i x264 h264 264 x265 h265 hevc 265 av1') ?| t THEN 6040
                WHEN voyager.word_set('xvid divx dvdrip bdrip brrip') ?| t THEN 6030
                WHEN voyager.word_set('dvdr dvd5 dvd9 dvd') ?| t THEN 6010
                WHEN voyager.word_set('wmv mp4 mov flv mpeg mpg m4v f4v avi') ?| t THEN 6020
                WHEN voyager.word_set('480p 576p 360p sd sdx264xxx') ?| t THEN 6080
                ELSE 6070 END;
        END IF;

        -- Anime fansubs: "[Group] Title - 12 [1080p]", "[Group] Title [ABCD1234]".
        IF left(n, 1) = '[' AND n ~* '^\[(?!private\])[^]]{2,40}\](([^[]*[ _]-[ _]?(\d{1,3}|1[0-8]\d\d)(v\d)?([ _.[(]|$))|(.*\[[0-9a-f]{8}\]))' THEN
            RETURN 5070;
        END IF;

        -- Consoles, by platform tag.
        IF voyager.word_set('nds 3ds psp psv psvita wii wiiu wiiware xbox xbox360 x360 xboxone xbone xbla '
                            'ps1 psx ps2 ps3 ps4 ps5 ngc gamecube nsw nsp xci gba gbc snes n64 dreamcast') ?| t
           AND NOT (t @> '{3ds,max}') THEN
            RETURN CASE
                WHEN voyager.word_set('xbox360 x360') ?| t AND voyager.word_set('dlc xbla') ?| t THEN 1070
                WHEN voyager.word_set('xboxone xbone') ?| t OR strpos(s, ' xbox one ') > 0 THEN 1140
                WHEN voyager.word_set('xbox360 x360') ?| t THEN 1050
                WHEN voyager.word_set('xbox') ?| t THEN 1040
                WHEN voyager.word_set('wiiware') ?| t OR (voyager.word_set('wii') ?| t AND voyager.word_set('vc dlc') ?| t) THEN 1060
                WHEN voyager.word_set('wiiu') ?| t OR strpos(s, ' wii u ') > 0 THEN 1130
                WHEN voyager.word_set('wii') ?| t THEN 1030
                WHEN voyager.word_set('ps4') ?| t THEN 1180
                WHEN voyager.word_set('ps3') ?| t THEN 1080
                WHEN voyager.word_set('psv psvita') ?| t THEN 1120
                WHEN voyager.word_set('psp') ?| t THEN 1020
                WHEN voyager.word_set('3ds') ?| t THEN 1110
                WHEN voyager.word_set('nds') ?| t THEN 1010
                ELSE 1090 END;
        END IF;

        -- Video: an episode, season or daily date (TV), or a resolution, source or
        -- codec (a movie, unless the date makes it TV).
        k := cardinality(t);
        ep := s ~ ' (s\d{1,3}(e\d{1,4})*|\d{1,2}x\d{2,3}|ep?\d{2,4}) '
              OR (voyager.word_set('season saison staffel seizoen series episode folge temporada stagione') ?| t
                  AND s ~ ' (season|saison|staffel|seizoen|series|episode|folge|temporada|stagione) \d{1,3} |complete (season|series)');
        IF ep AND voyager.word_set('flac mp3 epub pdf mobi azw3 cbr cbz m4b audiobook') ?| t
           AND NOT voyager.word_set('720p 1080p 2160p x264 x265 h264 hevc mkv') ?| t THEN
            ep := false;    -- "Season 1 Soundtrack [FLAC]": not a video
        END IF;
        lang := voyager.word_set('german ger deutsch french truefrench vf vff vfq vostfr subfrench dutch flemish nl '
                                 'nlsub nlsubs spanish castellano latino esp italian ita swedish swesub danish dksubs '
                                 'norwegian nordic finnish polish pl plsub russian rus czech hungarian portuguese '
                                 'brazilian turkish hindi tamil telugu korean kor japanese jap chinese chs cht mandarin '
                                 'cantonese greek hebrew arabic thai multi multi2 multi3 multi4 multi5 multi6 multi7 '
                                 'multi8 multi9 multi10 multisubs') ?| t
            AND (voyager.word_set('truefrench vostfr subfrench nlsub nlsubs swesub dksubs plsub castellano multisubs') ?| t
                 OR s ~ ' ((19|20)\d\d|s\d{1,3}(e\d{1,4})*|\d{3,4}p) (.* )?(german|ger|deutsch|french|vf|vff|vfq|dutch|flemish|nl|spanish|latino|esp|italian|ita|swedish|danish|norwegian|nordic|finnish|polish|pl|russian|rus|czech|hungarian|portuguese|brazilian|turkish|hindi|tamil|telugu|korean|kor|japanese|jap|chinese|chs|cht|mandarin|cantonese|greek|hebrew|arabic|thai|multi\d*) '
                 OR s ~ ' (german|ger|deutsch|french|vf|vff|vfq|dutch|flemish|nl|spanish|latino|esp|italian|ita|swedish|danish|norwegian|nordic|finnish|polish|pl|russian|rus|czech|hungarian|portuguese|brazilian|turkish|hindi|tamil|telugu|korean|kor|japanese|jap|chinese|mandarin|cantonese|greek|hebrew|arabic|thai|multi\d*) (dl|dual|ac3|dts|dubbed|dub|subbed|subs?|\d{3,4}p|web|webrip|webdl|bluray|bdrip|dvdrip|dvdr|xvid|x264|x265|h264|hevc|hdtv|edition|epub|pdf|mobi|ebook|retail|mp3|flac|audiobook|hoerbuch) ');

        IF ep OR voyager.word_set('2160p 4320p 1080p 1080i 720p 576p 480p 360p uhd bluray blu bdrip brrip bd25 bd50 '
                                  'bdmv bdremux remux webdl webrip webhd hdrip dvdrip dvdscr dvdr dvd5 dvd9 xvid divx '
                                  'x264 x265 h264 h265 hevc avc av1 vc1 264 265 hdcam camrip telesync hdts telecine '
                                  'hdtc vhsrip hdtv pdtv sdtv dsr dsrip tvrip hdtvrip sbs hsbs') ?| t THEN
            -- A music video: "Artist-Title-720p-x264-2019-GROUP" (the year after the tags).
            IF NOT ep AND (voyager.word_set('mvid mdvdr mbluray musicvideo') ?| t
                           OR (voyager.word_set('x264 h264 x265 720p 1080p 2160p dvdrip hdtv web webrip bdrip bluray dvd') ? t[k - 3]
                               AND t[k - 2] ~ '^(19|20)\d\d$')) THEN
                RETURN 3020;
            END IF;
            IF voyager.word_set('nfl nba nhl mlb mls ncaa ncaaf ncaab ufc wwe aew tna roh njpw mma bellator pfl boxing '
                                'wrestling wrestlemania smackdown formula1 f1 motogp moto2 nascar indycar wrc '
                                'wec dtm superbike sbk epl bundesliga laliga ligue1 uefa fifa rugby afl nrl cricket '
                                'ipl pga golf tennis atp wta wimbledon snooker darts cycling olympics superbowl nhra '
                                'ppv prix sport sports') ?| t OR strpos(s, ' formula 1 ') > 0 THEN
                RETURN 5060;
            END IF;
            IF voyager.word_set('anime') ?| t THEN
                RETURN 5070;
            END IF;
            IF voyager.word_set('docu documentary documentaries doku dokumentation dokumentarfilm docuseries '
                                'documental documentaire') ?| t THEN
                RETURN 5080;
            END IF;
            IF ep OR s ~ ' ((19|20)\d\d \d\d \d\d|\d\d \d\d (19|20)\d\d) ' THEN
                RETURN CASE
                    WHEN lang THEN 5020
                    WHEN voyager.word_set('2160p 4320p 4k uhd') ?| t THEN 5045
                    WHEN voyager.word_set('x265 h265 hevc 265') ?| t THEN 5090
                    WHEN voyager.word_set('web webdl webrip webhd amzn dsnp hmax atvp') ?| t THEN 5010
                    WHEN voyager.word_set('720p 1080p 1080i bluray blu remux bdremux bd25 bd50 bdmv') ?| t THEN 5040
                    WHEN voyager.word_set('480p 576p 360p xvid divx dvdrip bdrip brrip hdtv pdtv sdtv dsr dsrip tvrip '
                                          'hdtvrip x264 h264 264 dvdr dvd5 dvd9 dvd ntsc pal') ?| t THEN 5030
                    ELSE 5050 END;
            END IF;
            RETURN CASE
                WHEN lang THEN 2010
                WHEN voyager.word_set('3d sbs hsbs halfsbs mvc') ?| t THEN 2060
                WHEN voyager.word_set('2160p 4320p 4k uhd') ?| t THEN 2045
                WHEN voyager.word_set('x265 h265 hevc 265') ?| t THEN 2090
                WHEN voyager.word_set('remux bdremux bd25 bd50 bdmv untouched') ?| t
                     OR (voyager.word_set('bluray blu') ?| t          -- a whole disc: AVC, COMPLETE, or "BluRay-GROUP"
                         AND (voyager.word_set('avc vc1 mpeg2 complete') ?| t
                              OR (voyager.word_set('bluray ray') ? t[k - 2]
                                  AND NOT voyager.word_set('x264 x265 h264 h265 hevc xvid 264 265 av1') ? t[k - 1]))) THEN 2050
                WHEN voyager.word_set('dvdr dvd5 dvd9 dvd ntsc pal') ?| t THEN 2070
                WHEN voyager.word_set('web webdl webrip webhd amzn dsnp hmax atvp') ?| t THEN 2080
                WHEN voyager.word_set('720p 1080p 1080i') ?| t THEN 2040
                WHEN voyager.word_set('cam camrip hdcam ts telesync hdts hdtsrip tc telecine hdtc scr screener dvdscr '
                                      'r5 workprint') ?| t THEN 2020
                WHEN voyager.word_set('xvid divx dvdrip bdrip brrip 480p 576p 360p hdrip vhsrip hdtv pdtv sdtv tvrip '
                                      'dsr') ?| t THEN 2030
                WHEN voyager.word_set('bluray blu x264 h264 264 avc av1 vc1') ?| t THEN 2040
                ELSE 2020 END;
        END IF;

        -- Audio and books, by format.
        IF voyager.word_set('audiobook audiobooks abook hoerbuch horbuch unabridged abridged audible m4b hoerspiel '
                            'luisterboek ljudbok lydbog audiolibro mvid mdvdr mbluray musicvideo flac alac ape wav '
                            'lossless 24bit 16bit hires dsd dsf dff sacd wv dvda mp3 320kbps 256kbps 192kbps 128kbps '
                            'kbps 320k 256k 192k v0 vbr aac m4a ogg opus wma 320 cbr cbz cb7 cbt comic comics c2c '
                            'manga webcomic graphic packt oreilly apress manning wiley sybex wrox syngress starch '
                            'sitepoint pragmatic dummies cookbook programming textbook springer mcgraw pearson addison '
                            'elsevier magazine magazines mag mags truepdf zinio economist forbes vogue esquire '
                            'cosmopolitan newsweek businessweek fhm maxim playboy penthouse epub mobi azw azw3 kf8 '
                            'kfx pdf ebook '
                            'ebooks fb2 djvu prc') ?| t OR strpos(s, ' e book ') > 0 THEN
            c := CASE
                WHEN voyager.word_set('audiobook audiobooks abook hoerbuch horbuch unabridged abridged audible m4b '
                                      'hoerspiel luisterboek ljudbok lydbog audiolibro') ?| t THEN 3030
                WHEN voyager.word_set('mvid mdvdr mbluray musicvideo') ?| t THEN 3020
                WHEN voyager.word_set('flac alac ape wav lossless 24bit 16bit hires dsd dsf dff sacd wv dvda') ?| t
                    THEN CASE WHEN lang THEN 3060 ELSE 3040 END
                WHEN voyager.word_set('mp3 320kbps 256kbps 192kbps 128kbps kbps 320k 256k 192k v0 vbr aac m4a ogg '
                                      'opus wma 320') ?| t
                    THEN CASE WHEN lang THEN 3060 ELSE 3010 END
                WHEN voyager.word_set('cbr cbz cb7 cbt comic comics c2c manga webcomic') ?| t
                     OR strpos(s, ' graphic novel') > 0
                    THEN CASE WHEN lang THEN 7060 ELSE 7030 END
                WHEN voyager.word_set('packt oreilly apress manning wiley sybex wrox syngress sitepoint pragmatic '
                                      'dummies cookbook programming textbook springer mcgraw pearson addison '
                                      'elsevier') ?| t OR strpos(s, ' no starch ') > 0
                    THEN CASE WHEN lang THEN 7060 ELSE 7040 END
                WHEN voyager.word_set('magazine magazines mag mags truepdf zinio economist forbes vogue esquire '
                                      'cosmopolitan newsweek businessweek fhm maxim playboy penthouse') ?| t
                     OR (voyager.word_set('pdf epub') ?| t
                         AND s ~ ' (january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec) (\d{1,2} )?(19|20)\d\d ')
                    THEN CASE WHEN lang THEN 7060 ELSE 7010 END
                WHEN voyager.word_set('epub mobi azw azw3 kf8 kfx pdf ebook ebooks fb2 djvu prc') ?| t
                     OR strpos(s, ' e book ') > 0
                    THEN CASE WHEN lang THEN 7060 ELSE 7020 END
                END;
            IF c IS NOT NULL THEN
                RETURN c;
            END IF;
        END IF;
        -- Scene music: "Artist-Album-WEB-2019-GROUP", "Artist-Album-(CDM)-2001-GROUP".
        IF voyager.word_set('web cd cdm cds cdr cdda vinyl vls lp ep sat fm dab dvb sbd aud bootleg promo 2cd 3cd 4cd '
                            '5cd 6cd stream cable line radio') ? t[k - 3]
           AND t[k - 2] ~ '^(19|20)\d\d$' THEN
            RETURN CASE WHEN lang THEN 3060 ELSE 3010 END;
        END IF;

        -- Other music, then software. A PC game group counts as the last word
        -- ("Game.Name-CODEX"): many of them are words too.
        IF voyager.word_set('discography discografia diskografie ost soundtrack vinyl album albums bootleg cdrip '
                            'karaoke remixes ios iphone ipad ipa ipados android apk symbian blackberry wm5 wm6 '
                            'windowsmobile pocketpc macos osx macosx dmg mac pcgame pcgames pcdvd fitgirl dodi '
                            'elamigos steamrip gog iso udemy lynda pluralsight skillshare infiniteskills tutsplus '
                            'cbtnuggets linkedin masterclass x64 x86 x32 win32 win64 win windows 32bit 64bit amd64 '
                            'arm64 keygen keymaker crack cracked patch patched portable multilingual regged activator '
                            'activated setup exe msi linux freebsd unix adobe microsoft autodesk autocad vmware corel '
                            'coreldraw nero ableton serial vst vsti vst3') ?| t
           OR voyager.word_set('codex plaza skidrow reloaded cpy empress tenoke rune flt fltdox hoodlum razor1911 '
                               'prophet tinyiso darksiders doge kaos hi2u simplex delusional postmortem ali213 3dm '
                               'vrex chronos goldberg') ? t[k - 1]
           OR left(s, 4) = ' va ' THEN
            RETURN CASE
                WHEN voyager.word_set('discography discografia diskografie ost soundtrack vinyl album albums bootleg '
                                      'cdrip karaoke remixes') ?| t OR left(s, 4) = ' va '
                    THEN CASE WHEN lang THEN 3060 ELSE 3050 END
                WHEN voyager.word_set('ios iphone ipad ipa ipados') ?| t THEN 4060
                WHEN voyager.word_set('android apk') ?| t THEN 4070
                WHEN voyager.word_set('symbian blackberry wm5 wm6 windowsmobile pocketpc') ?| t THEN 4040
                WHEN voyager.word_set('macos osx macosx dmg mac') ?| t THEN 4030
                WHEN voyager.word_set('pcgame pcgames pcdvd fitgirl dodi elamigos steamrip gog') ?| t
                     OR voyager.word_set('codex plaza skidrow reloaded cpy empress tenoke rune flt fltdox hoodlum '
                                         'razor1911 prophet tinyiso darksiders doge kaos hi2u simplex delusional '
                                         'postmortem ali213 3dm vrex chronos goldberg') ? t[k - 1] THEN 4050
                WHEN voyager.word_set('iso udemy lynda pluralsight skillshare infiniteskills tutsplus cbtnuggets '
                                      'linkedin masterclass') ?| t THEN 4020
                ELSE 4010 END;
        END IF;
        IF s ~ ' (v\d{1,3}( \d{1,4})+|build \d{3,}) ' THEN
            RETURN 4010;    -- "Tool.v2.1.4-GROUP"
        END IF;
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
        t := string_to_array(translate(lower(array_to_string(groups, '.')), '-_', '..'), '.');
        c := CASE
            WHEN NOT voyager.word_set('erotica erotic xxx porn ijsklontje hentai anime audiobook audiobooks hoerbuch '
                                      'hoerbuecher ebook ebooks book books comics comic magazines magazine flac lossless '
                                      'mp3 mp3s sounds music audio karaoke radio mvid musicvideos documentaries '
                                      'documentary sports sport mma wrestling nfl nba nhl boxing motorsports f1 '
                                      'football soccer hockey racing nds nintendods 3ds nintendo3ds psp wiiu wii xbox360 360 '
                                      'xboxone xbox ps3 ps4 psvita vita console consoles gamecube dreamcast ps2 psx '
                                      'playstation nintendo emulators roms dvd dvdr dvd9 dvd5 x264 bluray 1080p 720p '
                                      'divx xvid moovee movies movie cinema film films filme hdtv uhdtv teevee tv '
                                      'tvseries series sitcoms tvshows games game pcgame pcgames gamez mac macintosh '
                                      'apple iphone ipad ios android smartphone pocketpc palm symbian mobile image iso '
                                      'isos warez 0day apps appz software linux cracks utilities') ?| t THEN NULL
            WHEN voyager.word_set('erotica erotic xxx porn ijsklontje hentai') ?| t
                THEN CASE WHEN voyager.word_set('pictures pics images jpg imagesets') ?| t THEN 6060 ELSE 6070 END
            WHEN voyager.word_set('anime') ?| t THEN 5070
            WHEN voyager.word_set('audiobook audiobooks hoerbuch hoerbuecher') ?| t THEN 3030
            WHEN voyager.word_set('ebook ebooks book books') ?| t THEN CASE
                WHEN voyager.word_set('technical textbooks textbook') ?| t THEN 7040
                WHEN voyager.word_set('magazines magazine') ?| t THEN 7010
                WHEN voyager.word_set('comics comic') ?| t THEN 7030
                ELSE 7020 END
            WHEN voyager.word_set('comics comic') ?| t THEN 7030
            WHEN voyager.word_set('magazines magazine') ?| t THEN 7010
            WHEN voyager.word_set('flac lossless') ?| t THEN 3040
            WHEN voyager.word_set('mvid musicvideos') ?| t
                 OR (voyager.word_set('video videos') ?| t AND voyager.word_set('music sounds') ?| t) THEN 3020
            WHEN voyager.word_set('mp3 mp3s') ?| t THEN 3010
            WHEN voyager.word_set('sounds music audio karaoke radio') ?| t
                 AND NOT voyager.word_set('warez apps appz software') ?| t THEN 3050
            WHEN voyager.word_set('documentaries documentary') ?| t THEN 5080
            WHEN voyager.word_set('sports sport mma wrestling nfl nba nhl boxing motorsports f1 football soccer '
                                  'hockey racing') ?| t THEN 5060
            WHEN voyager.word_set('nds nintendods 3ds nintendo3ds psp wiiu wii xbox360 360 xboxone xbox ps3 ps4 psvita '
                                  'vita console consoles gamecube dreamcast ps2 psx playstation nintendo emulators '
                                  'roms') ?| t THEN CASE
                WHEN voyager.word_set('3ds nintendo3ds') ?| t THEN 1110
                WHEN voyager.word_set('nds nintendods') ?| t OR t @> '{nintendo,ds}' THEN 1010
                WHEN voyager.word_set('psp') ?| t THEN 1020
                WHEN voyager.word_set('wiiu') ?| t THEN 1130
                WHEN voyager.word_set('wii') ?| t THEN 1030
                WHEN voyager.word_set('xboxone') ?| t THEN 1140
                WHEN voyager.word_set('xbox360 360') ?| t THEN 1050
                WHEN voyager.word_set('xbox') ?| t THEN 1040
                WHEN voyager.word_set('ps4') ?| t THEN 1180
                WHEN voyager.word_set('ps3') ?| t THEN 1080
                WHEN voyager.word_set('psvita vita') ?| t THEN 1120
                ELSE 1090 END
            WHEN voyager.word_set('dvd dvdr dvd9 dvd5') ?| t THEN 2070
            WHEN voyager.word_set('x264 bluray 1080p 720p') ?| t THEN 2040
            WHEN voyager.word_set('divx xvid') ?| t THEN 2030
            WHEN voyager.word_set('moovee movies movie cinema film films filme') ?| t THEN 2020
            WHEN voyager.word_set('uhdtv') ?| t THEN 5045
            WHEN voyager.word_set('hdtv') ?| t THEN 5040
            WHEN voyager.word_set('teevee tv tvseries series sitcoms tvshows') ?| t THEN 5050
            WHEN voyager.word_set('games game pcgame pcgames gamez') ?| t THEN 4050
            WHEN voyager.word_set('mac macintosh apple') ?| t THEN 4030
            WHEN voyager.word_set('iphone ipad ios') ?| t THEN 4060
            WHEN voyager.word_set('android') ?| t THEN 4070
            WHEN voyager.word_set('smartphone pocketpc palm symbian mobile') ?| t THEN 4040
            WHEN voyager.word_set('image iso isos') ?| t THEN 4020
            ELSE 4010 END;
        IF c IS NOT NULL THEN
            RETURN c;
        END IF;
    END IF;

    -- Nothing to go by: a hash or random name (32/40-hex, a long token of
    -- letters and digits), else Misc.
    IF s0 ~ ' [0-9a-f]{16,} ' OR substring(s0 FROM ' ([a-z0-9]{20,}) ') ~ '[0-9]' THEN
        RETURN 8020;
    END IF;
    RETURN 8010;
END $$;
COMMENT ON FUNCTION voyager.category_of(text, text[], text, integer) IS
    'The Newznab category of a release: from its name, else the inner name, else a spot''s category, '
    'else its groups, else 8020 (a hash or random name) or 8010; always an id of voyager.categories';

-- One batch of recategorize: the releases from id from_id on, batch of them in
-- id order, their category computed again (the name, the groups, the inner
-- name: a media title, else an NFO's, else the longest file name inside, a
-- line of release_texts' kind 2); only the rows whose category changes are
-- written. Resume from next_id.
CREATE FUNCTION voyager.recategorize_batch(from_id bigint, batch integer DEFAULT 10000,
                                           OUT looked bigint, OUT changed bigint, OUT next_id bigint)
LANGUAGE plpgsql VOLATILE
-- Planned for each batch's own ids (a generic plan guesses a third of the
-- table for id >= $1), and never JIT-compiled (half a second a batch).
SET plan_cache_mode = force_custom_plan SET jit = off AS $$
DECLARE
    upto bigint;
BEGIN
    SELECT count(*), max(id) INTO looked, upto
      FROM (SELECT id FROM voyager.releases WHERE id >= from_id ORDER BY id LIMIT batch) b;
    IF looked = 0 THEN
        changed := 0;
        next_id := from_id;
        RETURN;
    END IF;
    UPDATE voyager.releases r
       SET category = c.computed
      FROM (SELECT x.id,
                   voyager.category_of(x.name, gs.groups,
                       (SELECT l FROM voyager.release_texts t, string_to_table(t.text, E'\n') l
                         WHERE t.release_id = x.id AND t.kind IN (2, 3, 5)
                         ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(l) DESC, l
                         LIMIT 1)) AS computed
              FROM voyager.releases x
              JOIN voyager.group_sets gs ON gs.id = x.group_set_id
             WHERE x.id BETWEEN from_id AND upto) c
     WHERE r.id = c.id AND r.id BETWEEN from_id AND upto
       AND r.category IS DISTINCT FROM c.computed;
    GET DIAGNOSTICS changed = ROW_COUNT;
    next_id := upto + 1;
END $$;
COMMENT ON FUNCTION voyager.recategorize_batch(bigint, integer) IS
    'Recomputes the category of up to batch releases from id from_id on; writes only the changed rows; '
    'returns how many it looked at and changed, and the id to go on from';

-- All of them: batch after batch, each committed (CALL it outside a
-- transaction block), so a 100 M-row catalog is never one transaction.
CREATE PROCEDURE voyager.recategorize(batch integer DEFAULT 10000, from_id bigint DEFAULT 0,
                                      INOUT looked bigint DEFAULT NULL, INOUT changed bigint DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    b        record;
    at       bigint := from_id;
    reported timestamptz := clock_timestamp();
BEGIN
    IF batch IS NULL OR batch < 1 THEN
        RAISE EXCEPTION 'recategorize: batch must be at least 1, not %', batch;
    END IF;
    looked := 0;
    changed := 0;
    LOOP
        SELECT * INTO b FROM voyager.recategorize_batch(at, batch);
        EXIT WHEN b.looked = 0;
        looked := looked + b.looked;
        changed := changed + b.changed;
        at := b.next_id;
        COMMIT;
        IF clock_timestamp() - reported > interval '10 seconds' THEN
            RAISE NOTICE 'recategorize: % looked at, % changed, at id %', looked, changed, at;
            reported := clock_timestamp();
        END IF;
    END LOOP;
    RAISE NOTICE 'recategorize: % looked at, % changed', looked, changed;
END $$;
COMMENT ON PROCEDURE voyager.recategorize(integer, bigint, bigint, bigint) IS
    'CALL voyager.recategorize([batch[, from_id]]): every release''s category computed again, in committed '
    'id-ordered batches; only changed rows written; returns (looked, changed)';

COMMIT;
