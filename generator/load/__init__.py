"""Stage 1, load: read a game's files into located documents and check their format.

Reads `cards/<game>/game.yaml`, the deck and data files it names, the sheet
presets its decks use (`layouts/sheets/<id>.yaml`) and `fonts/fonts.yaml`.
Each file is checked against cardgen's format schema; every problem is reported
with its location. Nothing here builds the model: that is `resolve`.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..model import PythonCheck
from ..paths import NAME_RULE, Outside, inside, is_name
from ..problems import Location, Report, UsageError, raised_in
from . import reread, schema
from .layouts import load_layout_chain, named_file
from .project import Project, check_format, note
from .revision import committed
from .spreadsheet import load_csv, load_xlsx
from .targets import _apply_target, _sized, declared_targets, target_names
from .limits import data_limits, game_limits
from .yamlfile import Document, load_yaml
from ..i18n import _

DEFAULT_SHEET = "a-one-51002"
game_context = schema.item_context("decks", "id", "deck")
card_context = schema.item_context("cards", "id", "card")
card_about = schema.item_about("cards", "id", "card")
checks_context = schema.item_context("checks", "name", "check")
DEFAULT_LAYOUTS = {"front": "default-front", "back": "default-back"}


@dataclass
class LoadedGame:
    id: str
    folder: Path
    game: Document
    target: str | None = None  # the print target it was loaded as (None: as written)
    revised: str = ""  # its folder's last commit date (revision.committed); "": not in git
    decks: dict[str, Document] = field(default_factory=dict)  # deck id -> its card file
    data: dict[str, Document] = field(default_factory=dict)  # table name -> its file
    sheets: dict[str, Document] = field(default_factory=dict)  # preset id -> its file
    # fonts.yaml and its folder: cardgen's, then the project's (whose families replace
    # those of the same name), or only one of them
    fonts: list[tuple[Document, Path]] = field(default_factory=list)
    checks: Document | None = None
    python_checks: list[PythonCheck] = field(default_factory=list)
    layouts: dict[str, list[tuple[str, Document]]] = field(default_factory=dict)  # name -> chain
    rulebook: tuple[str, str] | None = None  # (file as shown, text) of the rulebook template
    rulebook_includes: dict[str, tuple[str, str]] = field(default_factory=dict)  # see Rulebook
    macros: tuple[str, str] | None = None  # (file as shown, text) of the macros file
    boards: dict[str, Document] = field(default_factory=dict)  # board layout name -> file
    # Cards whose own values failed the deck file format: deck id -> their indices. Those
    # errors do not stop the pipeline: the cards go on, tainted, so that every other
    # problem of the game is still found (a bad value never hides the rest).
    bad_cards: dict[str, set] = field(default_factory=dict)
    # How many of the load stage's errors do not stop it: such card errors, and a checks
    # module that is not run without --trust (its checks are left out; the rest is checked).
    tolerated: int = 0

    def fatal(self, report: Report) -> bool:
        """True if the load stage found errors other than those it tolerates."""
        return len(report.errors) > self.tolerated


def load_python_checks(path: Path, project: Project, game_id: str, report: Report,
                       where: Location) -> list[PythonCheck]:
    """Import a game's checks module; its `check_*` functions are its checks.

    The module is the designer's own code, named in game.yaml (at `where`); it is imported,
    not sandboxed. Errors in it are reported at their line in the module."""
    display = project.display(path)
    name = f"cardgen_checks_{game_id.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # a name Python does not import (checks.txt)
        report.error(_("the checks module '{file}' is not a Python file (its name ends in .py)",
                       file=path.name), where, "python-checks")
        return []
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        report.error(_("Python syntax: {exc_msg}",
                       exc_msg=exc.msg), Location(display, exc.lineno or 1, exc.offset or 1),
                     "python-checks")
        return []
    except (Exception, SystemExit) as exc:  # the designer's module failed while importing
        what = _("called sys.exit()") if isinstance(exc, SystemExit) else \
            _("{kind}: {exc}", kind=type(exc).__name__, exc=exc)
        report.error(_("the checks module failed to load: {what}", what=what),
                     error_location(exc, path, display), "python-checks")
        return []
    finally:
        sys.modules.pop(name, None)
    checks = []
    for attr, value in vars(module).items():
        if attr.startswith("check_") and callable(value):
            line = getattr(getattr(value, "__code__", None), "co_firstlineno", 1)
            checks.append(PythonCheck(attr, value, Location(display, line, 1)))
    if not checks:
        report.warning(_("the checks module defines no check_* function"), Location(display, 1, 1),
                       "python-checks")
    return checks


def error_location(exc: BaseException, path: Path, display: str) -> Location:
    """The deepest line of `path` in the exception's traceback."""
    target = path.resolve()
    found = raised_in(exc, lambda name: Path(name).resolve() == target)
    return Location(display, found[1] if found else 1, 1)


