"""What changed in a game between two versions, by what it prints: `cardgen diff`.

The other version is a git revision of the project (its files as committed, read raw
into a temporary folder by load/revision.py: nothing of the repository's runs) or another
project folder. Both versions are loaded, checked and laid out as a build would, and
every card's front and back is compared by its identity (identity.py): what the face
draws, with the bytes of its images and fonts. A card is *reprinted* when the identity of
one of its faces changed, whatever caused it, and only then. For each reprint the diff
names every cause it can: card fields, data-table entries its layouts read, layout
elements, macros, fonts, images, the deck and the game. Copies that changed while the
print did not are listed apart, and so is every change that prints nothing.

Order does not matter: cards that only moved are not changes. Entries of a data table's
lists are matched by their `id` or `name`, not their position.
"""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import sandbox, stats
from ..layout import GameFaces
from ..layout.reads import cell_reads, face_reads
from ..identity import face_identity, fonts_of, images_of
from ..load import Project
from ..load.project import MARKER
from ..load.revision import MAX_REVISION_BYTES, NoGit, TooLarge, extract, top_level
from ..model import Card, Game, LayoutSpec, plain
from ..pipeline import check, lay_out
from .boards import compare_boards
from .printed import compare_rulebooks
from .report import as_json, errata_copies, errata_lines, format_diff
from .result import _MISSING, SIDE_WORDS, SIDES, GameDiff, Reprint, _show
from .visual import PICTURES_KEPT, _rasterised
from ..i18n import Joined, _, shown
from ..problems import DataProblems, IOFault, UsageError, fault_words, printable

# -- values and data, by key path -----------------------------------------------------------

def _key(item: Any) -> str | None:
    """How a list entry is named in a key path: its `id`, else its `name`."""
    if isinstance(item, dict):
        for k in ("id", "name"):
            if isinstance(item.get(k), (str, int)) and not isinstance(item.get(k), bool):
                return str(item[k])
    return None


def _keyed(items: list) -> dict | None:
    keys = [_key(i) for i in items]
    if items and all(keys) and len(set(keys)) == len(keys):
        return dict(zip(keys, items))
    return None


def _walk(old: Any, new: Any, path: str, out: list) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            _walk(old.get(key, _MISSING), new.get(key, _MISSING),
                  f"{path}.{key}" if path else str(key), out)
    elif isinstance(old, list) and isinstance(new, list):
        a, b = _keyed(old), _keyed(new)
        if a is not None and b is not None:  # entries by id or name, wherever they stand
            for key in list(a) + [k for k in b if k not in a]:
                _walk(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}[{key}]", out)
        elif len(old) == len(new):
            for i, (x, y) in enumerate(zip(old, new)):
                _walk(x, y, f"{path}[{i}]", out)
        else:
            out.append((path, old, new))
    elif old != new:
        out.append((path, old, new))


def _values(card: Card) -> dict:
    return {**dict(card.fields), "blank": card.blank, "deck": card.deck,
            **({"back": card.back} if card.back else {})}


# -- showing a change -----------------------------------------------------------------------

# Words (Latin letters and digits), runs of spaces, and every other character on its own:
# Japanese, which has no spaces, is compared character by character.
_TOKEN = re.compile(r"[A-Za-z0-9_'’\-]+|\s+|.", re.S)
CONTEXT = 4  # tokens kept on each side of a change


def word_diff(old: str, new: str) -> str:
    """A changed text in words: `was "…old words…", now "…new words…"`, each the changed
    words in a little of their context (the same on both sides), so that the change is
    always visible however long the text, with no markup to read past."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    was: list[str] = []
    now: list[str] = []
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            seg = a[i1:i2]
            first, last = n == 0, n == len(ops) - 1
            if first and len(seg) > CONTEXT:
                seg = ["…"] + seg[-CONTEXT:]
            elif last and len(seg) > CONTEXT:
                seg = seg[:CONTEXT] + ["…"]
            elif not first and not last and len(seg) > 2 * CONTEXT:
                seg = seg[:CONTEXT] + [" … "] + seg[-CONTEXT:]
            was += seg
            now += seg
            continue
        was += a[i1:i2]
        now += b[j1:j2]

    def said(tokens: list[str]) -> str:
        text = re.sub(r"\s+", " ", "".join(tokens).replace("\n", "⏎")).strip()
        return text or _("(nothing)")
    return _('was "{was}", now "{now}"', was=said(was), now=said(now))


def show_change(old: Any, new: Any) -> str:
    if isinstance(old, str) and isinstance(new, str) and (len(old) > 20 or len(new) > 20):
        return word_diff(old, new)
    return Joined(" -> ", [_show(old), _show(new)])


def _data_line(path: str, old: Any, new: Any) -> str:
    """A change of the game's data, as the report says it (in the words of the moment)."""
    return _("data {path}: {change}", path=path, change=show_change(old, new))


