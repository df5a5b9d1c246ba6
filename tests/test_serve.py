"""`cardgen serve`: the live preview page, in a real headless browser (Debian's chromium
and chromedriver, which `make test` installs), and its file-safety rules."""

from __future__ import annotations

import io
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PIL import Image

from browser import chrome
from generator.load import Project
from generator.serve import serve


@contextmanager
def served(game: str, wait: float = 30, **options) -> Iterator[tuple[str, dict]]:
    """`cardgen serve GAME` (with serve's `options`, e.g. since=) on a free port of
    127.0.0.1: its address and its page's state once the first build is done (its cards,
    then the rest), stopped after the block."""
    address, stop = {}, threading.Event()
    thread = threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(), game=game, port=0, stop=stop, **options,
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}")))
    thread.start()
    try:
        deadline, state = time.monotonic() + wait, {}
        while not _built(state):
            assert time.monotonic() < deadline, "the preview was not built"
            time.sleep(0.1)
            state = _get(address["url"] + "/state.json") if "url" in address else {}
        yield address["url"], state
    finally:
        stop.set()
        thread.join(10)


@pytest.fixture
def server(project):
    """`cardgen serve lastdance` on a free port of 127.0.0.1, stopped after the test."""
    with served("lastdance") as (url, _state):
        yield url


def _built(state_or_url: dict | str) -> bool:
    """True once the first build is done: its cards (built_at) and the rest (not building)."""
    state = _get(state_or_url + "/state.json") if isinstance(state_or_url, str) else state_or_url
    return bool(state.get("built_at")) and not state.get("building")


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


def test_the_page_is_headed_by_the_games_title(server):
    """The preview page's heading and window title are the game's title (as its files show
    it), not its folder's id."""
    with urllib.request.urlopen(server + "/", timeout=5) as response:
        page = response.read().decode("utf-8")
    assert '<h1 id="title">ラストダンスは私に (Save the Last Dance for Me)</h1>' in page
    assert "<title>ラストダンスは私に (Save the Last Dance for Me) — cardgen preview</title>" \
        in page


def test_a_new_title_is_shown_at_once_and_a_card_without_a_name_by_its_id_once(project):
    """A change of game.yaml's title redrew the backs, but the page's heading and the
    window's title kept the old one until a reload; a title_en the same as the title was
    shown twice ("Vampire Band (Vampire Band)"), and a card without a name was captioned
    with its id twice ("rotation rotation ×2")."""
    from selenium.webdriver.common.by import By
    with served("vampire-band") as (url, _state), chrome() as browser:
        browser.get(url + "/")
        assert browser.find_element(By.ID, "title").text == "TBD"
        _until(lambda: _text(browser, By.ID, "card-rotation"), "no ROTATION card", 10)
        assert _text(browser, By.CSS_SELECTOR, "#card-rotation figcaption") == "rotation ×2"
        game = project / "cards/vampire-band/game.yaml"
        game.write_text(game.read_text("utf-8").replace(
            "\ntitle: TBD\n", "\ntitle: Vampire Band\ntitle_en: Vampire Band\n"), "utf-8")
        _until(lambda: browser.find_element(By.ID, "title").text == "Vampire Band",
               "the heading kept the old title", 30)
        assert browser.title == "Vampire Band — cardgen preview"


def _text(browser, by, selector) -> str:
    """An element's text, or "" while the page is replacing it (it updates itself)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        return browser.find_element(by, selector).text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def _content(browser, selector) -> str:
    """An element's whole text, collapsed groups included."""
    return browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : ''", selector)


def _rename_the_princess(project, browser):
    """A designer renames the Princess; returns the card file once the page shows it."""
    from selenium.webdriver.common.by import By
    cards = project / "cards/lastdance/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("name: 姫\n", "name: 姫君\n"), "utf-8")
    deadline = time.monotonic() + 15
    while "姫君" not in _text(browser, By.ID, "card-princess"):
        assert time.monotonic() < deadline, "the page did not update"
        time.sleep(0.3)
    return cards


def test_the_page_in_a_browser_updates_after_an_edit(project, server):
    from selenium.webdriver.common.by import By

    with chrome() as browser:
        browser.get(server + "/")
        figures = browser.find_elements(By.CSS_SELECTOR, "figure.card")
        assert len(figures) == 15  # 14 card types and the blank card, front and back each
        images = browser.find_elements(By.CSS_SELECTOR, "figure.card img")
        assert len(images) == 30
        # Pictures load when on screen (loading=lazy): each one, scrolled to, loads.
        for image in images:
            browser.execute_script("arguments[0].scrollIntoView()", image)
            _until(lambda: browser.execute_script("return arguments[0].naturalWidth", image) > 0,
                   "a picture did not load", 10)
        browser.execute_script("window.scrollTo(0, 0)")
        assert "effect is TBD" in _content(browser, ".problems")
        # A designer renames the Princess; the page shows the new name within seconds.
        cards = _rename_the_princess(project, browser)
        # Invalid data: the report shows the error, the last good cards stay.
        cards.write_text(cards.read_text("utf-8").replace("copies: 2\n", "copies: two\n", 1),
                         "utf-8")
        deadline = time.monotonic() + 15
        while "copies must be" not in _content(browser, ".problems"):
            assert time.monotonic() < deadline, "the report did not update"
            time.sleep(0.3)
        assert len(browser.find_elements(By.CSS_SELECTOR, "figure.card")) == 15
        assert "last good cards" in browser.find_element(By.TAG_NAME, "body").text