def _load_checked(path: Path, project: Project, report: Report, schema_name: str,
                  context=lambda p, d: "", limits: dict | None = None) -> Document | None:
    doc = load_yaml(path, project.display(path), report, limits=limits)
    if doc is None:
        return None
    schema.check(doc, schema.validator_for(schema_name), report, lambda p: context(p, doc.data))
    # A document with format errors is still returned, so that the files it names are
    # checked too; the pipeline stops after this stage if any error was reported.
    return doc if isinstance(doc.data, dict) else None


def _referenced_file(base: Path, name: str, project: Project, report: Report,
                     where: Location, what: str) -> Path | None:
    """A file named in data, which must stay inside the game folder (paths.inside)."""
    try:
        inside(base, name)
    except Outside as exc:
        report.error(exc.sentence(_("{what} '{name}'", what=what, name=name), _("the game folder")),
                     where, "path")
        return None
    path = Path(os.path.normpath(base / name))  # as the user named it, for messages
    if not path.is_file():
        report.error(_("{what} '{name}' does not exist ({display})",
                       what=what, name=name, display=project.display(path)), where, "io")
        return None
    return path


def project_file(project: Project, folder: str, name: str, report: Report) -> Path | None:
    """A file the project keeps (fonts/fonts.yaml, layouts/printers.yaml), refused if it is a
    link leading out of its folder."""
    try:
        inside(project.root / folder, name)
    except Outside as exc:
        report.error(exc.sentence(f"{folder}/{name}", f"{folder}/"),
                     Location(f"{folder}/{name}"), "path")
        return None
    return project.root / folder / name


def load_fonts(project: Project, report: Report) -> list[tuple[Document, Path]]:
    """fonts/fonts.yaml with its folder: cardgen's, then the project's over it (its
    families add to cardgen's or replace those of the same name)."""
    layers = []
    theirs = project.shipped_file("fonts/fonts.yaml")
    if theirs is not None:
        note(_("font families: cardgen's ({file}), and the project's fonts/fonts.yaml over "
               "them", file=theirs) if (project.root / "fonts" / "fonts.yaml").is_file() else
             _("font families: cardgen's ({file})", file=theirs))
        doc = _load_checked(theirs, project, report, "fonts")
        if doc is not None:
            layers.append((doc, theirs.parent))
    path = project_file(project, "fonts", "fonts.yaml", report)
    if path is None:
        return layers
    if path.is_file():
        doc = _load_checked(path, project, report, "fonts")
        if doc is not None:
            layers.append((doc, project.root / "fonts"))
    elif theirs is None:
        report.error(_("fonts/fonts.yaml is missing: it names the font families layouts use"),
                     Location(project.display(path)), "io")
    return layers


class Printer(NamedTuple):
    """A printer offset profile: its name, the offset (x, y) in points, where it is written."""

    name: str
    offset: tuple[float, float]
    where: Location


