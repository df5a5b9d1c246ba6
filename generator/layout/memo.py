"""Incremental layout for the designer's loop (`serve`, `watch`): a face laid out by an
earlier build of the same session is reused when nothing it reads has changed.

What a card face reads is known (layout/__init__.py): its layout, its card's record and
draft flag, its deck's scope (id, name, colour, total), the game's scope (its own keys,
data tables, macros, language, revision stamp) and the game's fonts, palette and icons;
and files: the images it places and the fonts it draws with. Each face is kept under a
key made of the first (a digest of each deck and side's context, made once per build, and
of the card's record), so a save that changes one card lays out that card; one that
changes a layout, a data table or game.yaml changes the context of every face that reads
it. Files are the watcher's to tell (`saved`): a changed file that is not data (an image, a
font, a picture in a card's field) forgets every face, as their digests are in what they
draw. A face that had a problem is not kept (its problem is said again, located as the
file now stands), nor a token's, a standee's or one drawn with guides, which other
checks read element by element; and while any face of the game says a problem, none is
reused (layout_game): problems are said once for the cards that share them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..model import Card, Deck, Game, LayoutSpec
from ..primitives import Face

DATA_SUFFIXES = frozenset({".yaml", ".yml", ".json", ".csv", ".tsv", ".xlsx", ".md", ".py"})
# (a data file's change shows in the model, which the keys hold; rules and checks draw nothing)


def _digest(value: Any) -> str:
    return hashlib.sha1(repr(value).encode("utf-8", "surrogatepass")).hexdigest()


class FaceMemo:
    """The faces of the last build of one game, by what they read. `hits` and `laid` count
    the last build's faces reused and laid out (for tests and benchmarks)."""

    def __init__(self) -> None:
        self.faces: dict[tuple, Face] = {}
        self.kept: dict[tuple, Face] = {}  # this build's, which replace `faces` at its end
        self.game_key = ""
        self.hits = self.laid = 0
        self.records: dict[int, str] = {}  # this build's cards' digests, by the card's id()

    def saved(self, files: list[Path]) -> None:
        """The watcher's changed files: one that is not data forgets every face."""
        if any(Path(f).suffix.lower() not in DATA_SUFFIXES for f in files):
            self.faces.clear()

    def forget(self) -> None:
        """Every face forgotten: the next build lays out all of them."""
        self.faces.clear()
        self.kept.clear()

    def begin(self, game: Game, game_scope: dict) -> None:
        """A build starts: the digest of what every face of the game reads alike."""
        self.kept = {}
        self.records = {}
        self.hits = self.laid = 0
        scope = {k: v for k, v in game_scope.items() if k != "macros"}  # (a module made
        # each build, from game.macros and the scope's names: those are in the key)
        self.game_key = _digest((game.id, game.title, game.title_en, game.version, game.root,
                                 game.project_root, scope, game.fonts, game.colors,
                                 game.icons, game.macros, game.stamp, game.revised, game.lang,
                                 game.target))

    def context(self, deck: Deck, layout: LayoutSpec, deck_scope: dict, side: str) -> str:
        """The digest of what every face of `deck` by `layout` reads alike."""
        return _digest((self.game_key, side, layout, deck_scope, deck.shape, deck.id))

    def key(self, context: str, card: Card) -> tuple:
        digest = self.records.get(id(card))  # (a card's front and back: its record once)
        if digest is None:
            digest = self.records[id(card)] = _digest((card.record(), bool(card.drafts())))
        return (context, digest)

    def get(self, key: tuple) -> Face | None:
        face = self.faces.get(key)
        if face is not None:
            self.kept[key] = face
            self.hits += 1
        return face

    def put(self, key: tuple, face: Face) -> None:
        self.kept[key] = face
        self.laid += 1

    def end(self) -> None:
        """The build is over: its faces are what the next one may reuse (the faces of
        cards since removed are forgotten, so the memo stays the game's size)."""
        self.faces, self.kept, self.records = self.kept, {}, {}
