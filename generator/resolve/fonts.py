"""Font families: the project's (fonts/fonts.yaml) and a game's own (`fonts:`), each file
registered once, with its licence looked for beside it."""

from __future__ import annotations

from pathlib import Path

from ..fonts import FontFileError, register
from ..load import LoadedGame
from ..load.project import note
from ..load.yamlfile import Document
from ..paths import Outside, inside
from ..model import FontFamily
from ..problems import Report
from ..i18n import _


LICENCE_FILES = ("OFL.txt", "OFL", "LICENSE", "LICENCE", "LICENSE.txt", "LICENCE.txt",
                 "LICENSE.md", "COPYING", "COPYING.txt")  # looked for beside a game's font


def resolve_fonts(layers: list[tuple[Document, Path]], report: Report) -> dict[str, FontFamily]:
    """The font families of fonts.yaml, cardgen's and then the project's (load_fonts): a
    project's family replaces cardgen's of the same name, said in the notes."""
    families: dict[str, FontFamily] = {}
    declared: dict[str, Document] = {}
    for i, (doc, folder) in enumerate(layers):
        later = {name for over, _folder in layers[i + 1:] for name in over.data["families"]}
        taken = {name: files for name, files in doc.data["families"].items()
                 if name not in later}  # a family replaced is not read at all
        mine = _families(taken, folder, "fonts/",
                         lambda *path, doc=doc: doc.locate(("families",) + path), report)
        for name in mine if i else ():
            note(_("font family '{name}': the project's fonts/fonts.yaml, over cardgen's",
                   name=name) if name in layers[0][0].data["families"] else
                 _("font family '{name}': the project's fonts/fonts.yaml", name=name))
        families.update(mine)
        declared.update({name: doc for name in taken})
    _check_fallbacks(families, lambda name: declared[name].locate(("families", name,
                                                                   "fallback")), report)
    return families


def resolve_game_fonts(loaded: LoadedGame, project_families: dict, report: Report) -> dict:
    """The project's families, and the game's own (`fonts:` in game.yaml, files inside the
    game folder) over them. A game's font without a licence file is a warning: a game
    folder is shared, and so are its fonts."""
    own = loaded.game.data.get("fonts") or {}
    if not own:
        return project_families
    locate = lambda *path: loaded.game.locate(("fonts",) + path)  # noqa: E731
    mine = _families(own, loaded.folder, _("the game folder"), locate, report)
    families = {**project_families, **mine}
    for name in mine:
        files = own[name]
        if "licence" in files:
            try:
                licence = inside(loaded.folder, files["licence"])
            except Outside as exc:
                report.error(exc.sentence(_("font family '{family}': licence '{file}'",
                                            family=name, file=files['licence']),
                                          _("the game folder")), locate(name, "licence"), "path")
                continue
            if not licence.is_file():
                report.warning(_("font family '{name}': its licence file '{files}' does not exist",
                                 name=name, files=files['licence']), locate(name, "licence"),
                               "font")
            continue
        folder = inside(loaded.folder, files["regular"]).parent
        if not any((folder / candidate).is_file() for candidate in LICENCE_FILES):
            report.warning(_("font family '{name}': no licence file beside '{files}' ({join}...); "
                             "a game folder is shared, so its fonts must be ones you may "
                             "share: put the licence beside the font, or name it with licence:",
                                 name=name, files=files['regular'],
                                 join=', '.join(LICENCE_FILES[:3])), locate(name), "font")
    _check_fallbacks(families, lambda name: locate(name, "fallback") if name in own else
                     loaded.game.locate(("fonts",)), report)
    return families


def _families(declared: dict, base: Path, base_words: str, locate, report: Report) -> dict:
    families: dict[str, FontFamily] = {}
    for family, files in declared.items():
        names: dict[str, str] = {}  # weight -> the font's registered name
        for weight in ("regular", "bold"):
            if weight == "bold" and "bold" not in files:  # the regular file serves for bold
                if "regular" in names:
                    names["bold"] = names["regular"]
                continue
            file = files[weight]
            where = locate(family, weight if weight in files else "regular")
            try:
                path = inside(base, file)
            except Outside as exc:
                report.error(exc.sentence(_("font family '{family}': '{file}'", family=family,
                                            file=file),
                                             base_words), where,
                             "path")
                continue
            if not path.is_file():
                report.error(_("font family '{family}': {weight} file '{file}' does not exist",
                               family=family, weight=weight, file=file),
                             where, "font")
                continue
            try:
                names[weight] = register(path, where, family)
            except FontFileError as exc:
                report.error(_("font family '{family}': {exc}",
                               family=family, exc=exc), where, "font")
        for slant in ("italic", "bold_italic"):
            if slant not in files:
                continue
            where = locate(family, slant)
            try:
                path = inside(base, files[slant])
            except Outside as exc:
                report.error(exc.sentence(_("font family '{family}': '{file}'", family=family,
                                               file=files[slant]), base_words),
                             where, "path")
                continue
            if not path.is_file():
                report.error(_("font family '{family}': {slant} file '{files}' does not exist",
                               family=family, slant=slant, files=files[slant]), where, "font")
                continue
            try:
                names[slant] = register(path, where, family)
            except FontFileError as exc:
                report.error(_("font family '{family}': {exc}",
                               family=family, exc=exc), where, "font")
        if "regular" in names and "bold" in names:
            families[family] = FontFamily(family, names["regular"], names["bold"],
                                          tuple(files.get("fallback", ())),
                                          names.get("italic", ""), names.get("bold_italic", ""))
    return families


def _check_fallbacks(families: dict, locate, report: Report) -> None:
    for family in families.values():
        for other in family.fallback:
            if other not in families:
                report.error(_("font family '{family_name}': fallback '{other}' is not a family "
                               "(families: {join})",
                                   family_name=family.name, other=other,
                                   join=', '.join(families)), locate(family.name), "font")