def load_printer(project: Project, name: str, report: Report) -> Printer | None:
    """A printer offset profile from layouts/printers.yaml: the project's, else cardgen's."""
    from ..units import parse_length, to_mm

    if not is_name(name):
        raise UsageError(_("'{name}' cannot name a printer: a printer's name is {NAME_RULE}",
                           name=name, NAME_RULE=NAME_RULE))
    own = project_file(project, "layouts", "printers.yaml", report)
    if own is None:
        return None
    theirs = project.shipped_file("layouts/printers.yaml")
    files = [p for p in (own, theirs) if p is not None and p.is_file()]
    if not files:
        raise UsageError(_("unknown printer '{name}': there is no layouts/printers.yaml (see "
                           "'cardgen calibrate')", name=name))
    known: list[str] = []
    for path in files:
        doc = _load_checked(path, project, report, "printers")
        if doc is None or report.errors:
            return None
        printers = doc.data.get("printers", {})
        if name in printers:
            break
        known += [k for k in printers if k not in known]
    else:
        raise UsageError(_("unknown printer '{name}' (printers: {value})",
                           name=name, value=', '.join(known) or 'none'))
    if theirs is not None:
        note(_("printer '{name}': {file}", name=name, file=project.display(path)))
    try:
        dx, dy = (parse_length(v) for v in printers[name]["offset"])
    except ValueError as exc:
        report.error(_("printer '{name}': {exc}",
                       name=name, exc=exc), doc.locate(("printers", name, "offset")), "units")
        return None
    if max(abs(dx), abs(dy)) > MAX_PRINTER_OFFSET:  # it would move the backs off the paper
        report.error(_("printer '{name}': offset {dx:g} x {dy:g} mm is more than a printer shifts "
                       "a back page ({MAX_PRINTER_OFFSET:g} mm at most either way): measure "
                       "it again with 'cardgen calibrate'",
                           name=name, dx=to_mm(dx), dy=to_mm(dy),
                           MAX_PRINTER_OFFSET=to_mm(MAX_PRINTER_OFFSET)),
                     doc.locate(("printers", name, "offset")), "units")
        return None
    return Printer(name, (dx, dy), doc.locate(("printers", name, "offset")))


MAX_PRINTER_OFFSET = 20 * 72 / 25.4  # points: a back page shifted more is misfed, not offset


def export_profiles(project: Project) -> list[str]:
    """The export profiles the project has (layouts/exports/<name>.yaml), and cardgen's."""
    return [name for name in project.names("layouts/exports") if is_name(name)]


def load_export(project: Project, name: str, report: Report) -> Document | None:
    """An export profile (layouts/exports/<name>.yaml, the project's or cardgen's), checked
    against its schema. A name that is not a name, or that names no profile, is a usage
    error naming the profiles."""
    if not is_name(name):
        raise UsageError(_("'{name}' cannot name an export profile: a profile's name is "
                           "{NAME_RULE}", name=name, NAME_RULE=NAME_RULE))
    path = named_file(project.root / "layouts" / "exports", "layouts/exports", name,
                      _("export profile"), report, Location(f"layouts/exports/{name}.yaml"))
    if path is None:
        return None
    path = project.chosen("layouts/exports", name, path, _("export profile"))
    if not path.is_file():
        raise UsageError(_("unknown export profile '{name}' ({suggest})", name=name,
                           suggest=schema.suggest(name, export_profiles(project),
                                                  'layouts/exports/')))
    return _load_checked(path, project, report, "export")


def load_sheet(project: Project, sheet_id: str, report: Report, where: Location) -> Document | None:
    folder = project.root / "layouts" / "sheets"
    if named_file(folder, "layouts/sheets", sheet_id, _("sheet preset"), report, where) is None:
        return None
    path = project.chosen("layouts/sheets", sheet_id, folder / f"{sheet_id}.yaml",
                          _("sheet preset"))
    if not path.is_file():
        known = project.names("layouts/sheets")
        report.error(_("unknown sheet preset '{sheet_id}' ({suggest})", sheet_id=sheet_id,
                       suggest=schema.suggest(sheet_id, known, 'layouts/sheets/')), where,
                     "reference")
        return None
    return _load_checked(path, project, report, "sheet")


