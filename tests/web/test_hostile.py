"""The web as a hostile client tries it: roles enforced, invalid text in any
parameter answered by its error, the search's settings through pgbouncer,
keys stored as hashes and never logged, a bad key refused by one lookup, the
sign-in limited per address and tied to its form."""
from __future__ import annotations

import logging
import re
import threading
import time
from urllib.parse import urlencode

import psycopg
import pytest

from tests.web.catalog import RELEASES
from tests.web.conftest import make_app
from tests.web.util import api, call, error_code, feed, login_form, post_login, sign_in

HARBOR = [n for n, *_ in RELEASES if n.startswith("Silent.Harbor")]


# -- the admin role -------------------------------------------------------------------

def test_the_status_page_and_judged_releases_are_an_admins(app, keys, ids, web_dsn):
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) VALUES (%s, true, 'fake')",
                     (ids[HARBOR[0]],))
    alice, root = sign_in(app, "alice", keys["alice"]), sign_in(app, "root", keys["root"])
    denied = call(app, "/status", headers=alice)
    assert denied.status == 403 and "status_groups" not in denied.text
    assert 'href="/status"' not in call(app, "/", headers=alice).text
    assert call(app, "/status", headers=root).status == 200
    assert 'href="/status"' in call(app, "/", headers=root).text

    # the API: a user's judged=1 is refused, an admin's lists the hidden release too
    assert error_code(api(app, t="search", q="harbor", judged="1", apikey=keys["alice"])) == 201
    assert feed(api(app, t="search", q="harbor", apikey=keys["alice"])).total == len(HARBOR) - 1
    assert feed(api(app, t="search", q="harbor", judged="1", apikey=keys["root"])).total == len(HARBOR)

    # the pages: a user's judged=1 is a problem shown and ignored, no checkbox offered
    page = call(app, "/search?" + urlencode({"q": "harbor", "judged": "1"}), headers=alice).text
    assert "an admin&#39;s" in page and HARBOR[0] not in _text(page) and 'name="judged"' not in page
    assert HARBOR[1] in _text(page)
    page = call(app, "/search?" + urlencode({"q": "harbor", "judged": "1"}), headers=root).text
    assert HARBOR[0] in _text(page) and 'name="judged"' in page


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


# -- invalid text -------------------------------------------------------------------------

# text PostgreSQL or XML cannot hold (a lone surrogate's bytes arrive as
# U+FFFD, valid text: the fuzz below sends them too)
BAD = ["a\x00b", "\x00", "x\x07y", "\x1b[0m", "\ufffe"]
SURROGATES = ["\ud800", "a\udfffb"]


def _api(app, **params):
    return call(app, "/api?" + urlencode(params, encoding="utf-8", errors="surrogatepass"))


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("name", ["q", "poster", "cat", "group", "limit", "offset", "maxage", "minsize", "attrs",
                                  "extended", "season", "tvdbid", "imdbid", "artist", "o", "judged", "id"])
def test_invalid_text_in_a_parameter_is_201(shared_app, keys, name, bad):
    t = {"season": "tvsearch", "tvdbid": "tvsearch", "imdbid": "movie", "artist": "music", "id": "details"}
    for fn in {t.get(name, "search"), "get"}:
        resp = _api(shared_app, t=fn, apikey=keys["alice"], **{name: bad})
        assert resp.status == 200
        assert error_code(resp) == 201, (fn, name, resp.text[:300])


@pytest.mark.parametrize("bad", BAD + SURROGATES)
def test_invalid_text_in_the_key_or_the_function(shared_app, keys, bad):
    for fn in ("search", "get", "details"):
        assert error_code(_api(shared_app, t=fn, q="harbor", apikey=bad)) == 100
        # the key's error before the parameter's
        assert error_code(_api(shared_app, t=fn, q=bad, apikey="f" * 32)) == 100
    assert error_code(_api(shared_app, t=bad, apikey=keys["alice"])) == 202
    assert error_code(_api(shared_app, t="caps", q=bad)) is None


def test_the_largest_offset_is_an_empty_page_with_the_total(shared_app, keys):
    for params in ({"q": "harbor"}, {}, {"cat": "5000"}, {"q": "harbor", "minsize": "1"}, {"q": "harb"}):
        f = feed(api(shared_app, t="search", apikey=keys["alice"], offset=str(2**31 - 1), **params))
        assert f.items == [] and f.offset == 2**31 - 1 and f.total > 0, params
    for past_int in (2**31, 2**31 + 5, 2**63 - 1):         # no page there: the offset is refused
        assert error_code(api(shared_app, t="search", apikey=keys["alice"], q="harbor", offset=str(past_int))) == 201