# -- causes ---------------------------------------------------------------------------------

def _layout_for(game: Game, card: Card, side: str) -> LayoutSpec | None:
    deck = next((d for d in game.decks if d.id == card.deck), None)
    if deck is None:
        return None
    if side == "front":
        return deck.front
    return deck.back_of(card)


def _layout_causes(old: LayoutSpec | None, new: LayoutSpec | None, side: str,
                   drawn) -> list[str]:
    """The layout's changes that drew on the face: `drawn()`, the elements that drew on it
    before or after, asked of an element with a `when:` (one that leaves this card out is
    not its cause; without one, an element draws on every face of its layout)."""
    if old is None or new is None:
        return []
    if old.id != new.id:
        return [_("{side} layout: '{old}' -> '{new}'", side=SIDE_WORDS.get(side, side), old=old.id,
                  new=new.id)]
    causes: list[str] = []
    if (old.size, old.bleed, old.safe) != (new.size, new.bleed, new.safe):
        causes.append(_("layout '{layout}': its size, bleed or safe area", layout=new.id))
    before = {e.name: e for e in old.elements}
    after = {e.name: e for e in new.elements}
    for name in list(before) + [n for n in after if n not in before]:
        a, b = before.get(name), after.get(name)
        if any(e is not None and "when" in e.props for e in (a, b)) and name not in drawn():
            continue
        if a is None:
            causes.append(_("layout '{layout}': element '{name}' added", layout=new.id, name=name))
        elif b is None:
            causes.append(_("layout '{layout}': element '{name}' removed", layout=new.id,
                            name=name))
        elif (a.type, dict(a.props)) != (b.type, dict(b.props)):
            was, now = _flat(a.props), _flat(b.props)
            keys = sorted(k for k in set(was) | set(now) if was.get(k) != now.get(k))
            shown = ", ".join(f"{k}: {_show(was.get(k, _MISSING))} -> "
                              f"{_show(now.get(k, _MISSING))}" for k in keys)
            causes.append(_("layout '{layout}': element '{name}' ({changes})", layout=new.id,
                            name=name, changes=shown))
    if [e.name for e in old.elements if e.name in after] != \
            [e.name for e in new.elements if e.name in before]:
        causes.append(_("layout '{layout}': the order of its elements", layout=new.id))
    return causes


def _flat(props) -> dict:
    """An element's keys, a mapping's own (`repeat:`) each by itself as `repeat.step`."""
    out: dict = {}
    for key, value in props.items():
        if isinstance(value, dict):
            out.update({f"{key}.{inner}": v for inner, v in value.items()})
        else:
            out[key] = value
    return out


def _font_families(game: Game) -> dict[str, str]:
    return {name: fam.name for fam in game.fonts.values() for name in (fam.regular, fam.bold)}


def _drawn_causes(old_game: Game, new_game: Game, old_face, new_face) -> list[str]:
    """The images and fonts a side draws that changed."""
    causes: list[str] = []
    old_images = images_of(old_face, old_game.root)
    new_images = images_of(new_face, new_game.root)
    for path in sorted(set(old_images) | set(new_images)):
        if old_images.get(path) != new_images.get(path):
            causes.append(_("image '{path}' changed", path=path) if path in old_images and
                          path in new_images else _("image '{path}' added or removed", path=path))
    old_fonts, new_fonts = fonts_of(old_face), fonts_of(new_face)
    if old_fonts != new_fonts:
        families = {**_font_families(old_game), **_font_families(new_game)}
        changed = sorted({families.get(f, f) for f in old_fonts ^ new_fonts})
        causes.append(_("font {fonts} (its file changed, or another is used)",
                        fonts=", ".join(changed)))
    return causes