def _load_deck_file(path: Path, project: Project, deck: dict, game_doc: Document, i: int,
                    report: Report, loaded: "LoadedGame") -> Document | None:
    """A deck's cards from YAML, or from a CSV file or an XLSX sheet (typed by the deck's
    field declarations), checked against the deck file format either way. Errors inside
    one card's entry taint that card (loaded.bad_cards) instead of stopping the game."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        doc = load_yaml(path, project.display(path), report)
        if doc is None:
            return None
        _check_deck(doc, deck, report, loaded)
        return doc if isinstance(doc.data, dict) else None
    declared = deck.get("fields")
    fields = declared if isinstance(declared, dict) else {}
    display = project.display(path)
    if suffix == ".csv":
        doc = load_csv(path, display, fields, deck.get("encoding"), report)
    else:
        doc = load_xlsx(path, display, fields, deck.get("worksheet"), report,
                        game_doc.locate(("decks", i, "worksheet")))
    if doc is not None:
        _check_deck(doc, deck, report, loaded)
    return doc


def _check_deck(doc: Document, deck: dict, report: Report, loaded: "LoadedGame") -> None:
    paths: list = []
    before = len(report.errors)
    deck_id = deck.get("id") if isinstance(deck.get("id"), str) else None

    def about(path: tuple) -> dict:  # a card's problem: its card, field and deck as data
        found = card_about(path, doc.data)
        return {**found, "deck": deck_id} if found else found

    validator = schema.validator_for("deck")
    reread.check(doc, validator, report, lambda p: card_context(p, doc.data), paths, about,
                 _cards_checked(doc.file, validator), "cards")
    inside_cards = [p for p in paths if len(p) >= 3 and p[0] == "cards" and isinstance(p[1], int)]
    if paths and len(inside_cards) == len(paths) and isinstance(deck.get("id"), str):
        loaded.bad_cards.setdefault(deck["id"], set()).update(p[1] for p in inside_cards)
        loaded.tolerated += len(report.errors) - before


# (deck file, the validator's id) -> its cards found clean, where reads are kept
_CHECKED: dict[tuple[str, int], reread.Clean] = {}


def _cards_checked(file: str, validator) -> reread.Clean | None:
    """What the deck file's cards were found to be by `validator`, where reads are kept
    (serve, watch): a card read again unchanged is not checked again."""
    if not reread.keeping():
        return None
    with _CHECKING:
        return _CHECKED.setdefault((file, id(validator)), reread.Clean(validator))


_CHECKING = threading.Lock()


def sheet_preset_id(deck: dict):
    """The preset a deck names: `sheet: ID` or `sheet: {preset: ID, ...}`."""
    sheet = deck.get("sheet", DEFAULT_SHEET)
    return sheet.get("preset") if isinstance(sheet, dict) else sheet


__all__ = ["LoadedGame", "Project", "declared_targets", "load_game", "target_names"]


@dataclass
class _Loading:
    """What each file kind's loader is given: the game being loaded and where it stands."""

    project: Project
    folder: Path
    game_doc: Document
    loaded: "LoadedGame"
    report: Report

    def file(self, name: str, at: tuple, what: str) -> Path | None:
        """A file game.yaml names, through the containment rule (reported if it fails)."""
        return _referenced_file(self.folder, name, self.project, self.report,
                                self.game_doc.locate(at), what)

    def layout(self, name: str, where: Location) -> None:
        """A card layout (and the layouts it extends), once."""
        if name not in self.loaded.layouts:
            chain = load_layout_chain(self.project, name, self.report, where)
            if chain is not None:
                self.loaded.layouts[name] = chain


def _load_decks(c: _Loading, data: dict) -> None:
    """Each deck's file, the layouts its cards name as their backs, its layouts and sheet."""
    for i, deck in enumerate(data.get("decks") or []):
        if not isinstance(deck, dict) or not isinstance(deck.get("id"), str):
            continue
        deck_id = deck["id"]
        if deck_id in c.loaded.decks:
            c.report.error(_("deck '{deck_id}' is defined twice", deck_id=deck_id),
                           c.game_doc.locate(("decks", i, "id")), "identity")
            continue
        if isinstance(deck.get("cards"), str):
            path = c.file(deck["cards"], ("decks", i, "cards"), _("card file"))
            doc = _load_deck_file(path, c.project, deck, c.game_doc, i, c.report, c.loaded) \
                if path is not None else None
            if doc is not None:
                c.loaded.decks[deck_id] = doc
                for j, card in enumerate(doc.data.get("cards") or []):
                    name = card.get("back") if isinstance(card, dict) else None
                    if isinstance(name, str):
                        c.layout(name, doc.locate(("cards", j, "back")))
        for side, default in DEFAULT_LAYOUTS.items():
            layout = deck.get(side, default)
            if isinstance(layout, str):
                c.layout(layout, c.game_doc.locate(("decks", i, side) if side in deck
                                                   else ("decks", i)))
        sheet_id = sheet_preset_id(deck)
        if isinstance(sheet_id, str) and sheet_id not in c.loaded.sheets:
            where = c.game_doc.locate(("decks", i, "sheet") + (("preset",) if isinstance(
                deck.get("sheet"), dict) else ())) if "sheet" in deck else \
                c.game_doc.locate(("decks", i))
            sheet = load_sheet(c.project, sheet_id, c.report, where)
            if sheet is not None:
                c.loaded.sheets[sheet_id] = sheet


