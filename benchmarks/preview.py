"""The preview page, driven as a designer uses it, in headless Chromium (Debian's chromium
and chromedriver, which `make test` installs):

- first cards: from starting the server with an empty cache, the browser already open on
  its page, until the first screen of card pictures is loaded and drawn in the page (every
  card picture in view complete, with its pixels);
- first build: from the same start until everything is made: the cards, the rulebook,
  statistics and sheets, and every card picture drawn (state.json: built, not building,
  not drawing);
- edit to visible: one card's title edited in its deck file, until the page shows it;
- idle: the browser's CPU (every chromium process) over 10 s with nothing changing, as a
  share of one core;
- search: one keystroke in the search box, until the gallery has filtered (in the page).

- server memory: the peak resident memory of the process that serves (each game is
  served by a process of its own; the processes that draw pictures in the background
  are its children, not counted).

On Last Dance (a seed game, 36 cards) and the synthetic deck at 140 and 10,000 cards; with
--distinct, the deck whose every title and body is its own (benchmarks/synthetic.py). With
--rev REV, cardgen at REV (checked out in a temporary git worktree) is measured too, each
game by both in turn, in the same run. The targets (#62) are printed beside the figures.

    .venv/bin/python benchmarks/preview.py [--sizes 140,10000] [--distinct] [--rev main]
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


def _cpu_of_chromium() -> dict[int, float]:
    """CPU seconds used so far by each chromium process of this machine, by its id."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            if "chrom" not in name:
                continue
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            used[int(pid)] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            continue
    return used


def _cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU seconds chromium used between two looks: each process's own growth (one
    that ended between them took its seconds with it: the sum of all went negative)."""
    return sum(max(0.0, seconds - before.get(pid, 0.0)) for pid, seconds in after.items())


TARGETS = {"first cards": 10.0, "edit to visible": 1.0, "server memory": 300.0}  # (#62)

# Every card picture in view, loaded and drawn: true once the page shows its first screen.
FIRST_SCREEN = """
const seen = [...document.querySelectorAll('figure.card img')].filter(i => {
  const r = i.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
});
return seen.length > 0 && seen.every(i => i.complete && i.naturalWidth > 0);"""


def _state(url: str, tag: dict) -> dict:
    """The server's state.json, asked as the page asks (an unchanged state is a 304)."""
    import json
    import urllib.error
    import urllib.request
    request = urllib.request.Request(url + "/state.json", headers={"If-None-Match": tag["etag"]}
                                     if "etag" in tag else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            tag["etag"], tag["state"] = r.headers["ETag"], json.loads(r.read())
    except urllib.error.HTTPError as exc:
        if exc.code != 304:
            raise
    return tag.get("state", {})


def measure(root: Path, game: str, cards_file: Path, card: str, old: str, new: str,
            code: Path = REPO) -> dict:
    sys.path.insert(0, str(code))  # (cardgen's code, this tree's or a revision's)
    from generator.load import Project
    from generator.serve import serve
    import json

    os.chdir(root)
    out: dict = {}
    with chrome() as browser:
        browser.set_window_size(1280, 900)
        address, stop = {}, threading.Event()
        start = time.monotonic()
        threading.Thread(target=serve, daemon=True, kwargs=dict(
            project=Project.find(), game=game, port=0, stop=stop,
            ready=lambda a: address.update(url=f"http://{a[0]}:{a[1]}"))).start()
        while "url" not in address:
            time.sleep(0.02)
        url = address["url"]
        browser.get(url + "/")  # the page follows the build and shows the cards it is sent
        while not browser.execute_script(FIRST_SCREEN):
            time.sleep(0.05)
        out["first cards"] = time.monotonic() - start
        tag: dict = {}
        while True:
            try:
                state = _state(url, tag)
                if state.get("built_at") and not state.get("building") and \
                        not state.get("drawing"):
                    break
            except OSError:
                pass
            time.sleep(0.2)
        out["first build"] = time.monotonic() - start
        start = time.monotonic()  # the page opened again, once everything is built
        browser.get(url + "/")
        while not browser.execute_script("return document.querySelectorAll('figure.card').length"):
            time.sleep(0.05)
        out["page load"] = time.monotonic() - start
        time.sleep(2)
        before = _cpu_of_chromium()
        time.sleep(10)
        out["idle CPU"] = _cpu_between(before, _cpu_of_chromium()) / 10
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


def worktree(rev: str, into: Path) -> Path:
    """REV's code checked out in a temporary git worktree."""
    import subprocess
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(into), rev],
                   check=True, capture_output=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="140,10000")
    parser.add_argument("--distinct", action="store_true",
                        help="every card's title and body its own (synthetic.py)")
    parser.add_argument("--rev", help="also measure cardgen at this git revision (e.g. main), "
                                      "each game by both in turn")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        codes = {"": REPO}
        if args.rev:
            codes[f" @{args.rev}"] = worktree(args.rev, Path(tmp) / "rev")
        try:
            games = []
            seeds = Path(tmp) / "seeds"
            games.append(("lastdance (36 cards)", seeds, "lastdance", "princess",
                          "name: 姫\n", "name: 姫君\n", None))
            for n in (int(s) for s in args.sizes.split(",")):
                kind = "distinct" if args.distinct else "synthetic"
                title = "title: 踊り子1," if args.distinct else "title: 踊り子"
                games.append((f"{kind}, {n:,} cards", Path(tmp) / f"syn{n}", "bench", "c0",
                              title, title.replace("踊り子", "踊り子改"), n))
            for name, root, game, card, old, new, n in games:
                for tool, code in codes.items():
                    if n is None:  # a fresh copy for each run: an empty cache, the seed's text
                        shutil.rmtree(root, ignore_errors=True)
                        root.mkdir(parents=True)
                        for part in ("cards", "layouts", "fonts"):
                            shutil.copytree(REPO / part, root / part, symlinks=True)
                        deck = root / "cards/lastdance/cards.yaml"
                    else:
                        make_project(root, n, args.distinct)
                        deck = next((root / "cards").glob("*/cards.yaml"))
                    rows.append((name + tool, _in_a_process(root, game, deck, card, old, new,
                                                            code)))
                    print(f"  {rows[-1]}", file=sys.stderr, flush=True)
        finally:
            if args.rev:
                import subprocess
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                                str(codes[f" @{args.rev}"])], capture_output=True)
    print("| game | first cards | first build | page load | edit to visible | idle CPU (of a "
          "core) | search keystroke | server memory |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| target (#62) | ≤ {TARGETS['first cards']:.0f} s | | | "
          f"≤ {TARGETS['edit to visible']:.0f} s | | | ≤ {TARGETS['server memory']:.0f} MB |")
    for name, m in rows:
        print(f"| {name} | {m['first cards']:.1f} s | {m['first build']:.1f} s | "
              f"{m['page load']:.2f} s | {m['edit to visible']:.2f} s | "
              f"{m['idle CPU'] * 100:.1f} % | {m['search keystroke'] * 1000:.0f} ms | "
              f"{m['server memory']:.0f} MB |")


if __name__ == "__main__":
    main()
