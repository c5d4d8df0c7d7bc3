"""The pages in a real browser: Debian's headless Chromium driven by
Playwright (playwright-core only: no browser downloads) through the sign-in,
a search, a release's page and an NZB download, on a phone-sized screen and a
desktop one; the screenshots are kept under var/test-artifacts/."""
from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "test-artifacts"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium package (scripts/setup.sh installs it)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_search_release_and_download_in_chromium(browser, live, keys, tmp_path, device):
    import nzb as nzb_pkg

    size = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}[device]
    context = browser.new_context(viewport=size, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.goto(f"{live.base}/search?q=harbor")                      # no session: the sign-in first
    assert "/login" in page.url
    page.fill("input[name=name]", "alice")
    page.fill("input[name=apikey]", keys["alice"])
    page.click("button:has-text('Sign in')")
    assert page.url.endswith("/search?q=harbor")
    results = page.locator("td.name a")
    assert results.count() == 5

    page.fill("input[name=q]", "silent harbor")
    page.select_option("select[name=cat]", "5030")                 # TV > SD
    page.click("form.search button")
    assert "cat=5030" in page.url
    assert page.locator("td.name a").count() == 2
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-search-{device}.png"), full_page=True)

    page.locator("td.name a", has_text="S01E03").click()
    assert "/release/" in page.url
    assert page.locator("h1").inner_text() == "Silent.Harbor.S01E03.720p.HDTV.x264-GRP"
    files = page.locator("table tbody tr")
    assert files.count() == 2 and "part1.rar" in files.first.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"web-release-{device}.png"), full_page=True)

    with page.expect_download() as info:
        page.click("a.button:has-text('Download NZB')")
    download = info.value
    assert download.suggested_filename == "Silent.Harbor.S01E03.720p.HDTV.x264-GRP.nzb"
    target = tmp_path / download.suggested_filename
    download.save_as(str(target))
    parsed = nzb_pkg.Nzb.from_file(target)
    assert len(parsed.files) == 2 and parsed.meta.title == "Silent.Harbor.S01E03.720p.HDTV.x264-GRP"

    # nothing runs (the pages have no scripts, the CSP allows none), nothing overflows the screen's width
    assert page.evaluate("document.scripts.length") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert not errors
    context.close()


@pytest.fixture
def judged_live(web_dsn, ids):
    """A real `voyager web` on a clone where one release is judged fake."""
    import psycopg

    from tests.web.catalog import FAKE, judge_fake
    from tests.web.conftest import start_server, stop_server

    with psycopg.connect(web_dsn, autocommit=True) as conn:
        judge_fake(conn, ids[FAKE])
    server = start_server(web_dsn)
    yield server
    stop_server(server.proc)


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_an_admin_finds_a_judged_release_reads_why_and_the_judges_panel(browser, judged_live, keys, device):
    from tests.web.catalog import FAKE, FAKE_PROGRAM

    size = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}[device]
    context = browser.new_context(viewport=size)
    page = context.new_page()
    base = judged_live.base
    page.goto(f"{base}/login?next=/search%3Fq%3Dharbor")
    page.fill("input[name=name]", "root")
    page.fill("input[name=apikey]", keys["root"])
    page.click("button:has-text('Sign in')")
    assert page.url.endswith("/search?q=harbor")
    names = page.locator("td.name a").all_inner_texts()
    assert len(names) == 4 and FAKE not in names                 # hidden from the admin too, unless asked
    assert page.locator("p.muted", has_text=" of ").inner_text().endswith("of 4")

    page.click("details.more summary")                          # the filters, then "judged too"
    page.check("input[name=judged]")
    page.click("form.search button")
    assert "judged=1" in page.url
    row = page.locator("tr", has=page.locator("td.name a", has_text=FAKE))
    assert row.count() == 1 and row.locator("span.tag", has_text="fake").count() == 1
    assert page.locator("p.muted", has_text=" of ").inner_text().endswith("of 5")

    row.locator("td.name a").click()
    assert page.locator("h1").inner_text() == FAKE
    facts = dict(zip(page.locator("dl dt").all_inner_texts(), page.locator("dl dd").all_inner_texts()))
    assert facts["Judged"].startswith("fake") and "hidden from listings, searches and totals" in facts["Judged"]
    assert facts["Rule"].startswith("a film, episode or music name whose content is a program")
    assert facts["What matched"] == f"programs: {FAKE_PROGRAM}" and facts["Rule set"] == "version 1"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-judged-release-{device}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    page.click("header a:has-text('Status')")
    assert page.url.endswith("/status")
    panel = page.locator("h2#judge + div table")
    heads = panel.locator("thead th").all_inner_texts()
    by_rule = {cells[0]: dict(zip(heads, cells)) for cells in
               (tr.locator("td").all_inner_texts() for tr in panel.locator("tbody tr").all())}
    assert list(by_rule) == ["dead", "fake", "repeated", "locked", "unusable"]
    assert by_rule["fake"]["releases"] == "1" and by_rule["locked"]["releases"] == "0"
    panel.screenshot(path=str(ARTIFACTS / f"web-status-judge-{device}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    context.close()