def test_cards_come_first_and_can_be_found_by_search_and_deck(project, server):
    from selenium.webdriver.common.by import By
    with chrome() as browser:
        browser.set_window_size(1200, 900)
        browser.get(server + "/")
        top = browser.execute_script(
            "return [document.getElementById('gallery').getBoundingClientRect().top,"
            " document.getElementById('report').getBoundingClientRect().top]")
        assert top[0] < top[1] and top[0] < 200  # the gallery above the report, on screen
        status = browser.find_element(By.ID, "status").text
        assert "0 errors" in status and "drafts" in status and "last good build" in status

        def shown():
            return [f.get_attribute("id") for f in browser.find_elements(By.CSS_SELECTOR,
                                                                         "figure.card")
                    if f.is_displayed()]
        assert len(shown()) == 15
        search = browser.find_element(By.ID, "search")
        search.send_keys("prince")
        assert set(shown()) == {"card-princess", "card-prince", "card-foreign-prince",
                                "card-princes-butler"}, shown()
        search.clear()
        search.send_keys("姫")  # by name too
        assert shown() == ["card-princess"]
        search.clear()
        browser.find_element(By.ID, "only-drafts").click()
        expected = browser.execute_script(
            "return state.cards.filter(c => c.draft).map(c => 'card-' + c.id)")
        assert 0 < len(expected) < 15 and shown() == expected
        browser.find_element(By.ID, "only-drafts").click()
        tabs = browser.find_elements(By.CSS_SELECTOR, "#tabs button")
        assert [b.text for b in tabs][0] == "All decks" and len(tabs) == 2
        tabs[1].click()
        assert len(shown()) == 15  # Last Dance has one deck
        # Each card names itself in its pictures' alt text.
        alts = [i.get_attribute("alt") for i in browser.find_elements(By.CSS_SELECTOR,
                                                                       "#card-princess img")]
        assert alts == ["姫", "back of 姫"]


def test_a_card_opens_at_print_size_and_the_arrows_move_on(project, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    with chrome() as browser:
        browser.get(server + "/")
        browser.find_element(By.ID, "card-princess").click()
        zoom = browser.find_element(By.ID, "zoom")
        assert zoom.is_displayed() and "princess" in zoom.text
        width, height = browser.execute_script(
            "const i = document.querySelector('#zoom .faces img');"
            "const r = i.getBoundingClientRect(); return [r.width, r.height]")
        assert abs(width - 91 / 25.4 * 96) <= 1 and abs(height - 55 / 25.4 * 96) <= 1
        assert "effect" in zoom.text  # its data fields
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        assert "princess" not in browser.find_element(By.CSS_SELECTOR, "#zoom h2").text
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        assert not browser.find_element(By.ID, "zoom").is_displayed()


def test_the_page_sets_japanese_in_the_projects_own_font(project, server):
    with chrome() as browser:
        browser.get(server + "/")
        covered = browser.execute_async_script(
            "const done = arguments[0];"
            "document.fonts.load('13px cardgen-main', '姫').then(() =>"
            " done(document.fonts.check('13px cardgen-main', '姫') &&"
            " [...document.fonts].some(f => f.family.includes('cardgen-main') &&"
            " f.status === 'loaded')));")
        assert covered is True
        assert browser.execute_script("return document.documentElement.lang") == "ja"


def test_an_edit_updates_the_page_in_place_keeping_the_scroll(project, server):
    with chrome() as browser:
        browser.set_window_size(900, 600)
        browser.get(server + "/")
        browser.execute_script("window.notReloaded = true; window.scrollTo(0, 400)")
        _rename_the_princess(project, browser)
        assert browser.execute_script("return window.notReloaded") is True
        assert abs(browser.execute_script("return window.scrollY") - 400) <= 2


def test_the_stats_view_draws_the_pdfs_charts_in_the_games_font(project, server):
    """The Stats view: the same reportlab charts as the stats PDF, built as inline SVG from
    the page's JSON, with values and labels as text in the project's font; the odds of Last
    Dance's opening are there; no inline style was refused by the page's policy."""
    from selenium.webdriver.common.by import By

    with chrome() as browser:
        browser.set_window_size(1100, 900)
        browser.get(server + "/")
        assert not browser.find_element(By.ID, "stats").is_displayed()
        browser.find_element(By.ID, "view-stats").click()
        assert browser.find_element(By.ID, "stats").is_displayed()
        assert not browser.find_element(By.ID, "gallery").is_displayed()
        assert browser.find_element(By.ID, "view-stats").get_attribute("aria-pressed") == "true"
        assert browser.execute_script(
            "return getComputedStyle(document.getElementById('view-stats')).backgroundColor") == \
            "rgb(43, 47, 58)"
        charts = browser.find_elements(By.CSS_SELECTOR, "#stats figure.chart svg")
        assert len(charts) == 4  # copies per card, cards per table, two odds questions
        texts = browser.execute_script(
            "return [...document.querySelectorAll('#stats svg text')].map(t => t.textContent)")
        assert {"姫", "勝気な貴公子", "4 players", "8 players", "5%", "3.16%", "25%",
                "12.5%"} <= set(texts)
        fonts = browser.execute_script(
            "return [...document.querySelectorAll('#stats svg text')].map(t =>"
            " getComputedStyle(t).fontFamily)")
        assert all(f.startswith("cardgen-main") for f in fonts)
        bars = browser.execute_script(
            "return [...document.querySelectorAll('#stats svg rect')].filter(r =>"
            " r.getAttribute('fill') && r.getBBox().width > 0).length")
        assert bars >= 15 + 5 + 5 + 5
        tables = browser.find_elements(By.CSS_SELECTOR, "#stats table")
        assert [c.text for c in tables[0].find_elements(By.CSS_SELECTOR, "tr:last-child td")] == \
            ["total", "16", "20", "24", "28", "32"]
        lines = browser.find_element(By.ID, "stats").text
        assert "4 players: a hand of 4 from 16: 1/20 = 5.00%, 1 in 20.0" in lines
        refused = [e for e in browser.get_log("browser")
                   if "Content Security Policy" in e["message"]]
        assert not refused, refused
        browser.save_screenshot(str(project / "stats-view.png"))


def test_a_font_registered_again_from_a_removed_folder_is_still_served(tmp_path):
    """`serve --changes-since REV` builds REV from a temporary checkout: the same font
    registered from there, then removed, must not hide the project's file (the page's
    fonts failed with FileNotFoundError, and fell back to the system's)."""
    import shutil
    from pathlib import Path
    from generator import fonts
    project_font = Path(__file__).resolve().parent.parent / "fonts/BIZUDPGothic-Regular.ttf"
    name = fonts.register(project_font)
    copy = tmp_path / "checkout" / "fonts" / project_font.name
    copy.parent.mkdir(parents=True)
    shutil.copyfile(project_font, copy)
    assert fonts.register(copy) == name  # the same font: the same name
    shutil.rmtree(tmp_path / "checkout")
    found = fonts.file_of(name)  # the project's file (or another test's copy that still is)
    assert found is not None and found.is_file() and found.read_bytes() == project_font.read_bytes()


def _start(project, port=0, stop=None, game="lastdance"):
    """A `cardgen serve GAME` on `port`; (its URL, its stop event), as soon as it listens."""
    address, stop = {}, stop or threading.Event()
    threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(), game=game, port=port, stop=stop,
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}"))).start()
    deadline = time.monotonic() + 10
    while "url" not in address:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return address["url"], stop