def _load_data(c: _Loading, data: dict) -> None:
    limits = data_limits(data)
    for name, file in (data.get("data") or {}).items():
        if not isinstance(file, str):
            continue
        path = c.file(file, ("data", name), _("data file"))
        doc = load_yaml(path, c.project.display(path), c.report, typed_keys=True,
                        limits=limits.get(str(name))) if path is not None else None
        if doc is not None:
            c.loaded.data[name] = doc


def _load_checks(c: _Loading, data: dict) -> None:
    if isinstance(data.get("checks"), str):
        path = c.file(data["checks"], ("checks",), _("checks file"))
        if path is not None:
            c.loaded.checks = _load_checked(path, c.project, c.report, "checks", checks_context)


def _load_python_checks(c: _Loading, data: dict) -> None:
    if not isinstance(data.get("python_checks"), str):
        return
    path = c.file(data["python_checks"], ("python_checks",), _("checks module"))
    if path is not None and not c.project.trust:
        c.report.error(_("the game names a Python checks module ('{data}'): its code would run "
                         "with your permissions, so cardgen runs it only when you pass --trust",
                         data=data['python_checks']), c.game_doc.locate(("python_checks",)),
                       "python-checks")
        c.loaded.tolerated += 1  # the rest of the game is still checked, without its checks
    elif path is not None:
        c.loaded.python_checks = load_python_checks(path, c.project, c.loaded.id, c.report,
                                                    c.game_doc.locate(("python_checks",)))


def _load_boards(c: _Loading, data: dict) -> None:
    """Each board's board layout (layouts/boards/), and the card layouts of its cells and of
    its art."""
    folder = c.project.root / "layouts" / "boards"
    for i, board in enumerate(data.get("boards") or []):
        for key in ("cell", "art"):  # the layout of its cells; what it draws freely
            layout = board.get(key) if isinstance(board, dict) else None
            if isinstance(layout, str):
                c.layout(layout, c.game_doc.locate(("boards", i, key)))
        name = board.get("layout") if isinstance(board, dict) else None
        if not is_name(name) or name in c.loaded.boards:
            continue
        where = c.game_doc.locate(("boards", i, "layout"))
        if named_file(folder, "layouts/boards", name, _("board layout"), c.report, where) is None:
            continue
        path = c.project.chosen("layouts/boards", name, folder / f"{name}.yaml",
                                _("board layout"))
        if not path.is_file():
            known = c.project.names("layouts/boards")
            c.report.error(_("unknown board layout '{name}' ({suggest})", name=name,
                             suggest=schema.suggest(name, known, 'layouts/boards/')), where,
                           "reference")
            continue
        doc = _load_checked(path, c.project, c.report, "board")
        if doc is not None:
            c.loaded.boards[name] = doc


def _load_macros(c: _Loading, data: dict) -> None:
    if isinstance(data.get("macros"), str):
        path = c.file(data["macros"], ("macros",), _("macros file"))
        if path is None:
            return
        text = _read_text(path, c.project.display(path), c.report)
        if text is not None:
            c.loaded.macros = (c.project.display(path), text)


def _load_rulebook(c: _Loading, data: dict) -> None:
    """The rulebook template, and every file it includes, imports or extends."""
    rulebook = data.get("rulebook")
    if not isinstance(rulebook, dict) or not isinstance(rulebook.get("template"), str):
        return
    path = c.file(rulebook["template"], ("rulebook", "template"), _("rulebook template"))
    if path is None:
        return
    text = _read_text(path, c.project.display(path), c.report)
    if text is not None:
        c.loaded.rulebook = (c.project.display(path), text)
        _load_includes(c.folder, c.project, c.project.display(path), text,
                       (rulebook["template"],), c.loaded.rulebook_includes, c.report)