@pytest.mark.parametrize("bad", BAD)
def test_invalid_text_in_the_sign_in_form_is_the_forms_error(shared_app, keys, bad):
    token, cookie = login_form(shared_app)
    for field in ("name", "apikey", "next", "csrf"):
        data = {"name": "alice", "apikey": keys["alice"], "csrf": token, field: bad}
        body = urlencode(data, encoding="utf-8", errors="surrogatepass")
        resp = call(shared_app, "/login", "post", content=body,
                    headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
        assert resp.status in (400, 403), (field, resp.status)
        assert "voyager_session" not in resp.headers.get("set-cookie", "")
        assert '<form method="post" action="/login"' in resp.text


@pytest.mark.parametrize("bad", BAD)
def test_invalid_text_in_the_pages_fields(shared_app, keys, bad):
    alice = sign_in(shared_app, "alice", keys["alice"])
    for field in ("q", "poster", "group", "cat", "minsize", "page"):
        resp = call(shared_app, "/search?" + urlencode({field: bad}, encoding="utf-8", errors="surrogatepass"),
                    headers=alice)
        assert resp.status == 200, (field, resp.status, resp.text[:300])


# -- the search's settings through pgbouncer ----------------------------------------------

def _held_releases(dsn: str, seconds: float) -> threading.Thread:
    """The release texts locked for `seconds` by another connection: a search by words waits (the key check reads none)."""
    held = threading.Event()

    def hold():
        with psycopg.connect(dsn) as c:
            c.execute("LOCK TABLE voyager.release_texts IN ACCESS EXCLUSIVE MODE")
            held.set()
            time.sleep(seconds)
    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert held.wait(10)
    return holder


@pytest.mark.parametrize("through", ["pgbouncer", "direct"])
def test_a_search_has_its_statement_timeout_and_no_jit(through, request, web_dsn, keys, server_log, caplog):
    dsn = request.getfixturevalue("pooled_dsn") if through == "pgbouncer" else web_dsn
    dbname = server_log.dbname.decode()
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        # a server whose own defaults are the opposite of the web's
        for name, value in (("statement_timeout", "0"), ("jit", "on"), ("jit_above_cost", "0"),
                            ("jit_inline_above_cost", "-1"), ("jit_optimize_above_cost", "-1")):
            conn.execute(f'ALTER DATABASE "{dbname}" SET {name} = {psycopg.sql.quote(value)}')
    app = make_app(dsn, prepare=through == "direct", statement_timeout_ms=700)

    server_log.mark()
    assert feed(api(app, t="search", q="harbor", minsize="1", apikey=keys["alice"])).total == len(HARBOR)
    plans = [e for e in server_log.entries() if "plan:" in e and "search_page" in e]
    assert plans and all("JIT:" not in p and "jit = 'off'" in p for p in plans), plans[:1]

    # a search that would wait on a lock for 6 s is cancelled at its timeout
    holder = _held_releases(web_dsn, 6)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="voyager.web.api"):
        resp = api(app, t="search", q="harbor", minsize="2", apikey=keys["alice"], r=keys["alice"])  # not cached
    assert error_code(resp) == 900 and "timed out" in resp.text, (time.monotonic() - started, resp.text[-300:])
    assert time.monotonic() - started < 4
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "timed out" in logged and "harbor" in logged and keys["alice"] not in logged
    holder.join()                     # its lock let go before the clone is dropped


# -- keys ------------------------------------------------------------------------------------

def test_keys_are_stored_as_hashes_only(web_dsn, keys):
    with psycopg.connect(web_dsn) as conn:
        rows = conn.execute("SELECT api_key, api_key_hash, name FROM voyager.users").fetchall()
        dump = repr(conn.execute("SELECT u.* FROM voyager.users u").fetchall())
    assert rows and all(plain is None and len(h) == 32 for plain, h, _n in rows)
    assert not any(k in dump for k in keys.values())
    with psycopg.connect(web_dsn) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute("UPDATE voyager.users SET api_key = %s WHERE name = 'alice'", (keys["alice"],))