def _until(check, what, seconds=30):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_a_page_opened_during_the_first_build_gets_the_fonts_and_says_no_lie(project):
    """Opened before the first build is done, the page has no fonts yet: it claims no 'last
    good cards' it does not have, and once the build knows the fonts it loads them."""
    url, stop = _start(project)
    try:
        with chrome() as browser:
            browser.get(url + "/")
            _until(lambda: browser.execute_script(
                "return [...document.styleSheets].some(s => [...s.cssRules].some("
                "r => r.cssText.includes('@font-face')))"), "the page never got the fonts")
            _until(lambda: _built(url), "no build")
            banner = browser.find_element("id", "banner")
            assert not banner.is_displayed()  # lastdance has no errors: no error banner
    finally:
        stop.set()


def test_a_stopped_server_is_said_and_a_restarted_one_reloads_the_page(project):
    url, stop = _start(project)
    _until(lambda: _built(url), "no build")
    port = int(url.rsplit(":", 1)[1])
    with chrome() as browser:
        browser.get(url + "/")
        first = browser.execute_script("return state.server")
        stop.set()
        _until(lambda: browser.find_element("id", "stopped").is_displayed(),
               "the page did not notice the server stopped")
        time.sleep(0.5)
        _, again = _start(project, port=port)
        try:
            _until(lambda: browser.execute_script(
                "return typeof state !== 'undefined' && state.server") not in (None, first),
                "the page did not come back to the new server")
            assert not browser.find_element("id", "stopped").is_displayed()
        finally:
            again.set()


def test_an_update_keeps_the_gallery_whole_and_unchanged_pictures_cached(project, server):
    """A save replaces what changed in place: the gallery never collapses (sampled every
    frame while the page updates), and a card that did not change keeps its picture URL."""
    with chrome() as browser:
        browser.get(server + "/")
        before = browser.execute_script(
            "window.widths = []; const f = () => { widths.push(document.getElementById('cards')"
            ".getBoundingClientRect().width); requestAnimationFrame(f); }; f();"
            "return document.querySelector('#card-prince img').getAttribute('src')")
        _rename_the_princess(project, browser)
        time.sleep(0.5)
        widths = browser.execute_script("return widths")
        assert min(widths) >= 0.95 * max(widths), (min(widths), max(widths))
        assert browser.execute_script(
            "return document.querySelector('#card-prince img').getAttribute('src')") == before


def test_the_report_leads_to_the_card_and_the_editor_and_the_zoom_is_sharp(project, monkeypatch):
    monkeypatch.setenv("CARDGEN_EDITOR", "vscode://file/{path}:{line}:{col}")
    url, stop = _start(project)
    try:
        _until(lambda: _built(url), "no build")
        with chrome() as browser:
            browser.get(url + "/")
            link = browser.find_element("css selector", ".problems a.place")
            href = link.get_attribute("href")
            assert href.startswith("vscode://file/") and "/cards/lastdance/cards.yaml:" in href
            summaries = browser.execute_script(
                "return [...document.querySelectorAll('.problems summary')]"
                ".map(s => s.textContent)")
            assert any(s.startswith("Princess (princess)") or s.startswith("姫 (princess)")
                       for s in summaries), summaries
            browser.execute_script("document.querySelector('.problems details').open = true")
            # (clicked as a user does, by the page's own handler: pictures still loading
            # above it move the report while selenium aims)
            browser.execute_script("document.querySelector('.problems button.to-card').click()")
            _until(lambda: browser.find_element("id", "zoom").is_displayed(), "no zoom")
            _until(lambda: browser.execute_script(
                "const i = document.querySelector('#zoom .faces img'); return i.complete && "
                "i.naturalWidth > 0"), "the zoomed face did not load")
            natural, shown = browser.execute_script(
                "const i = document.querySelector('#zoom .faces img');"
                "return [i.naturalWidth, i.getBoundingClientRect().width]")
            assert natural >= 2 * shown, (natural, shown)
    finally:
        stop.set()


def test_the_page_fits_a_phone_and_answers_head_and_favicon(server):
    import urllib.request
    with urllib.request.urlopen(urllib.request.Request(server + "/", method="HEAD"),
                                timeout=5) as r:
        assert r.status == 200 and r.read() == b""
    with urllib.request.urlopen(server + "/favicon.ico", timeout=5) as r:
        assert r.status == 204
    with chrome() as browser:
        browser.set_window_size(390, 844)
        browser.get(server + "/")
        assert browser.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert browser.find_element("css selector", "meta[name=viewport]")


