"""Stage 2, resolve: turn loaded documents into the frozen game model.

Lengths become points, colours become RGB, preset and font names become the
objects they name, and defaults are filled in. The documents passed the format
schema in `load`, so shapes and types can be trusted here; what is checked is
what a schema cannot say (a preset whose cards do not fit its paper, a font file
that cannot be embedded).

One module per subject: sheets, fonts, colors (the palette and icons), decks, boards,
rulebook, stats, checks, layouts and exports. This one puts the game together.
"""

from __future__ import annotations

from pathlib import Path

from .. import sandbox
from ..declared import GAME
from ..load import LoadedGame, declared_targets
from ..model import Game, default, frozen_mapping
from ..problems import Location, Report
from ..values import flag
from .boards import resolve_boards
from .checks import resolve_checks
from .colors import resolve_icons, resolve_palette
from .decks import macro_game, resolve_decks
from .fonts import resolve_fonts, resolve_game_fonts
from .layouts import resolve_layout
from .rulebook import resolve_rulebook
from .sheets import resolve_sheet
from .stats import resolve_stats
from ..i18n import _

__all__ = ["resolve_fonts", "resolve_game", "resolve_sheet"]


def _art_only(g: dict) -> frozenset[str]:
    """The layouts the game names only as a board's `art:` (a board's size, not a card's):
    not a deck's front or back, nor a board's cell layout."""
    boards = [b for b in g.get("boards") or [] if isinstance(b, dict)]
    art = {b["art"] for b in boards if isinstance(b.get("art"), str)}
    faces = {b.get("cell") for b in boards} | {
        d.get(key) for d in g.get("decks") or [] if isinstance(d, dict)
        for key in ("front", "back")}
    return frozenset(art - faces)


def resolve_game(loaded: LoadedGame, report: Report, folder_display: str) -> Game | None:
    """Build the model. Returns None if something it needs could not be resolved."""
    g = loaded.game.data
    n_errors, tolerated = len(report.errors), loaded.tolerated
    fonts = resolve_game_fonts(loaded, resolve_fonts(loaded.fonts, report),
                               report)
    defaults = g.get("defaults") if isinstance(g.get("defaults"), dict) else {}
    game_defaults = (defaults, {k: loaded.game.locate(("defaults", k)) for k in defaults})
    art = _art_only(g)
    layouts = {name: resolve_layout(name, chain, report, game_defaults, name in art)
               for name, chain in loaded.layouts.items()}
    palette = resolve_palette(loaded, report)
    macros_text = loaded.macros[1] if loaded.macros else ""
    data = {k: doc.data for k, doc in loaded.data.items()}
    if loaded.macros and macros_text:
        try:
            sandbox.macros(macros_text, {"data": data, "game": macro_game(loaded)})
        except sandbox.SandboxError as exc:
            report.error(_("macros: {exc}", exc=exc), Location(loaded.macros[0], 1, 1), "macros")
            macros_text = ""
    icons = resolve_icons(loaded, palette, fonts, report)
    decks = resolve_decks(loaded, layouts, palette, data, macros_text, report)
    font = (g.get("rulebook") or {}).get("font") if isinstance(g.get("rulebook"), dict) else None
    if font and font not in fonts:
        report.error(_("rulebook: font: unknown font family '{font}' (families: {join})",
                       font=font, join=', '.join(fonts)), loaded.game.locate(("rulebook", "font")),
                     "font")
    rulebook = resolve_rulebook(loaded, g, report, palette)
    boards = resolve_boards(loaded, decks, report, layouts, palette)
    # (a board's cell with a bad value is left out of it, reported: the rest is checked on)
    if len(report.errors) - n_errors > loaded.tolerated - tolerated:
        return None
    w = GAME.written(g)  # game.yaml's own keys, each unwritten one its declared default
    return Game(
        id=loaded.id,
        title=w["title"],
        title_en=w["title_en"],
        version=str(w["version"]),
        folder=folder_display,
        decks=tuple(decks),
        data=frozen_mapping({k: doc.data for k, doc in loaded.data.items()}),
        data_sources=frozen_mapping({k: doc.source for k, doc in loaded.data.items()}),
        fonts=frozen_mapping(fonts),
        loc=loaded.game.locate(()),
        root=str(loaded.folder.resolve()),
        project_root=str(Path(loaded.folder).resolve().parent.parent),
        colors=frozen_mapping(palette),
        icons=frozen_mapping(icons),
        checks=resolve_checks(loaded),
        rulebook=rulebook,
        macros=macros_text,
        boards=boards,
        stamp=flag(w["stamp"]),
        revised=loaded.revised,
        declared_lang=w["lang"] or default(Game, "declared_lang"),
        targets=declared_targets(g), target=loaded.target,
        target_loc=loaded.game.locate(("targets", loaded.target), key=True)
        if loaded.target else None,
        python_checks=tuple(loaded.python_checks),
        stats=resolve_stats(loaded),
        max_score=w["max_score"],
    )
