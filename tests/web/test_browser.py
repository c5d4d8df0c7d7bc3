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