def test_an_unchanged_state_is_not_sent_again(server):
    import urllib.request
    with urllib.request.urlopen(server + "/state.json", timeout=5) as r:
        tag = r.headers["ETag"]
    request = urllib.request.Request(server + "/state.json", headers={"If-None-Match": tag})
    with pytest.raises(urllib.error.HTTPError) as answer:  # urllib raises on 304
        urllib.request.urlopen(request, timeout=5)
    assert answer.value.code == 304


def test_a_failing_game_check_still_shows_the_new_card(project, server):
    """A new card breaks a game-level check (8 players use every card): the preview still
    shows it, laid out as it is, with the error banner; a card with an error of its own keeps
    its last good version and says so."""
    from selenium.webdriver.common.by import By
    cards = project / "cards/lastdance/cards.yaml"
    with chrome() as browser:
        browser.get(server + "/")
        cards.write_text(cards.read_text("utf-8") + "  - id: jester\n    name: 道化師\n"
                         "    name_en: Jester\n    copies: 1\n    effect: TBD\n", "utf-8")
        _until(lambda: browser.find_elements(By.ID, "card-jester"), "the new card is not shown")
        assert browser.find_element(By.ID, "banner").is_displayed()
        assert "eight-players-use-all" in _content(browser, ".problems")
        cards.write_text(cards.read_text("utf-8").replace("copies: 2\n", "copies: two\n", 1),
                         "utf-8")
        _until(lambda: "last good version" in _text(browser, By.CSS_SELECTOR, "figure.held"),
               "a card with an error of its own does not say it is held")


def test_the_view_is_in_the_address_and_the_zoom_keeps_the_focus(project, server):
    """The deck tab, the search, the filters and the open card are in the page's address (a
    reload or a link opens the same view); the zoom holds the focus while open, and gives it
    back to the card it came from."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    with chrome() as browser:
        press = lambda key: ActionChains(browser).send_keys(key).perform()  # noqa: E731
        browser.get(server + "/")
        browser.find_element(By.ID, "search").send_keys("prince")
        card = browser.find_element(By.ID, "card-prince")
        browser.execute_script("arguments[0].scrollIntoView(); arguments[0].focus()", card)
        press(Keys.ENTER)
        _until(lambda: browser.find_element(By.ID, "zoom").is_displayed(), "no zoom")
        assert browser.execute_script("return location.hash") == "#q=prince&card=prince"
        for _ in range(3):  # Tab goes round inside the zoom
            press(Keys.TAB)
            assert browser.execute_script(
                "return document.getElementById('zoom').contains(document.activeElement)")
        press(Keys.ESCAPE)
        assert browser.execute_script("return document.activeElement.id") == "card-prince"
        browser.get(server + "/#q=prince&card=princess")  # a link to a view
        browser.refresh()
        _until(lambda: browser.find_element(By.ID, "zoom").is_displayed(), "the link's card")
        assert browser.find_element(By.ID, "search").get_attribute("value") == "prince"
        assert "姫" in browser.find_element(By.CSS_SELECTOR, "#zoom h2").text


def test_drafts_are_still_counted_while_the_data_does_not_even_load(project, server):
    """A YAML syntax error stops the game loading: the page keeps the last good cards and
    their drafts (said as of the last good build), so the draft badges and count stay."""
    cards = project / "cards/lastdance/cards.yaml"
    cards.write_text(cards.read_text("utf-8") + "  - {id: broken\n", "utf-8")
    _until(lambda: any(p["check"] == "yaml"
                       for p in _get(server + "/state.json").get("problems", [])),
           "the syntax error is not reported")
    problems = _get(server + "/state.json")["problems"]
    drafts = [p for p in problems if p["check"] == "draft"]
    assert len(drafts) == 14 and all(p["message"].endswith("(as of the last good build)")
                                     for p in drafts)
    assert sum(1 for p in drafts if p["card"] == "princess") == 1


def test_the_zoom_can_show_the_guides(project, server):
    """In the zoom, *Show guides* draws the card again with its trim, bleed and safe lines
    and every element's box, as `build --guides` does."""
    import urllib.request
    state = _get(server + "/state.json")
    front = next(c for c in state["cards"] if c["id"] == "princess")["front"]
    with urllib.request.urlopen(f"{server}/zoom/{front}", timeout=30) as r:
        plain = r.read()
    with urllib.request.urlopen(f"{server}/zoom/{front}?guides=1", timeout=30) as r:
        guided = r.read()
    assert plain[:4] == guided[:4] == b"\x89PNG" and plain != guided
    with chrome() as browser:
        browser.get(server + "/#card=princess")
        _until(lambda: browser.find_element("id", "zoom").is_displayed(), "no zoom")
        browser.execute_script("document.getElementById('guides').click()")
        _until(lambda: "guides=1" in browser.execute_script(
            "return document.querySelector('#zoom .faces img').getAttribute('src')"), "no guides")
        assert browser.find_element("id", "guides").text == "Hide guides"


def test_an_address_changed_on_the_open_page_shows_its_view(project, server):
    """A link to #card=… followed on an open page (or the address edited) opens that card's
    zoom, and an address without a card closes it: the page read its address only when it
    loaded (a tester's note)."""
    with chrome() as browser:
        browser.get(server + "/")
        _until(lambda: _text(browser, "id", "status"), "no page")
        assert not browser.find_element("id", "zoom").is_displayed()
        browser.execute_script("location.hash = 'card=princess'")
        _until(lambda: browser.find_element("id", "zoom").is_displayed(), "no zoom")
        assert "princess" in browser.execute_script("return open")
        browser.execute_script("location.hash = 'deck='")
        _until(lambda: not browser.find_element("id", "zoom").is_displayed(), "zoom kept")


