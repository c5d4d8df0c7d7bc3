-- Deploy voyager:function_search_words to pg: the cut skipped for a text too short to need it
BEGIN;
-- Word search, and exact totals that stay cheap while the catalog grows and
-- changes under the searches.
--
-- A word is a run of letters and digits, lower-cased, at most 64 characters
-- (longer runs are cut into 64-character words, on both sides of a search
-- alike). voyager.search_words(text) is the one definition: the GIN index on
-- release_texts is built over it and every query's words go through it, so
-- what a search looks for and what was indexed cannot differ. The index's
-- posting lists are exact: a rare word costs its matches, not its trigrams'
-- (the trigram index stays for substrings). The index also holds, per text,
-- each word in its posting month ('@m202611:word') and the posting day
-- ('@d20261130', voyager.search_terms): a common word's newest matches are
-- found a month or a day at a time, newest first (voyager.search_words_page),
-- each probe reading the word's matches in that month, instead of reading all
-- its matches.
--
-- search_counts holds, per key, how many searchable releases (not hidden by
-- the judge) it has: '*' all of them, 'c:<category>' (a release without one
-- counts as 8010, Other > Misc, as the search shows it) and 'w:<word>' (a
-- release has a word when one of its texts has it) for the words in at least
-- search_tracked_min releases: a rarer word's search reads all its matches for
-- its page anyway and counts them in the same pass, and most words are rare
-- (a hash, a one-off title) - keeping their counts would cost the store more
-- than it saves. A search that finds a word past the mark asks for it
-- (search_promotions), and the fold counts it and tracks it from then on.
-- Statement triggers on releases, release_texts and release_judgements append
-- the changes each statement makes to search_count_deltas, in the writing
-- transaction: a snapshot's count (voyager.search_count) is the folded row
-- plus the deltas it sees, exact for that snapshot. Writers only ever append
-- (no hot counter row to wait on: concurrent stores never block each other
-- here); the tick folds the deltas into search_counts every
-- search_counts_seconds. Which words are tracked changes only under the
-- tracking lock (an advisory lock the texts' and judgements' triggers take
-- shared, till their commit): a word's first count sees every store that did
-- not see it tracked, and every later store sees it tracked.
-- Not STRICT: the planner inlines a STRICT SQL function only when it can prove
-- the body strict, which array_remove is not, and a call of a SQL function
-- costs about what the words do; the body gives null for null all the same.
-- A text shorter than 64 bytes has no run to cut: its cut, a regular
-- expression's scan of the text and a third of the words' cost, is skipped
-- (its size in bytes, read without decompressing it, bounds its characters).
CREATE OR REPLACE FUNCTION voyager.search_words(p_text text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE CALLED ON NULL INPUT COST 200 AS $$
    SELECT array_remove(regexp_split_to_array(CASE WHEN octet_length(p_text) < 64 THEN lower(p_text)
                                                   ELSE regexp_replace(lower(p_text), '([[:alnum:]]{64})', '\1 ', 'g') END,
                                              '[^[:alnum:]]+'), '')
$$;
COMMENT ON FUNCTION voyager.search_words(text)
    IS 'The searchable words of a text: runs of letters and digits, lower-cased, cut at 64 characters';
COMMIT;
