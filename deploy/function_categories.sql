-- Deploy voyager:function_categories to pg
-- Newznab categories from a release's name (seeds part 9): category_of() reads
-- the name, else the inner name the prober found, else a spot's category, else
-- the groups, else Other (Misc, or Hashed for a hash); recategorize() brings
-- the old rows in line, batch by batch.
--
-- Speed: category_of runs for every stored release (~4 µs a call, was ~9). A
-- name is lowercased and cut into words once: three replace() for the usual
-- . _ - separators, the regexp_replace only for a name with other characters.
-- Each word is then looked up once in one constant jsonb map, word -> the mask
-- of the sets it is in (category_map(), folded into the plan), and the masks
-- OR'd into m: a test for a word of a set is `m & category_bits('set') <> 0`
-- (& binds tighter than <>; category_bits() is folded too). The regexes left
-- run only when a cheap test (one regex for "other characters or maybe an
-- episode", a word's bit, a strpos) says they can match: each costs about a
-- third of a microsecond, and Postgres caches 32 compiled ones per backend.
BEGIN;

-- The word sets category_of tests, each one bit of the masks of its map: 'name'
-- for the words of a name, 'console' for a console name's platform, 'group' for
-- the words of the group names. A word may be in many sets of a map.
CREATE FUNCTION voyager.category_sets()
RETURNS TABLE (map text, bit_index integer, label text, words text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT * FROM (VALUES
        -- XXX: its tags or studios, then the format
        ('name', 0, 'xxx', 'xxx porn porno pornhub pornstar imageset pictureset hentai jav javhd milf brazzers '
                           'bangbros realitykings naughtyamerica blacked blackedraw tushy tushyraw evilangel '
                           'digitalplayground nubiles teamskeet mofos clips4sale onlyfans manyvids fakehub '
                           'sdx264xxx ktr yapg sexors hushhush'),
        ('name', 1, 'xxx_images', 'imageset pictureset photoset images pics jpg jpeg png'),
        ('name', 2, 'xxx_pack', 'pack siterip megapack collection'),
        ('name', 3, 'xxx_hd', '720p 1080p 1080i x264 h264 264 x265 h265 hevc 265 av1'),
        ('name', 4, 'xxx_sd', 'xvid divx dvdrip bdrip brrip'),
        ('name', 5, 'xxx_clip', 'wmv mp4 mov flv mpeg mpg m4v f4v avi'),
        ('name', 6, 'xxx_low', '480p 576p 360p sd sdx264xxx'),
        ('name', 7, 'uhd', '2160p 4320p 4k uhd'),
        ('name', 8, 'web', 'web webdl webrip webhd'),
        ('name', 9, 'streamer', 'amzn dsnp hmax atvp'),
        ('name', 10, 'dvd', 'dvdr dvd5 dvd9 dvd'),
        -- consoles, by platform tag (which one: the console map)
        ('name', 11, 'console', 'nds 3ds psp psv psvita wii wiiu wiiware xbox xbox360 x360 xboxone xbone xbla ps1 '
                                'psx ps2 ps3 ps4 ps5 ngc gamecube nsw nsp xci gba gbc snes n64 dreamcast'),
        -- video: a season, a language tag, a resolution, source or codec
        ('name', 12, 'season', 'season saison staffel seizoen series episode folge temporada stagione'),
        ('name', 13, 'ep_audio', 'flac mp3 epub pdf mobi azw3 cbr cbz m4b audiobook'),
        ('name', 14, 'ep_video', '720p 1080p 2160p x264 x265 h264 hevc mkv'),
        ('name', 15, 'lang', 'german ger deutsch french truefrench vf vff vfq vostfr subfrench dutch flemish nl '
                             'nlsub nlsubs spanish castellano latino esp italian ita swedish swesub danish dksubs '
                             'norwegian nordic finnish polish pl plsub russian rus czech hungarian portuguese '
                             'brazilian turkish hindi tamil telugu korean kor japanese jap chinese chs cht mandarin '
                             'cantonese greek hebrew arabic thai multi multi2 multi3 multi4 multi5 multi6 multi7 '
                             'multi8 multi9 multi10 multisubs'),
        ('name', 16, 'lang_sub', 'truefrench vostfr subfrench nlsub nlsubs swesub dksubs plsub castellano multisubs'),
        ('name', 17, 'video', '2160p 4320p 1080p 1080i 720p 576p 480p 360p uhd bluray blu bdrip brrip bd25 bd50 '
                              'bdmv bdremux remux webdl webrip webhd hdrip dvdrip dvdscr dvdr dvd5 dvd9 xvid divx '
                              'x264 x265 h264 h265 hevc avc av1 vc1 264 265 hdcam camrip telesync hdts telecine '
                              'hdtc vhsrip hdtv pdtv sdtv dsr dsrip tvrip hdtvrip sbs hsbs'),
        ('name', 18, 'musicvideo', 'mvid mdvdr mbluray musicvideo'),
        ('name', 19, 'sports', 'nfl nba nhl mlb mls ncaa ncaaf ncaab ufc wwe aew tna roh njpw mma bellator pfl '
                               'boxing wrestling wrestlemania smackdown formula1 f1 motogp moto2 nascar indycar wrc '
                               'wec dtm superbike sbk epl bundesliga laliga ligue1 uefa fifa rugby afl nrl cricket '
                               'ipl pga golf tennis atp wta wimbledon snooker darts cycling olympics superbowl nhra '
                               'ppv prix sport sports'),
        ('name', 20, 'anime', 'anime'),
        ('name', 21, 'docu', 'docu documentary documentaries doku dokumentation dokumentarfilm docuseries '
                             'documental documentaire'),
        ('name', 22, 'hevc', 'x265 h265 hevc 265'),
        ('name', 23, 'tv_hd', '720p 1080p 1080i bluray blu remux bdremux bd25 bd50 bdmv'),
        ('name', 24, 'tv_sd', '480p 576p 360p xvid divx dvdrip bdrip brrip hdtv pdtv sdtv dsr dsrip tvrip hdtvrip '
                              'x264 h264 264 dvdr dvd5 dvd9 dvd ntsc pal'),
        ('name', 25, '3d', '3d sbs hsbs halfsbs mvc'),
        ('name', 26, 'disc', 'remux bdremux bd25 bd50 bdmv untouched'),
        ('name', 27, 'bluray', 'bluray blu'),
        ('name', 28, 'disc_codec', 'avc vc1 mpeg2 complete'),
        ('name', 29, 'movie_dvd', 'dvdr dvd5 dvd9 dvd ntsc pal'),
        ('name', 30, 'hd', '720p 1080p 1080i'),
        ('name', 31, 'cam', 'cam camrip hdcam ts telesync hdts hdtsrip tc telecine hdtc scr screener dvdscr r5 '
                            'workprint'),
        ('name', 32, 'movie_sd', 'xvid divx dvdrip bdrip brrip 480p 576p 360p hdrip vhsrip hdtv pdtv sdtv tvrip dsr'),
        ('name', 33, 'movie_x264', 'bluray blu x264 h264 264 avc av1 vc1'),
        -- audio and books, by format
        ('name', 34, 'audiobook', 'audiobook audiobooks abook hoerbuch horbuch unabridged abridged audible m4b '
                                  'hoerspiel luisterboek ljudbok lydbog audiolibro'),
        ('name', 35, 'lossless', 'flac alac ape wav lossless 24bit 16bit hires dsd dsf dff sacd wv dvda'),
        ('name', 36, 'mp3', 'mp3 320kbps 256kbps 192kbps 128kbps kbps 320k 256k 192k v0 vbr aac m4a ogg opus wma '
                            '320'),
        ('name', 37, 'comics', 'cbr cbz cb7 cbt comic comics c2c manga webcomic'),
        ('name', 38, 'technical', 'packt oreilly apress manning wiley sybex wrox syngress sitepoint pragmatic '
                                  'dummies cookbook programming textbook springer mcgraw pearson addison elsevier'),
        ('name', 39, 'magazine', 'magazine magazines mag mags truepdf zinio economist forbes vogue esquire '
                                 'cosmopolitan newsweek businessweek fhm maxim playboy penthouse'),
        ('name', 40, 'pdf_epub', 'pdf epub'),
        ('name', 41, 'ebook', 'epub mobi azw azw3 kf8 kfx pdf ebook ebooks fb2 djvu prc'),
        -- other music, then software
        ('name', 42, 'software', 'discography discografia diskografie ost soundtrack vinyl album albums bootleg '
                                 'cdrip karaoke remixes ios iphone ipad ipa ipados android apk symbian blackberry '
                                 'wm5 wm6 windowsmobile pocketpc macos osx macosx dmg mac pcgame pcgames pcdvd '
                                 'fitgirl dodi elamigos steamrip gog iso udemy lynda pluralsight skillshare '
                                 'infiniteskills tutsplus cbtnuggets linkedin masterclass x64 x86 x32 win32 win64 '
                                 'win windows 32bit 64bit amd64 arm64 keygen keymaker crack cracked patch patched '
                                 'portable multilingual regged activator activated setup exe msi linux freebsd unix '
                                 'adobe microsoft autodesk autocad vmware corel coreldraw nero ableton serial vst '
                                 'vsti vst3'),
        ('name', 43, 'other_music', 'discography discografia diskografie ost soundtrack vinyl album albums bootleg '
                                    'cdrip karaoke remixes'),
        ('name', 44, 'ios', 'ios iphone ipad ipa ipados'),
        ('name', 45, 'android', 'android apk'),
        ('name', 46, 'mobile', 'symbian blackberry wm5 wm6 windowsmobile pocketpc'),
        ('name', 47, 'mac', 'macos osx macosx dmg mac'),
        ('name', 48, 'pc_game', 'pcgame pcgames pcdvd fitgirl dodi elamigos steamrip gog'),
        ('name', 49, 'iso', 'iso udemy lynda pluralsight skillshare infiniteskills tutsplus cbtnuggets linkedin '
                            'masterclass'),
        -- only to skip a test that cannot match: a month, two digits (a date), a word of a phrase we look for
        ('name', 50, 'month', 'january february march april may june july august september october november '
                              'december jan feb mar apr jun jul aug sep sept oct nov dec'),
        ('name', 51, 'two_digits', '00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 '
                                   '26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 '
                                   '52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 '
                                   '78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99'),
        ('name', 52, 'phrase', 'book graphic starch formula build'),
        -- tested on one of the last words (the bit of m says whether to look)
        ('name', 53, 'musicvideo_tag', 'x264 h264 x265 720p 1080p 2160p dvdrip hdtv web webrip bdrip bluray dvd'),
        ('name', 54, 'bluray_tag', 'bluray ray'),
        ('name', 55, 'codec_tag', 'x264 x265 h264 h265 hevc xvid 264 265 av1'),
        ('name', 56, 'scene_tag', 'web cd cdm cds cdr cdda vinyl vls lp ep sat fm dab dvb sbd aud bootleg promo 2cd '
                                  '3cd 4cd 5cd 6cd stream cable line radio'),
        ('name', 57, 'pc_group', 'codex plaza skidrow reloaded cpy empress tenoke rune flt fltdox hoodlum razor1911 '
                                 'prophet tinyiso darksiders doge kaos hi2u simplex delusional postmortem ali213 '
                                 '3dm vrex chronos goldberg'),
        -- a console name's platform
        ('console', 0, 'x360', 'xbox360 x360'),
        ('console', 1, 'dlc_xbla', 'dlc xbla'),
        ('console', 2, 'xboxone', 'xboxone xbone'),
        ('console', 3, 'xbox', 'xbox'),
        ('console', 4, 'wiiware', 'wiiware'),
        ('console', 5, 'wii', 'wii'),
        ('console', 6, 'vc_dlc', 'vc dlc'),
        ('console', 7, 'wiiu', 'wiiu'),
        ('console', 8, 'ps4', 'ps4'),
        ('console', 9, 'ps3', 'ps3'),
        ('console', 10, 'psv', 'psv psvita'),
        ('console', 11, 'psp', 'psp'),
        ('console', 12, '3ds', '3ds'),
        ('console', 13, 'nds', 'nds'),
        -- the words of the group names ("alt.binaries.sounds.mp3.complete_cd")
        ('group', 0, 'any', 'erotica erotic xxx porn ijsklontje hentai anime audiobook audiobooks hoerbuch '
                            'hoerbuecher ebook ebooks book books comics comic magazines magazine flac lossless mp3 '
                            'mp3s sounds music audio karaoke radio mvid musicvideos documentaries documentary '
                            'sports sport mma wrestling nfl nba nhl boxing motorsports f1 football soccer hockey '
                            'racing nds nintendods 3ds nintendo3ds psp wiiu wii xbox360 360 xboxone xbox ps3 ps4 '
                            'psvita vita console consoles gamecube dreamcast ps2 psx playstation nintendo emulators '
                            'roms dvd dvdr dvd9 dvd5 x264 bluray 1080p 720p divx xvid moovee movies movie cinema '
                            'film films filme hdtv uhdtv teevee tv tvseries series sitcoms tvshows games game '
                            'pcgame pcgames gamez mac macintosh apple iphone ipad ios android smartphone pocketpc '
                            'palm symbian mobile image iso isos warez 0day apps appz software linux cracks '
                            'utilities'),
        ('group', 1, 'erotica', 'erotica erotic xxx porn ijsklontje hentai'),
        ('group', 2, 'pictures', 'pictures pics images jpg imagesets'),
        ('group', 3, 'anime', 'anime'),
        ('group', 4, 'audiobook', 'audiobook audiobooks hoerbuch hoerbuecher'),
        ('group', 5, 'book', 'ebook ebooks book books'),
        ('group', 6, 'technical', 'technical textbooks textbook'),
        ('group', 7, 'magazine', 'magazines magazine'),
        ('group', 8, 'comics', 'comics comic'),
        ('group', 9, 'lossless', 'flac lossless'),
        ('group', 10, 'musicvideo', 'mvid musicvideos'),
        ('group', 11, 'video', 'video videos'),
        ('group', 12, 'music', 'music sounds'),
        ('group', 13, 'mp3', 'mp3 mp3s'),
        ('group', 14, 'audio', 'sounds music audio karaoke radio'),
        ('group', 15, 'warez', 'warez apps appz software'),
        ('group', 16, 'documentary', 'documentaries documentary'),
        ('group', 17, 'sports', 'sports sport mma wrestling nfl nba nhl boxing motorsports f1 football soccer '
                                'hockey racing'),
        ('group', 18, 'console', 'nds nintendods 3ds nintendo3ds psp wiiu wii xbox360 360 xboxone xbox ps3 ps4 '
                                 'psvita vita console consoles gamecube dreamcast ps2 psx playstation nintendo '
                                 'emulators roms'),
        ('group', 19, '3ds', '3ds nintendo3ds'),
        ('group', 20, 'nds', 'nds nintendods'),
        ('group', 21, 'nintendo', 'nintendo'),
        ('group', 22, 'ds', 'ds'),
        ('group', 23, 'psp', 'psp'),
        ('group', 24, 'wiiu', 'wiiu'),
        ('group', 25, 'wii', 'wii'),
        ('group', 26, 'xboxone', 'xboxone'),
        ('group', 27, 'x360', 'xbox360 360'),
        ('group', 28, 'xbox', 'xbox'),
        ('group', 29, 'ps4', 'ps4'),
        ('group', 30, 'ps3', 'ps3'),
        ('group', 31, 'psvita', 'psvita vita'),
        ('group', 32, 'dvd', 'dvd dvdr dvd9 dvd5'),
        ('group', 33, 'hd', 'x264 bluray 1080p 720p'),
        ('group', 34, 'sd', 'divx xvid'),
        ('group', 35, 'movies', 'moovee movies movie cinema film films filme'),
        ('group', 36, 'uhdtv', 'uhdtv'),
        ('group', 37, 'hdtv', 'hdtv'),
        ('group', 38, 'tv', 'teevee tv tvseries series sitcoms tvshows'),
        ('group', 39, 'games', 'games game pcgame pcgames gamez'),
        ('group', 40, 'mac', 'mac macintosh apple'),
        ('group', 41, 'ios', 'iphone ipad ios'),
        ('group', 42, 'android', 'android'),
        ('group', 43, 'mobile', 'smartphone pocketpc palm symbian mobile'),
        ('group', 44, 'iso', 'image iso isos')
    ) AS s (map, bit_index, label, words)
$$;
COMMENT ON FUNCTION voyager.category_sets() IS
    'The word sets of category_of by map (name, console, group), each one bit of a word''s mask in '
    'category_map(map); category_bits(labels, map) is the mask of some of them';

CREATE FUNCTION voyager.category_map(map_name text) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT coalesce(jsonb_object_agg(w, bits::text), '{}')
      FROM (SELECT w, bit_or(1::bigint << s.bit_index) AS bits
              FROM voyager.category_sets() s, unnest(string_to_array(s.words, ' ')) w
             WHERE s.map = map_name AND w <> ''
             GROUP BY w) x
$$;
COMMENT ON FUNCTION voyager.category_map(text) IS
    'A jsonb object, word -> the mask (a bigint, as text) of the category_sets() of the map that hold it; '
    'with a constant map it is folded into the plan once';

CREATE FUNCTION voyager.category_bits(labels text, map_name text DEFAULT 'name') RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
    want  text[] := string_to_array(labels, ' ');
    bits  bigint;
    found integer;
BEGIN
    SELECT bit_or(1::bigint << s.bit_index), count(*) INTO bits, found
      FROM voyager.category_sets() s
     WHERE s.map = map_name AND s.label = ANY (want);
    IF found <> cardinality(want) THEN
        RAISE EXCEPTION 'category_bits: not all of ''%'' are sets of the % map', labels, map_name;
    END IF;
    RETURN bits;
END $$;
COMMENT ON FUNCTION voyager.category_bits(text, text) IS
    'The mask of the space-separated labels of category_sets() of a map (default name): '
    '`m & category_bits(''a b'') <> 0` tests a mask for a word of set a or b; with constants it is folded '
    'into the plan once';

-- The mask of a word in a category_map() (0 for a word not in it).
CREATE FUNCTION voyager.word_bits(map jsonb, word text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((map ->> word)::bigint, 0)
$$;
COMMENT ON FUNCTION voyager.word_bits(jsonb, text) IS
    'The mask (a bigint as text) of a word in a category_map(), 0 for a word not in it; inlined by the planner';

-- The OR of the masks in a category_map() of the words of a string, each word
-- between two seps (' a b c ': no two seps in a row; 0 for a word not in the
-- map). One expression, which the planner inlines into the caller's: four words
-- at a time while there are more; from the 17th word on, a query.
CREATE FUNCTION voyager.word_mask_from(map jsonb, words text, sep text, first integer) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(bit_or((map ->> w)::bigint), 0) FROM unnest((string_to_array(words, sep))[first:]) w
$$;
COMMENT ON FUNCTION voyager.word_mask_from(jsonb, text, text, integer) IS
    'word_mask() of the words of a string from its field first on';

CREATE FUNCTION voyager.word_mask(map jsonb, words text, sep text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce((map ->> split_part(words, sep, 2))::bigint, 0) | coalesce((map ->> split_part(words, sep, 3))::bigint, 0)
         | coalesce((map ->> split_part(words, sep, 4))::bigint, 0) | coalesce((map ->> split_part(words, sep, 5))::bigint, 0)
         | CASE WHEN split_part(words, sep, 6) = '' THEN 0 ELSE
             coalesce((map ->> split_part(words, sep, 6))::bigint, 0) | coalesce((map ->> split_part(words, sep, 7))::bigint, 0)
             | coalesce((map ->> split_part(words, sep, 8))::bigint, 0) | coalesce((map ->> split_part(words, sep, 9))::bigint, 0)
           | CASE WHEN split_part(words, sep, 10) = '' THEN 0 ELSE
               coalesce((map ->> split_part(words, sep, 10))::bigint, 0) | coalesce((map ->> split_part(words, sep, 11))::bigint, 0)
               | coalesce((map ->> split_part(words, sep, 12))::bigint, 0) | coalesce((map ->> split_part(words, sep, 13))::bigint, 0)
             | CASE WHEN split_part(words, sep, 14) = '' THEN 0 ELSE
                 coalesce((map ->> split_part(words, sep, 14))::bigint, 0) | coalesce((map ->> split_part(words, sep, 15))::bigint, 0)
                 | coalesce((map ->> split_part(words, sep, 16))::bigint, 0) | coalesce((map ->> split_part(words, sep, 17))::bigint, 0)
               | CASE WHEN split_part(words, sep, 18) = '' THEN 0 ELSE
                   voyager.word_mask_from(map, words, sep, 18) END END END END
$$;
COMMENT ON FUNCTION voyager.word_mask(jsonb, text, text) IS
    'The OR of the masks (bigints as text) in a category_map() of the words of a string, each between two seps; '
    'inlined by the planner';

-- The platform of a console release, from s (see category_of).
CREATE FUNCTION voyager.console_category(s text) RETURNS integer
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    m bigint := voyager.word_mask(voyager.category_map('console'), s, ' ');
BEGIN
    RETURN CASE
        WHEN m & voyager.category_bits('x360', 'console') <> 0
             AND m & voyager.category_bits('dlc_xbla', 'console') <> 0 THEN 1070
        WHEN m & voyager.category_bits('xboxone', 'console') <> 0 OR strpos(s, ' xbox one ') > 0 THEN 1140
        WHEN m & voyager.category_bits('x360', 'console') <> 0 THEN 1050
        WHEN m & voyager.category_bits('xbox', 'console') <> 0 THEN 1040
        WHEN m & voyager.category_bits('wiiware', 'console') <> 0
             OR (m & voyager.category_bits('wii', 'console') <> 0
                 AND m & voyager.category_bits('vc_dlc', 'console') <> 0) THEN 1060
        WHEN m & voyager.category_bits('wiiu', 'console') <> 0 OR strpos(s, ' wii u ') > 0 THEN 1130
        WHEN m & voyager.category_bits('wii', 'console') <> 0 THEN 1030
        WHEN m & voyager.category_bits('ps4', 'console') <> 0 THEN 1180
        WHEN m & voyager.category_bits('ps3', 'console') <> 0 THEN 1080
        WHEN m & voyager.category_bits('psv', 'console') <> 0 THEN 1120
        WHEN m & voyager.category_bits('psp', 'console') <> 0 THEN 1020
        WHEN m & voyager.category_bits('3ds', 'console') <> 0 THEN 1110
        WHEN m & voyager.category_bits('nds', 'console') <> 0 THEN 1010
        ELSE 1090 END;
END $$;
COMMENT ON FUNCTION voyager.console_category(text) IS
    'category_of''s console subcategory, from the words of a name that has a platform tag';

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
