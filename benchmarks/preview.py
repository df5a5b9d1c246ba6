"""The preview page, driven as a designer uses it, in headless Chromium (Debian's chromium
and chromedriver, which `make test` installs):

- first cards: from starting the server with an empty cache until it serves the cards;
- edit to visible: one card's title edited in its deck file, until the page shows it;
- idle: the browser's CPU (every chromium process) over 10 s with nothing changing, as a
  share of one core;
- search: one keystroke in the search box, until the gallery has filtered (in the page).

- server memory: the peak resident memory of the process that serves (each game is
  served by a process of its own).

On Last Dance (a seed game, 36 cards) and the synthetic deck at 140 and 10,000 cards; with
--distinct, the deck whose every title and body is its own (benchmarks/synthetic.py).

    .venv/bin/python benchmarks/preview.py [--sizes 140,10000] [--distinct]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "benchmarks")]

from browser import chrome  # noqa: E402
from synthetic import make_project  # noqa: E402


def _cpu_of_chromium() -> float:
    """CPU seconds used so far by every chromium process of this machine."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            if "chrom" not in name:
                continue
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            continue
    return total


def measure(root: Path, game: str, cards_file: Path, card: str, old: str, new: str) -> dict:
    from generator.load import Project
    from generator.serve import serve
    import json
    import urllib.request

    os.chdir(root)
    address, stop = {}, threading.Event()
    threading.Thread(target=serve, daemon=True, kwargs=dict(
        project=Project.find(), game=game, port=0, stop=stop,
        ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}"))).start()
    while "url" not in address:
        time.sleep(0.05)
    url = address["url"]
    start = time.monotonic()
    first_cards = None
    while True:
        try:
            with urllib.request.urlopen(url + "/state.json", timeout=60) as r:
                state = json.loads(r.read())
                if first_cards is None and state.get("cards"):
                    first_cards = time.monotonic() - start
                if state.get("built_at") and not state.get("building"):
                    break
        except OSError:
            pass
        time.sleep(0.1)
    first_build = time.monotonic() - start
    out = {"first build": first_build, "first cards": first_cards or first_build}
    with chrome() as browser:
        browser.set_window_size(1280, 900)
        start = time.monotonic()
        browser.get(url + "/")
        while not browser.execute_script("return document.querySelectorAll('figure.card').length"):
            time.sleep(0.05)
        out["page load"] = time.monotonic() - start
        time.sleep(2)
        before = _cpu_of_chromium()
        time.sleep(10)
        out["idle CPU"] = (_cpu_of_chromium() - before) / 10
        picture = f"document.querySelector('#card-{card} img')"
        shown = browser.execute_script(f"return {picture}.getAttribute('src')")
        text = cards_file.read_text("utf-8")
        start = time.monotonic()
        cards_file.write_text(text.replace(old, new, 1), "utf-8")
        while not browser.execute_script(  # the card's new picture, loaded and drawn
                f"const i = {picture}; return i.getAttribute('src') !== {json.dumps(shown)} "
                "&& i.complete && i.naturalWidth > 0"):
            time.sleep(0.02)
        out["edit to visible"] = time.monotonic() - start
        out["search keystroke"] = browser.execute_script(
            "const s = document.getElementById('search'); const t = performance.now();"
            "s.value = 'zzz'; s.dispatchEvent(new Event('input')); "
            "const done = performance.now() - t; s.value = ''; "
            "s.dispatchEvent(new Event('input')); return done / 1000")
    stop.set()
    out["server memory"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _in_a_process(*args) -> dict:
    """measure() in a process of its own, so that its peak memory is its own server's."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=lambda: queue.put(measure(*args)))
    child.start()
    out = queue.get()
    child.join()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="140,10000")
    parser.add_argument("--distinct", action="store_true",
                        help="every card's title and body its own (synthetic.py)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        seeds = Path(tmp) / "seeds"
        seeds.mkdir()
        for part in ("cards", "layouts", "fonts"):
            shutil.copytree(REPO / part, seeds / part, symlinks=True)
        rows.append(("lastdance (36 cards)", _in_a_process(
            seeds, "lastdance", seeds / "cards/lastdance/cards.yaml", "princess", "name: 姫\n",
            "name: 姫君\n")))
        for n in (int(s) for s in args.sizes.split(",")):
            root = make_project(Path(tmp) / f"syn{n}", n, args.distinct)
            deck = next((root / "cards").glob("*/cards.yaml"))
            title = "title: 踊り子1," if args.distinct else "title: 踊り子"
            kind = "distinct" if args.distinct else "synthetic"
            rows.append((f"{kind}, {n:,} cards", _in_a_process(
                root, deck.parent.name, deck, "c0", title, title.replace("踊り子", "踊り子改"))))
    print("| game | first cards | first build | page load | edit to visible | idle CPU (of a "
          "core) | search keystroke | server memory |")
    print("|---|---|---|---|---|---|---|---|")
    for name, m in rows:
        print(f"| {name} | {m['first cards']:.1f} s | {m['first build']:.1f} s | "
              f"{m['page load']:.2f} s | {m['edit to visible']:.2f} s | "
              f"{m['idle CPU'] * 100:.1f} % | {m['search keystroke'] * 1000:.0f} ms | "
              f"{m['server memory']:.0f} MB |")


if __name__ == "__main__":
    main()
