-- Deploy voyager:function_category_sets to pg
BEGIN;
-- Newznab categories from a release's name: category_of() reads
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
COMMIT;