MANY = 600  # cards: more than the page keeps in it at once (page.js: ALL_BELOW)


def _many_cards(project):
    """A game of MANY cards, each its name and nothing else: quick to draw."""
    folder = project / "cards/many"
    folder.mkdir()
    (project / "layouts/many.yaml").write_text(
        "size: meishi\nelements:\n"
        "  - {name: n, type: text, text: \"{{ card.name }}\", size: 9pt}\n", "utf-8")
    (folder / "game.yaml").write_text(
        "title: Many\ndecks:\n  - {id: main, cards: cards.yaml, front: many, back: many,"
        " backs: duplex}\n", "utf-8")
    (folder / "cards.yaml").write_text("cards:\n" + "".join(
        f"  - {{id: c{n}, name: N{n}}}\n" for n in range(MANY)), "utf-8")
    return folder / "cards.yaml"


def test_a_big_gallery_keeps_only_the_cards_in_sight_and_sends_only_what_changed(project):
    """600 cards: the page holds the figures of the rows in sight and a few screens around,
    placed where the whole gallery would have them (its height is every row's); scrolled
    to the end, the last card is there; search reaches any card. A save sends the page only
    the card that changed (with every card's order), and the page shows it."""
    import json
    cards = _many_cards(project)
    url, stop = _start(project, game="many")
    try:
        _until(lambda: _built(url), "no build", 120)
        with chrome() as browser:
            browser.set_window_size(1200, 800)
            browser.get(url + "/")
            count = lambda: browser.execute_script(  # noqa: E731
                "return document.querySelectorAll('figure.card').length")
            assert 0 < count() < MANY / 2
            height = browser.execute_script("return document.getElementById('cards').offsetHeight")
            browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            _until(lambda: browser.find_elements("id", f"card-c{MANY - 1}"), "the last card")
            assert 0 < count() < MANY / 2
            assert browser.execute_script(
                "return document.getElementById('cards').offsetHeight") == height
            last = browser.find_element("id", f"card-c{MANY - 1}")
            assert last.is_displayed() and f"N{MANY - 1}" in last.text
            browser.execute_script("window.scrollTo(0, 0)")
            search = browser.find_element("id", "search")
            search.send_keys("N333")
            _until(lambda: count() == 1 and browser.find_elements("id", "card-c333"), "search")
            search.clear()
            search.send_keys("N")  # every card again: the gallery as tall as before
            assert browser.execute_script(
                "return document.getElementById('cards').offsetHeight") == height
            search.clear()
            with urllib.request.urlopen(url + "/state.json", timeout=5) as r:
                tag, version = r.headers["ETag"], json.loads(r.read())["version"]
            cards.write_text(cards.read_text("utf-8").replace("name: N5}", "name: Five}"), "utf-8")
            _until(lambda: "Five" in _text(browser, "id", "card-c5"), "the edit")
            request = urllib.request.Request(url + f"/state.json?since={version}",
                                             headers={"If-None-Match": tag})
            with urllib.request.urlopen(request, timeout=5) as r:
                state = json.loads(r.read())
            assert state["delta"] and [c["id"] for c in state["cards"]] == ["c5"]
            assert len(state["order"]) == MANY and state["order"][:2] == ["c0", "c1"]
            with urllib.request.urlopen(url + f"/state.json?since={version}", timeout=5) as r:
                assert len(json.loads(r.read())["cards"]) == MANY  # no ETag: not known, all
    finally:
        stop.set()


