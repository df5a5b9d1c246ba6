"""`cardgen serve`: the live preview page, in a real headless browser (Debian's chromium
and chromedriver, which `make test` installs), and its file-safety rules."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request

import pytest

from browser import chrome
from generator.load import Project
from generator.serve import serve


@pytest.fixture
def server(project):
    """`cardgen serve lastdance` on a free port of 127.0.0.1, stopped after the test."""
    address, stop = {}, threading.Event()
    thread = threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(), game="lastdance", port=0, stop=stop,
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}")))
    thread.start()
    deadline = time.monotonic() + 30
    while "url" not in address or _get(address["url"] + "/state.json").get("version", 0) < 1:
        assert time.monotonic() < deadline, "the preview was not built"
        time.sleep(0.1)
    yield address["url"]
    stop.set()
    thread.join(10)


def _get(url: str) -> dict:
    import json
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return json.loads(response.read())
    except (urllib.error.URLError, ConnectionError, ValueError):
        return {}


def test_serves_only_what_it_built(server):
    for path in ("/img/../../../etc/passwd", "/img/%2e%2e/cards/lastdance/cards.yaml",
                 "/cards/lastdance/cards.yaml", "/etc/passwd"):
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(server + path, timeout=5)
        assert exc.value.code == 404, path
    with urllib.request.urlopen(server + "/img/cards/princess-front.png", timeout=5) as response:
        assert response.headers["Content-Type"] == "image/png"
        assert response.read()[:4] == b"\x89PNG"


def _text(browser, by, selector) -> str:
    """An element's text, or "" while the page is replacing it (it updates itself)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        return browser.find_element(by, selector).text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def test_the_page_in_a_browser_updates_after_an_edit(project, server):
    from selenium.webdriver.common.by import By

    with chrome() as browser:
        browser.get(server + "/")
        figures = browser.find_elements(By.CSS_SELECTOR, "figure.card")
        assert len(figures) == 15  # 14 card types and the blank card, front and back each
        images = browser.find_elements(By.CSS_SELECTOR, "figure.card img")
        assert len(images) == 30 and all(
            browser.execute_script("return arguments[0].naturalWidth", img) > 0 for img in images)
        assert "effect is TBD" in browser.find_element(By.CSS_SELECTOR, ".problems").text
        # A designer renames the Princess; the page shows the new name within seconds.
        cards = project / "cards/lastdance/cards.yaml"
        cards.write_text(cards.read_text("utf-8").replace("name: 姫\n", "name: 姫君\n"), "utf-8")
        deadline = time.monotonic() + 15
        while "姫君" not in _text(browser, By.ID, "card-princess"):
            assert time.monotonic() < deadline, "the page did not update"
            time.sleep(0.3)
        # Invalid data: the report shows the error, the last good cards stay.
        cards.write_text(cards.read_text("utf-8").replace("copies: 2\n", "copies: two\n", 1), "utf-8")
        deadline = time.monotonic() + 15
        while "copies must be" not in _text(browser, By.CSS_SELECTOR, ".problems"):
            assert time.monotonic() < deadline, "the report did not update"
            time.sleep(0.3)
        assert len(browser.find_elements(By.CSS_SELECTOR, "figure.card")) == 15
        assert "last good cards" in browser.find_element(By.TAG_NAME, "body").text