def test_a_bad_key_is_refused_by_one_indexed_lookup(web_dsn, keys, server_log):
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        # users enough that a scan of them would cost more than the index
        conn.execute("""INSERT INTO voyager.users (name, api_key_hash)
                        SELECT 'u' || i, voyager.api_key_hash(voyager.new_api_key()) FROM generate_series(1, 5000) i""")
        conn.execute("ANALYZE voyager.users")
    app = make_app(web_dsn)
    api(app, t="caps")                                   # the pool's start, out of the way
    for params in ({"t": "search", "q": "harbor", "minsize": "1"}, {"t": "search"}, {"t": "get", "id": "0" * 40},
                   {"t": "details", "id": "1"}, {"t": "tvsearch", "season": "1", "ep": "2"}):
        server_log.mark()
        assert error_code(api(app, apikey="f" * 32, **params)) == 100
        entries = server_log.entries()
        statements = [e for e in entries if e.startswith("LOG:  statement: ") or e.startswith("LOG:  execute ")]
        # (not the server's start: the categories, the outside IDs' kinds, the names it keeps)
        asked = [s for s in statements if "voyager.categories" not in s and "release_media_ids m" not in s
                 and "ORDER BY p.id DESC LIMIT" not in s]
        assert len(asked) == 1 and "voyager.api_use" in asked[0], (params, asked)
        plans = [e for e in entries if "plan:" in e]
        assert any("Index Scan using users_api_key_hash_key" in p for p in plans), params
        # a search's and a get's one statement hold the read behind the key's
        # code; what ran inside it (the functions' own statements) read nothing of it
        inside = [p for p in plans if "voyager.api_use(" not in p]
        assert inside and not any(w in p for p in inside for w in ("release_texts", "search_", "nzb_source")), params


def test_a_search_on_the_primary_checks_its_key_in_its_own_statement(web_dsn, keys, server_log):
    """Reads on the primary: the key's check and count and the search are one
    round trip; a document kept for the query needs the check alone (it says
    which state to serve); a wrong parameter is the key's check, then 201."""
    app = make_app(web_dsn)
    api(app, t="caps")                                   # the pool's start, out of the way

    def asked() -> list[str]:
        return [e for e in server_log.entries() if (e.startswith("LOG:  statement: ") or e.startswith("LOG:  execute "))
                and "voyager.categories" not in e and "release_media_ids m" not in e
                and "ORDER BY p.id DESC LIMIT" not in e]

    counts = []
    for _ in range(2):
        server_log.mark()
        resp = api(app, t="search", q="harbor", apikey=keys["alice"])
        assert feed(resp).total == len(HARBOR)
        counts.append(int(re.search(r'apicurrent="(\d+)"', resp.text).group(1)))
        ran = asked()
        assert all("voyager.api_use" in s for s in ran), ran
        if len(counts) == 1:
            assert len(ran) == 1 and "voyager.search_page" in ran[0], ran
        else:                                            # the kept document, at the state the check read
            assert len(ran) == 1 and "search_page" not in ran[0], ran
    assert counts[1] == counts[0] + 1                    # each counted once
    server_log.mark()
    assert error_code(api(app, t="search", q="harbor", cat="x", apikey=keys["alice"])) == 201
    ran = asked()
    assert len(ran) == 1 and "search_page" not in ran[0], ran


def test_the_account_page_shows_how_to_get_a_key_not_the_key(shared_app, keys):
    html = call(shared_app, "/account", headers=sign_in(shared_app, "alice", keys["alice"])).text
    assert keys["alice"] not in html and "voyager users set alice --new-key" in html


# -- the sign-in --------------------------------------------------------------------------

def test_the_sign_in_needs_its_forms_token(shared_app, keys):
    plain = call(shared_app, "/login", "post", data={"name": "alice", "apikey": keys["alice"]})
    assert plain.status == 403 and "voyager_session" not in plain.headers.get("set-cookie", "")
    token, cookie = login_form(shared_app)
    other_token, _other_cookie = login_form(shared_app)
    forged = call(shared_app, "/login", "post", data={"name": "alice", "apikey": keys["alice"], "csrf": other_token},
                  headers={"Cookie": cookie})
    assert forged.status == 403                         # a token of another browser's form
    no_cookie = call(shared_app, "/login", "post", data={"name": "alice", "apikey": keys["alice"], "csrf": token})
    assert no_cookie.status == 403
    assert post_login(shared_app, "alice", keys["alice"]).status == 303


def test_the_sign_in_is_limited_per_address(app, keys, web_dsn):
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        conn.execute("UPDATE voyager.settings SET value = '3' WHERE name = 'sign_in_failures'")
    for _ in range(3):
        assert post_login(app, "alice", "0" * 32).status == 401
    refused = post_login(app, "alice", keys["alice"])          # the right key, but too many guesses
    assert refused.status == 429 and "voyager_session" not in refused.headers.get("set-cookie", "")
    with psycopg.connect(web_dsn, autocommit=True) as conn:
        # another address is not held back, and the window passes
        assert conn.execute("SELECT user_id IS NOT NULL, throttled FROM voyager.sign_in('alice', %s, '192.0.2.9')",
                            (keys["alice"],)).fetchone() == (True, False)
        conn.execute("UPDATE voyager.sign_in_failures SET since = now() - interval '1 hour'")
    assert post_login(app, "alice", keys["alice"]).status == 303