def test_the_sheet_view_shows_the_sheets_as_build_imposes_them(project, server, cardgen):
    """The Sheets view has a figure for every sheet `cardgen build` writes, its fronts and
    its back page drawn at the paper's size (A4 at the view's 60 dpi); a sheet's picture is
    the very page of the fronts PDF: its dark pixels are where the PDF's are."""
    import io

    import pypdf
    import pypdfium2
    from PIL import Image
    assert cardgen("build", "lastdance").code == 0
    fronts = next((project / "output/lastdance").glob("*-fronts.pdf"))
    pages = len(pypdf.PdfReader(fronts).pages)
    with chrome() as browser:
        browser.get(server + "/#view=sheets")
        _until(lambda: len(browser.find_elements("css selector", "#sheet-list figure")) == pages,
               "not every sheet")
        assert browser.find_element("id", "sheets").is_displayed()
        assert not browser.find_element("id", "gallery").is_displayed()
        first = browser.find_element("id", "sheet-1")
        assert "Sheet 1:" in first.text and "cards" in first.text
        _until(lambda: browser.execute_script(
            "return [...document.querySelectorAll('#sheet-1 img')].every(i => i.naturalWidth)"),
            "the sheet's pictures did not load")
        widths = browser.execute_script(
            "return [...document.querySelectorAll('#sheet-1 img')].map(i => i.naturalWidth)")
        assert len(widths) == 2 and all(abs(w - 210 / 25.4 * 60) <= 1 for w in widths)
    name = _get(server + "/state.json")["sheets"][0]["front"]
    with urllib.request.urlopen(f"{server}/img/{name}", timeout=30) as r:
        shown = Image.open(io.BytesIO(r.read())).convert("L")
    printed = pypdfium2.PdfDocument(str(fronts))[0].render(scale=60 / 72).to_pil().convert("L")
    # pdfium rounds the pixels up (496.06 -> 497); the view's picture is the size rounded
    assert shown.size == (round(210 / 25.4 * 60), round(297 / 25.4 * 60))
    printed = printed.crop((0, 0) + shown.size)
    dark = lambda im: {(x // 6, y // 6) for x in range(0, im.width, 3)  # noqa: E731
                       for y in range(0, im.height, 3) if im.getpixel((x, y)) < 128}
    assert len(dark(printed)) > 1000  # cards printed dark (Last Dance's maroon)
    assert len(dark(shown) ^ dark(printed)) <= 0.02 * len(dark(printed))


def test_a_sheet_two_decks_share_names_both_and_is_under_each_decks_tab(project, cardgen):
    """Cards of two decks printed on one sheet (6 of one, 3 of the other on a 9-up sheet):
    the Sheets view named only the last deck ("Sheet 1: More cards, 9 cards") and showed the
    sheet under that deck's tab alone."""
    assert cardgen("new", "share", "--lang", "en", "--paper", "letter").code == 0
    game = project / "cards/share/game.yaml"
    deck = re.search(r"(?ms)^  - id: cards\n.*?(?=^rulebook:)", game.read_text("utf-8")).group()
    game.write_text(game.read_text("utf-8").replace("rulebook:", deck.replace(
        "id: cards", "id: more").replace("name: Cards", "name: More cards").replace(
        "cards: cards.yaml", "cards: more.yaml") + "rulebook:", 1), "utf-8")
    (project / "cards/share/more.yaml").write_text(
        "cards:\n  - {id: sage, name: Sage, cost: 1, text: Look., copies: 3}\n", "utf-8")
    with served("share") as (url, state), chrome() as browser:
        assert [(s["decks"], s["deck_names"], s["cards"]) for s in state["sheets"]] == \
            [(["cards", "more"], ["Cards", "More cards"], 9)]
        for tab in ("cards", "more"):
            browser.get(f"{url}/#view=sheets&deck={tab}")
            _until(lambda: _text(browser, "id", "sheet-1"), f"no sheet under {tab}", 15)
            assert _text(browser, "css selector", "#sheet-1 figcaption").startswith(
                "Sheet 1: Cards and More cards, 9 cards;"), tab


def test_a_problem_says_its_card_as_data_and_the_page_finds_it_there(project):
    """What a problem is about is set where it is reported (Problem.card, .deck, .field), not
    read back from its words: the page finds a problem's card there, whatever language it is
    said in, and a card with an error of its own keeps its last good pictures."""
    import shutil
    from pathlib import Path
    from generator import i18n, pipeline
    from generator.serve import Preview, build_preview, page_state
    case = Path(__file__).parent / "bad_input" / "bad-copies-hides-nothing-else"
    folder = project / "cards" / "bad-copies"
    shutil.copytree(case, folder, ignore=shutil.ignore_patterns("expected.txt"))
    bad = (folder / "cards.yaml").read_text("utf-8")
    (folder / "cards.yaml").write_text(bad.replace("two}", "2}").replace("high", "3"), "utf-8")
    preview = Preview(asked="ja")
    with i18n.speaking("ja"):
        build_preview(Project.find(), "bad-copies", preview)  # the last good pictures
        (folder / "cards.yaml").write_text(bad, "utf-8")
        build_preview(Project.find(), "bad-copies", preview)
    report = pipeline.check(Project.find(), "bad-copies").report
    about = {(p.check, p.card, p.deck, p.field) for p in report.problems}
    assert about == {("schema", "one", "main", "copies"), ("draft", "two", "main", "name"),
                     ("schema", "three", "main", "power")}
    shown = {p["card"]: p["text"] for p in page_state(preview)["problems"]}
    assert set(shown) == {"one", "two", "three"}
    assert "copies" in shown["one"] and "card 'one'" not in shown["one"]  # (in Japanese)
    assert {c["id"] for c in preview.cards if c.get("held")} == {"one", "three"}


def test_a_box_most_cards_do_not_fit_is_said_once_and_holds_each_cards_pictures(project):
    """A layout's box too small for most of a deck's texts is one error at the element
    (layout._box_said_once), not one a card; the cards it names still keep their last good
    pictures, as each would with an error of its own."""
    import shutil
    from pathlib import Path
    from generator.serve import Preview, build_preview, page_state
    case = Path(__file__).parent / "bad_input" / "box-too-small-for-most-cards"
    shutil.copytree(case, project / "cards" / "boxed", ignore=shutil.ignore_patterns(
        "expected.txt", "layouts"))
    layout = project / "layouts" / "box-too-small-for-most-cards.yaml"
    bad = (case / "layouts" / layout.name).read_text("utf-8")
    layout.write_text(bad.replace("height: 6mm", "height: 20mm"), "utf-8")
    preview = Preview()
    build_preview(Project.find(), "boxed", preview)  # the last good pictures
    assert preview.cards and not any(c.get("held") for c in preview.cards)
    layout.write_text(bad, "utf-8")
    build_preview(Project.find(), "boxed", preview)
    problems = page_state(preview)["problems"]
    assert [(p["check"], p["card"], p["file"], p["line"]) for p in problems] == \
        [("fit", "", "layouts/box-too-small-for-most-cards.yaml", 4)]
    assert {c["id"] for c in preview.cards if c.get("held")} == \
        {"fireball", "frost", "growth", "counter", "storm"}
    assert sorted(problems[0]["cards"]) == ["counter", "fireball", "frost", "growth", "storm"]
    # (the page lists it with each of those cards, as it lists a card's own problem)


def test_a_failing_check_of_the_games_own_at_a_card_does_not_hold_its_picture(project):
    """A card with an error of cardgen's own keeps its last good pictures; one that the
    game's own (Python) check reports at a card is a game-level check: the card shows as
    it is now, though the problem is the card's in the report."""
    import shutil
    from pathlib import Path
    from generator.serve import Preview, build_preview, page_state
    case = Path(__file__).parent / "bad_input" / "python-check-reports"
    folder = project / "cards" / "checked"
    shutil.copytree(case, folder, ignore=shutil.ignore_patterns("expected.txt", "args.txt"))
    checks = folder / "checks.py"
    checks.write_text(checks.read_text("utf-8").replace("report.warning(", "report.error("),
                      "utf-8")
    preview, trusted = Preview(), Project.find(trust=True)
    for _ in range(2):  # the second build has the first's pictures to hold
        build_preview(trusted, "checked", preview)
    mine = [p for p in page_state(preview)["problems"] if p["card"] == "one"]
    assert [(p["check"], p["level"]) for p in mine] == [("check_two_players_only", "error")]
    assert preview.cards and not any(c.get("held") for c in preview.cards)


def test_the_chosen_decks_removal_shows_every_deck_not_an_empty_page(project):
    """A deck removed from game.yaml while its tab is chosen (issue 62): the page shows all
    decks again, not an empty gallery, and the Sheets view does not say 'No sheets yet'
    of a game without errors."""
    from selenium.webdriver.common.by import By
    game = project / "cards/lastdance/game.yaml"
    plain = game.read_text("utf-8")
    extra = plain.replace("decks:\n", "decks:\n  - id: extra\n    name: Extra\n"
                          "    cards: extra.yaml\n    sheet: a-one-51002\n"
                          "    front: lastdance-front\n    back: lastdance-back\n"
                          "    fields: {name: {type: text}, name_en: {type: text}, "
                          "effect: {type: text}}\n", 1)
    (project / "cards/lastdance/extra.yaml").write_text(
        "cards:\n  - {id: x1, name: 甲, name_en: Ko, effect: 一枚引く。}\n"
        "  - {id: x2, name: 乙, name_en: Otsu, effect: 二枚引く。}\n", "utf-8")
    game.write_text(extra, "utf-8")
    url, stop = _start(project)
    try:
        with chrome() as browser:
            browser.set_window_size(1200, 900)
            _until(lambda: _built(url), "the first build", 120)
            browser.get(url + "/#deck=extra")
            _until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "figure.card")) == 2,
                   "the extra deck's two cards")
            game.write_text(plain, "utf-8")
            _until(lambda: browser.execute_script(
                "return !state.decks.some(d => d.id === 'extra')"), "the deck removed")
            _until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "figure.card")) == 15,
                   "every card of the game shown again")
            pressed = browser.find_element(By.CSS_SELECTOR, "#tabs button[aria-pressed=true]")
            assert pressed.get_attribute("data-deck") == ""
            assert "deck=" not in browser.execute_script("return location.hash")
            _until(lambda: not _get(url + "/state.json").get("building"), "the sheets made")
            browser.find_element(By.ID, "view-sheets").click()
            _until(lambda: browser.find_elements(By.CSS_SELECTOR, "#sheet-list figure.sheet"),
                   "the game's sheets")
            assert "No sheets yet" not in browser.find_element(By.ID, "sheet-list").text
    finally:
        stop.set()