class _Read:
    """What a game's card faces read, for their causes: the game's data, words and macros
    mapped once (sandbox.Reads), each face laid out again while the sandbox records."""

    def __init__(self, game: Game):
        self.game = game
        self.scope = sandbox.game_scope(game)
        self.data = sandbox.Reads({k: v for k, v in self.scope.items()
                                   if k in ("data", "game", "macros") and v is not None},
                                  key=_key)

    def cell(self, board, cell) -> sandbox.Reads | None:
        return cell_reads(board, cell, self.game, self.scope, self.data)

    def face(self, card: Card, side: str) -> tuple[sandbox.Reads | None, set[str]]:
        """What the card's side read, and the elements that drew on it."""
        layout = _layout_for(self.game, card, side)
        return (None, set()) if layout is None else face_reads(self.game, card, layout,
                                                               self.scope, self.data)


# Changed values that change a face whatever its templates read: its deck (its layouts),
# its back, whether it is blank.
_ALWAYS = ("deck", "blank", "back")


def _causes(reads: tuple[_Read, _Read], old: Card, new: Card, sides: tuple[str, ...],
            faces: dict, data_changes: list,
            fields: list) -> tuple[list[str], set[str], list, list]:
    """The named causes of a reprint: the inputs its faces read that changed (old or new
    version), and what they draw that changed; the data paths they name; and the changed
    fields its faces did not read (they print nothing)."""
    old_game, new_game = reads[0].game, reads[1].game
    made: dict[str, tuple] = {}  # each side laid out again when a question needs it

    def faced(side: str) -> tuple:
        if side not in made:
            made[side] = (reads[0].face(old, side), reads[1].face(new, side))
        return made[side]

    def read(root: str, path: str, a: Any = None, b: Any = None) -> bool:
        grown = a is _MISSING or b is _MISSING
        return any(r is not None and r.under(root, path, grown)
                   for side in sides for r in (faced(side)[0][0], faced(side)[1][0]))
    causes: list[str] = []
    unread = []
    printed: list[tuple[str, str, Any, Any]] = []
    for path, a, b in fields:
        if path.split(".")[0].split("[")[0] in _ALWAYS or read("card", path, a, b):
            causes.append(_("field {path}: {change}", path=path, change=show_change(a, b)))
            printed.append(("field", path, a, b))
        else:
            unread.append((path, a, b))
    if old.copies != new.copies and read("card", "copies"):
        causes.append(_("copies: {before} -> {after}", before=old.copies, after=new.copies))
        printed.append(("copies", "copies", old.copies, new.copies))
    for key in ("title", "title_en", "version"):
        a, b = getattr(old_game, key), getattr(new_game, key)
        if a != b and read("game", key):
            causes.append(_("game {key}: {change}", key=key, change=show_change(a, b)))
    old_deck = next((d for d in old_game.decks if d.id == old.deck), None)
    new_deck = next((d for d in new_game.decks if d.id == new.deck), None)
    if old_deck and new_deck:
        for key in ("color", "name", "total"):
            a, b = getattr(old_deck, key), getattr(new_deck, key)
            if a != b and read("deck", key):
                causes.append(_("deck '{deck}' {key}: {change}", deck=new_deck.id, key=key,
                                change=show_change(a, b)))
    tables: set[str] = set()
    for path, a, b in data_changes:
        if read("data", path, a, b):
            causes.append(_("data {path}: {change}", path=path, change=show_change(a, b)))
            printed.append(("data", path, a, b))
            tables.add(path)
    if old_game.macros != new_game.macros and read("macros", ""):
        causes.append(_("the game's macros"))
    for side in sides:
        causes += _layout_causes(_layout_for(old_game, old, side),
                                 _layout_for(new_game, new, side), side,
                                 lambda side=side: faced(side)[0][1] | faced(side)[1][1])
        causes += _drawn_causes(old_game, new_game, *faces[side])
    if new_game.stamp:  # it follows what the face prints, and the game's version
        causes.append(_("the revision stamp (version {before} -> {after})",
                        before=old_game.version, after=new_game.version)
                      if old_game.version != new_game.version else _("the revision stamp"))
    unique = list(dict.fromkeys(causes))
    return (unique or [_("something the faces draw from the game changed")], tables, unread,
            printed)


# -- comparing two versions -----------------------------------------------------------------