# The files game.yaml names, by kind, in the order they are loaded.
FILE_KINDS = (("decks", _load_decks), ("data", _load_data), ("checks", _load_checks),
              ("python_checks", _load_python_checks), ("boards", _load_boards),
              ("macros", _load_macros), ("rulebook", _load_rulebook))


def load_game(project: Project, game_id: str, report: Report,
              target: str | None = None) -> LoadedGame | None:
    """Load everything one game needs, as print target `target` sees it (None: as written).
    Returns None when a file cannot be read at all."""
    folder = project.game_folder(game_id)
    check_format(project, report)  # an older project's changes to mend, said once a game
    try:
        inside(folder, "game.yaml")
    except Outside as exc:
        report.error(exc.sentence("game.yaml", _("the game folder")),
                     Location(project.display(folder / "game.yaml")), "path")
        return None
    game_doc = _load_checked(folder / "game.yaml", project, report, "game", game_context,
                             game_limits())
    if game_doc is None:
        return None
    targets = game_doc.data.get("targets")
    if target is not None and isinstance(targets, dict) and isinstance(targets.get(target), dict):
        game_doc = _apply_target(game_doc, target, report)
    loaded = LoadedGame(game_id, folder, game_doc, target, committed(folder))
    loading = _Loading(project, folder, game_doc, loaded, report)
    for _kind, load in FILE_KINDS:
        load(loading, game_doc.data)
    loaded.fonts = load_fonts(project, report)
    spec = targets.get(target) if target and isinstance(targets, dict) else None
    size = spec.get("size") if isinstance(spec, dict) else None
    if size is not None:  # the target's card size, on every layout the game uses
        at = ("targets", target, "size")
        loaded.layouts = {name: _sized(chain, size, at, game_doc)
                          for name, chain in loaded.layouts.items()}
    return loaded


MAX_INCLUDES = 200  # files a rulebook template may include, import or extend, in all


def _load_includes(folder: Path, project: Project, shown: str, text: str, trail: tuple,
                   found: dict, report: Report) -> None:
    """Read every file a rulebook template includes, imports or extends (and what those
    include), each through the containment rule. The names must be written out in quotes:
    only then can they be checked before anything renders. A loop is an error here."""
    import jinja2
    from jinja2 import nodes

    try:
        tree = jinja2.Environment().parse(text)
    except jinja2.TemplateSyntaxError:
        return  # the rulebook stage reports the syntax error at its line
    naming = (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)
    for node in tree.find_all(naming):
        if not isinstance(node, naming):  # (what find_all found: its type says only Stmt)
            continue
        where = Location(shown, node.lineno, 1)
        keyword = {nodes.Include: "include", nodes.Extends: "extends"}.get(type(node), "import")
        if not isinstance(node.template, nodes.Const) or not isinstance(node.template.value, str):
            report.error(_("rulebook: {{% {keyword} %}} must name one file, written in quotes",
                           keyword=keyword),
                         where, "rulebook")
            continue
        name = node.template.value
        if name in trail:
            loop = " -> ".join(trail[trail.index(name):] + (name,))
            report.error(_("rulebook: {{% {keyword} '{name}' %}} makes a loop ({loop})",
                           keyword=keyword, name=name, loop=loop), where,
                         "rulebook")
            continue
        if name in found:
            continue
        if len(found) >= MAX_INCLUDES:
            report.error(_("rulebook: more than {MAX_INCLUDES} included files",
                           MAX_INCLUDES=MAX_INCLUDES), where, "rulebook")
            return
        path = _referenced_file(folder, name, project, report, where, _("included file"))
        if path is None:
            continue
        included = _read_text(path, project.display(path), report)
        if included is None:
            continue
        found[name] = (project.display(path), included)
        _load_includes(folder, project, project.display(path), included, trail + (name,), found,
                       report)


def _read_text(path: Path, display: str, report: Report) -> str | None:
    from .yamlfile import _decode

    try:
        raw = path.read_bytes()
    except OSError as exc:
        report.error(_("cannot read the file: {exc_strerror}",
                       exc_strerror=exc.strerror), Location(display), "io")
        return None
    return _decode(raw, display, report)