def test_the_gallery_is_sharp_on_a_screen_of_twice_the_pixels(project, server):
    """A card's pictures say their pixels per displayed pixel (srcset): a screen of
    devicePixelRatio 1 takes the gallery's, one of 2 the face drawn at the zoom's dpi,
    drawn only for the cards it shows (issue 62: the gallery was soft on any 2x screen)."""
    from selenium.webdriver.common.by import By
    for ratio, where in ((1, "/img/"), (2, "/zoom/")):
        with chrome() as browser:
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 1200, "height": 900, "deviceScaleFactor": ratio, "mobile": False})
            browser.get(server + "/")
            picture = "document.querySelector('#card-princess img')"
            _until(lambda: browser.execute_script(
                f"const i = {picture}; return i && i.complete && i.naturalWidth > 0"),
                "the princess's picture")
            used = browser.execute_script(f"return {picture}.currentSrc")
            assert where in used, (ratio, used)
            shown = browser.execute_script(f"return {picture}.getBoundingClientRect().height")
            with urllib.request.urlopen(used, timeout=30) as response:  # its pixels
                with Image.open(io.BytesIO(response.read())) as drawn:
                    assert drawn.height >= ratio * shown * 0.95, (ratio, shown, drawn.size)
            assert browser.find_elements(By.CSS_SELECTOR, "figure.card")


def test_rulebook_and_board_pages_open_large_and_sharp(project):
    """Each rulebook and board page in the page is a link to itself drawn at LARGE_DPI, to be
    read (they show at 60 and 40 dpi): drawn when first opened, by name only."""
    from selenium.webdriver.common.by import By
    from generator.serve.pictures import LARGE_DPI
    url, stop = _start(project, game="dernier-peuple")
    try:
        _until(lambda: _built(url), "the first build", 300)
        state = _get(url + "/state.json")
        assert state["pages"] and state["boards"]
        with chrome() as browser:
            browser.get(url + "/")
            links = browser.find_elements(By.CSS_SELECTOR, "#rulebook a.large")
            assert len(links) == len(state["pages"])
            first = links[0].get_attribute("href")
            assert "/large/rulebook/page-1.png" in first
        for name in (state["pages"][0], state["boards"][0]["pages"][0]):
            with urllib.request.urlopen(f"{url}/img/{name}", timeout=30) as small_one:
                small = Image.open(io.BytesIO(small_one.read()))
            with urllib.request.urlopen(f"{url}/large/{name}", timeout=120) as large_one:
                large = Image.open(io.BytesIO(large_one.read()))
            assert large.width >= small.width * LARGE_DPI / 60 * 0.95, (name, small.size)
            assert large.info.get("dpi", (0,))[0] == pytest.approx(LARGE_DPI, abs=1)
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{url}/large/../cards/dernier-peuple/game.yaml", timeout=10)
    finally:
        stop.set()