def _entries_of_cards(game) -> dict[str, str]:
    """The data paths (as _walk names them) of the table entries the game's cards were made
    from (`generate: from:`), each with its card's id: a change there that the card's
    fields show (the same values changed) is said with the card, not again as data."""
    tables = {id(source): name for name, source in game.data_sources.items()}
    data = plain(game.data)
    out: dict[str, str] = {}
    for card in game.cards():
        table = tables.get(id(card.source))
        if table is None or not card.path:
            continue
        *inner, place = card.path
        prefix, value = table, data.get(table)
        for part in inner:
            prefix += f"[{part}]" if isinstance(part, int) else f".{part}"
            value = value[part] if isinstance(value, (dict, list)) and (
                isinstance(value, list) and isinstance(part, int) and part < len(value)
                or isinstance(value, dict) and part in value) else None
        out[f"{prefix}[{place}]"] = card.id
        if isinstance(value, list) and _keyed(value) is not None and isinstance(place, int) \
                and place < len(value):
            out[f"{prefix}[{_key(value[place])}]"] = card.id  # (named entries: by name)
        elif isinstance(value, dict):
            out[f"{prefix}.{place}"] = card.id
    return out


def _card_of(path: str, entries: dict[str, str]) -> str | None:
    """The card made from the table entry that holds `path`, if one was."""
    return next((card for e, card in entries.items()
                 if path == e or path.startswith((e + ".", e + "["))), None)


def compare(old: GameFaces, new: GameFaces) -> GameDiff:
    diff = GameDiff()
    old_game, new_game = old.game, new.game
    diff.font = new_game.main_family.regular
    shared_old: dict = {}
    shared_new: dict = {}

    def faces(gf: GameFaces) -> dict[str, tuple]:
        return {c.id: (d.fronts[c.id], d.backs[c.id]) for d in gf.decks for c in d.deck.cards
                if c.id in d.fronts}

    before_faces, after_faces = faces(old), faces(new)
    before = {c.id: c for c in old_game.cards()}
    after = {c.id: c for c in new_game.cards()}
    _walk(plain(old_game.data), plain(new_game.data), "", diff.data)
    explained: set[str] = set()
    shown: dict[str, set] = {}  # card id -> the (old, new) values its fields' changes show
    reads: tuple[_Read, _Read] | None = None  # (made for the first reprint)
    diff.removed = [c for i, c in before.items() if i not in after]
    for card_id, card in after.items():
        if card_id not in before:
            diff.added.append(card)
            continue
        old_card = before[card_id]
        fields: list = []
        _walk(_values(old_card), _values(card), "", fields)
        shown[card_id] = {(repr(a), repr(b)) for _path, a, b in fields}
        old_sides, new_sides = before_faces.get(card_id), after_faces.get(card_id)
        if old_sides is None or new_sides is None:
            continue
        pair = old_sides, new_sides
        sides = tuple(side for k, side in enumerate(SIDES)
                      if face_identity(pair[0][k], shared_old) !=
                      face_identity(pair[1][k], shared_new))
        if sides:
            reads = reads or (_Read(old_game), _Read(new_game))
            causes, tables, fields, printed = _causes(
                reads, old_card, card, sides,
                {s: (pair[0][k], pair[1][k]) for k, s in enumerate(SIDES)}, diff.data, fields)
            explained |= tables
            diff.reprinted.append(Reprint(old_card, card, sides, causes, printed))
            diff.pairs[card_id] = pair
        else:
            if old_card.copies != card.copies:
                diff.copies.append((old_card, card))
        diff.unprinted += [_("card '{card}' field {path}: {change}", card=card_id, path=path,
                             change=show_change(a, b)) for path, a, b in fields]
    own = {**_entries_of_cards(old_game), **_entries_of_cards(new_game)}

    def with_its_card(path: str, a, b) -> bool:  # the change its card's fields show
        return (repr(a), repr(b)) in shown.get(_card_of(path, own) or "", ())
    diff.unprinted += [_data_line(path, a, b) for path, a, b in diff.data
                       if path not in explained and not with_its_card(path, a, b)]
    diff.statistics = stats.changes(stats.compute(old_game), stats.compute(new_game))
    return diff


@dataclass
class _Version:
    """One version of a game as diff reads it: its faces, and its rulebook (the rendered
    Markdown and the PDF), made while its files are there to read."""

    faces: GameFaces
    markdown: str | None = None
    _pdf: bytes | None = None

    @property
    def rulebook(self) -> bytes | None:
        """The rulebook typeset, when first asked for (None: the game has none)."""
        game = self.faces.game
        if self._pdf is None and game.rulebook is not None and self.markdown is not None:
            from .. import rulebook
            self._pdf = rulebook.build(game, self.faces, self.markdown).pdf
        return self._pdf