def test_a_kept_revision_is_laid_out_again_after_a_font_is_saved_and_closed_only_when_free(
        tmp_path, monkeypatch):
    """`serve --changes-since` keeps the revision laid out once per (root, game, commit);
    with fonts/ not in git it is laid out with the working tree's fonts, so a font saved
    since kept the old font's metrics. And a revision evicted by another thread's was
    closed (its files removed) while this thread still compared with it."""
    import threading

    from generator import diff
    from generator.serve import changes

    made, closed = [], []

    class Kept:
        def __init__(self, project, game, since):
            made.append((game, since))

        def close(self):
            closed.append(self)

    class Project:
        root = tmp_path

    monkeypatch.setattr(diff, "Revision", Kept)
    monkeypatch.setattr(changes, "_revisions", {})
    (tmp_path / "fonts").mkdir()
    font = tmp_path / "fonts/gothic.ttf"
    font.write_bytes(b"one")
    with changes.revision(Project, "g", "v1") as first:
        pass
    with changes.revision(Project, "g", "v1") as again:
        assert again is first and len(made) == 1  # kept
    font.write_bytes(b"two, longer")  # a font saved: laid out again with it
    with changes.revision(Project, "g", "v1") as after:
        assert after is not first and len(made) == 2
    holding, release = threading.Event(), threading.Event()

    def compare():
        with changes.revision(Project, "g", "v1") as held:
            holding.set()
            release.wait(10)
            assert held is after

    thread = threading.Thread(target=compare)
    thread.start()
    assert holding.wait(10)
    for since in ("v2", "v3"):  # two other revisions evict the one the thread holds
        with changes.revision(Project, "g", since):
            pass
    assert after not in closed  # held: not closed under the thread
    release.set()
    thread.join(10)
    assert after in closed and first in closed


def test_a_rulebook_past_its_page_budget_is_a_problem_on_the_page_not_a_bug(project):
    """The page budget is found only as the rulebook is typeset, after the cards are shown:
    serve lists it with the other problems, keeping the last good pages, as a build says it
    (it stopped the build thread as a bug)."""
    import shutil
    from pathlib import Path
    from generator.serve import Preview, build_preview, page_state
    case = Path(__file__).parent / "bad_input" / "rulebook-past-its-page-budget"
    shutil.copytree(case, project / "cards" / "long", ignore=shutil.ignore_patterns(
        "expected.txt", "commands.txt"))
    preview = Preview()
    build_preview(Project.find(), "long", preview)
    state = page_state(preview)
    assert [(p["file"], p["line"], p["col"], p["level"], p["text"])
            for p in state["problems"]] == [
        ("cards/long/game.yaml", 7, 3, "error", "rulebook: cards/long/rules.md runs past 1,000 "
         "pages, the most a rulebook may have; make it shorter (a loop that writes a page, or "
         "a card face, for each of many items?)")], state["problems"]
    assert not state["ok"] and state["cards"]


@pytest.mark.parametrize("lang, main, fallback", [
    ("en", "SourceSansPro", "BIZUDPGothic"), ("ja", "BIZUDPGothic", None)])
def test_the_page_is_set_in_a_family_of_the_games_language(project, cardgen, lang, main,
                                                           fallback):
    """An English game's page was set in BIZ UDPGothic, a Japanese face, its own words and
    the game's: it is set in the game's Latin family (the shipped latin), the Japanese of
    its names from the game's main family; a Japanese game's stays in its main family."""
    assert cardgen("new", "pg", "--lang", lang).code == 0
    with served("pg") as (url, _state):
        page = urllib.request.urlopen(url + "/").read().decode("utf-8")
        faces = re.findall(r'font-family: "(cardgen-\w+)";\s*font-weight: (\d+);\s*src: '
                           r'url\("/fonts/([^"]+)\.ttf"\)', page)
        assert {(family, weight) for family, weight, _name in faces} == {
            ("cardgen-main", "400"), ("cardgen-main", "700"),
            *((("cardgen-fallback", "400"), ("cardgen-fallback", "700")) if fallback else ())}
        for family, weight, name in faces:
            assert name.startswith(main if family == "cardgen-main" else fallback), faces
            font = urllib.request.urlopen(f"{url}/fonts/{name}.ttf").read()
            assert font[:4] in (b"\x00\x01\x00\x00", b"OTTO", b"true")  # a font it serves


def test_the_page_is_served_the_font_its_name_stands_for(tmp_path):
    """The page's font was read from the file's path: a file saved over since the game was
    read (the next build registers it under its own name) was served under the old name, the
    new font's bytes as the old one's. It is read through fonts.py's check, as every use is:
    the bytes the name stands for (from another file registered under it, if one still holds
    them), or nothing (404) until the next build."""
    import shutil
    from http.server import ThreadingHTTPServer
    from pathlib import Path
    from generator import fonts
    from generator.serve import Preview, make_handler
    repo = Path(__file__).parent.parent
    font = tmp_path / "gothic.ttf"
    shutil.copy(repo / "fonts/BIZUDPGothic-Regular.ttf", font)
    name = fonts.register(font)
    preview = Preview(fonts={name: font})
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler("g", preview))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/fonts/{name}.ttf"
    try:
        first = (repo / "fonts/BIZUDPGothic-Regular.ttf").read_bytes()
        assert urllib.request.urlopen(url).read() == first
        shutil.copy(repo / "fonts/BIZUDGothic-Regular.ttf", font)  # saved while serving
        try:
            sent = urllib.request.urlopen(url).read()
        except urllib.error.HTTPError as refused:
            assert refused.code == 404
            sent = None
        assert sent in (None, first)  # never the new file's bytes under the old name
    finally:
        server.shutdown()
        server.server_close()