def _laid_out(project: Project, game_id: str) -> _Version:
    outcome = check(project, game_id)
    faces = lay_out(outcome)
    if faces is None:
        raise DataProblems(outcome.report)
    return _Version(faces, outcome.rulebook_markdown)


def _same_rulebook(old: _Version, new: _Version, diff: GameDiff) -> bool:
    """Whether the rulebook prints the same without typesetting it: the same rendered
    text, the same game words and fonts, and no card face that changed (it may show them)."""
    a, b = old.faces.game, new.faces.game
    return (old.markdown == new.markdown and a.rulebook == b.rulebook and
            (a.title, a.title_en, a.version, a.declared_lang, dict(a.fonts)) ==
            (b.title, b.title_en, b.version, b.declared_lang, dict(b.fonts)) and
            not (diff.added or diff.removed or diff.reprinted))


def _compared(old: _Version, new: _Version) -> GameDiff:
    """The cards' diff (compare), with the rulebook's pages and text and the boards'
    pages; a data change the rulebook prints is a rulebook change, not one that prints
    nothing."""
    diff = compare(old.faces, new.faces)
    diff.rulebook, explained = (None, set()) if _same_rulebook(old, new, diff) else \
        compare_rulebooks(old.rulebook, old.markdown or "", new.rulebook, new.markdown or "",
                          diff.data, word_diff, show_change)
    if explained:
        shown = {_data_line(path, a, b) for path, a, b in diff.data if path in explained}
        diff.unprinted = [line for line in diff.unprinted if line not in shown]
    diff.boards = compare_boards(old.faces, new.faces, diff.font, show_change,
                                 (_Read(old.faces.game), _Read(new.faces.game)),
                                 [(p, a, b, a is _MISSING or b is _MISSING)
                                  for p, a, b in diff.data],
                                 {r.new.id for r in diff.reprinted})
    for b in diff.boards:
        if not b.causes:
            b.causes.append(_("the faces it draws (its tiles or cell layout)"))
            b.other.append(b.causes[-1])
    drawn = _board_data(new.faces, diff.boards) | {p for b in diff.boards for p in b.data}
    if drawn:  # the cells' values a board prints differently: its causes say them
        said = {_data_line(path, a, b) for path, a, b in diff.data if path in drawn}
        diff.unprinted = [line for line in diff.unprinted if line not in said]
    diff.rulebook_pdfs = (old._pdf, new._pdf)  # (those typeset: a changed rulebook's)
    diff.game = new.faces.game
    diff.board_faces = ({b.board.id: b for b in old.faces.boards},
                        {b.board.id: b for b in new.faces.boards})
    return diff


def _board_data(faces: GameFaces, changes: list) -> set[str]:
    """The data paths ("map.cells[4].type") of the cells' values these board changes say
    (and each changed board's list of cells, for a cell added or removed)."""
    tables = {id(source): name for name, source in faces.game.data_sources.items()}
    data = plain(faces.game.data)
    said = {(b.board, label, str(key)) for b in changes for label, key, *_rest in b.cells}
    changed = {b.board for b in changes}
    out: set[str] = set()
    for b in faces.boards:
        if b.board.id not in changed:
            continue
        for cell in b.board.cells:
            if id(cell.source) not in tables or not cell.path:
                continue
            table = tables[id(cell.source)]
            path = _data_path(data.get(table), table, cell.path)
            if path is None:
                continue
            out.add(path.rsplit("[", 1)[0])  # the list of cells, changed whole
            out |= {f"{path}.{key}" for board, label, key in said
                    if board == b.board.id and label == cell.label}
    return out


def _data_path(value: Any, path: str, steps: tuple) -> str | None:
    """How diff names the entry at `steps` of a data value (`_walk`): a list's entries by
    their id or name where all have one, else by their place."""
    for step in steps:
        if isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            keyed = _keyed(value)
            path += f"[{_key(value[step]) if keyed is not None else step}]"
        elif isinstance(value, dict) and step in value:
            path += f".{step}"
        else:
            return None
        value = value[step]
    return path


def at_revision(project: Project, game_id: str, revision: str, folder: Path) -> Project:
    """What a build of the game reads (its folder, layouts/, fonts/ and the project's
    cardgen.yaml), as it was at a git revision, extracted into `folder`; what cardgen ships
    is read as the working tree reads it."""
    try:
        top = top_level(project.root)
        prefix = Path(project.root).resolve().relative_to(Path(top).resolve()).as_posix()
        base = "" if prefix == "." else prefix + "/"
        root = folder / prefix if prefix != "." else folder
        root.mkdir(parents=True, exist_ok=True)
        (root / "cards").mkdir(exist_ok=True)
        left_out = extract(top, revision, [f"{base}cards/{game_id}", f"{base}layouts",
                                           f"{base}fonts", f"{base}{MARKER}"], folder)
    except NoGit:
        raise UsageError(_("git is needed to compare with a revision")) from None
    except TooLarge as exc:
        raise UsageError(_("cannot read revision '{revision}': {value}", revision=revision,
                           value=_("its files are {n:,.0f} MB; cardgen reads at most {n2:,} MB "
                                   "of a revision", n=exc.size / 1024 / 1024,
                                   n2=MAX_REVISION_BYTES // 1024 // 1024))) from None
    except OSError as exc:  # the temporary folder cannot be made
        raise IOFault(_("cannot write the files of revision '{revision}' into {folder}: "
                        "{words}", revision=revision, folder=str(folder),
                        words=fault_words(exc)), exc) from None
    except subprocess.TimeoutExpired:
        raise UsageError(_("cannot read revision '{revision}': {value}", revision=revision,
                           value=_("git took too long"))) from None
    except subprocess.CalledProcessError as exc:
        err = exc.stderr or b""
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(_("cannot read revision '{revision}': {value}",
                           revision=revision,
                           value=message[-1] if message else _("not a git repository"))) from None
    for sentence in left_out:  # a name no folder can hold (a stranger's repository)
        print(f"cardgen: {shown(_('warning'))}: {printable(shown(sentence))}", file=sys.stderr)
    fonts = root / "fonts"
    if not fonts.exists() and (Path(project.root) / "fonts").is_dir():
        fonts.symlink_to(Path(project.root) / "fonts")  # fonts not kept in git: the working tree's
    return Project(root, root / "output", project.trust, project.shipped)


def diff_game(project: Project, game_id: str, revision: str | None = None,
              other: Path | None = None, visual: bool = False) -> GameDiff:
    """Changes from the revision (or the other folder) to the working tree. With `visual`,
    every reprinted face is also rasterised, before and after (while the old version's
    files are still there to read)."""
    new = _laid_out(project, game_id)
    if other is not None:
        return _rasterised(_compared(_laid_out(Project.find(other, trust=project.trust),
                                               game_id), new), visual)
    with tempfile.TemporaryDirectory(prefix="cardgen-diff-") as tmp:
        old_project = at_revision(project, game_id, revision or "HEAD", Path(tmp))
        if not (old_project.cards / game_id / "game.yaml").is_file():
            return GameDiff(added=list(new.faces.game.cards()))
        return _rasterised(_compared(_laid_out(old_project, game_id), new), visual)


class Revision:
    """A game as it was at a git revision, read, checked and laid out once, its files kept
    in a temporary folder until `close`: `serve --changes-since` compares every save with
    it (the git archive and the old version's lay-out and rulebook were redone at each
    save, 5 to 7 s), and a visual diff reads its images and fonts from there."""

    def __init__(self, project: Project, game_id: str, revision: str):
        self.game_id = game_id
        # the faces rasterised, by identity: a save draws only the faces it changed
        self.pictures: dict[str, bytes] = {}
        self._folder = tempfile.TemporaryDirectory(prefix="cardgen-since-")
        try:
            old_project = at_revision(project, game_id, revision, Path(self._folder.name))
            there = (old_project.cards / game_id / "game.yaml").is_file()
            self.version: _Version | None = _laid_out(old_project, game_id) if there else None
        except BaseException:
            self._folder.cleanup()
            raise

    def diff(self, faces: GameFaces, markdown: str | None, visual: bool = False,
             pdf: bytes | None = None) -> GameDiff:
        """What prints differently from this revision to `faces` (a build's, with its
        rulebook's rendered Markdown and, where it typeset it, its PDF)."""
        new = _Version(faces, markdown, pdf)
        if self.version is None:
            return GameDiff(added=list(faces.game.cards()))
        if len(self.pictures) > PICTURES_KEPT:
            self.pictures.clear()
        return _rasterised(_compared(self.version, new), visual, self.pictures)

    def close(self) -> None:
        self._folder.cleanup()


__all__ = ["GameDiff", "Reprint", "Revision", "as_json", "compare", "diff_game", "errata_copies",
           "errata_lines", "format_diff", "show_change", "word_diff"]
