"""`cardgen new GAME`: a first game that validates and builds at once.

Writes cards/GAME/ (a commented game.yaml, a three-card deck, a rulebook template)
and the game's front and back layouts in layouts/, in English or Japanese, for a named
card size or any WIDTHxHEIGHT, on a sheet for the paper. What is not asked for follows
the person who runs it: the game's language is the run's (--lang, else the locale's,
else English), its paper the locale's (units.locale_paper: Letter in the United States
and Canada, A4 elsewhere), its cards the language's first size (poker cards in English,
meishi in Japanese); `NewGame.chosen` says so in one line. Before writing anything, the
new game is built in a scratch copy of the project: a combination that would not build
(a sheet for other cards) is refused with the reason. Never overwrites anything: an
existing folder or layout is a usage error.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import shipped, versions
from .load import Project
from .load.project import MARKER, format_of, project_above
from .load.yamlfile import load_yaml
from .paths import NAME_RULE, Outside, inside, is_name
from .problems import DataProblems, Report, UsageError
from .units import (CARD_SIZES, PAPER, US_PAPERS, card_size_problem, locale_paper, paper_name,
                    parse_length, to_mm)
from .i18n import LANGS, N_, Message, _, language

# The sheet a named size is printed on, per paper; any other size goes on plain paper
# (plain-<paper>), where the grid is fitted to the card.
SHEETS = {("meishi", "A4"): "a-one-51002", ("us-business", "Letter"): "avery-5371",
          ("poker", "A4"): "a4-poker-9up", ("poker", "Letter"): "letter-poker-9up"}
# The size a designer of the language most likely starts with, where --size does not say:
# poker cards in English, meishi (名刺, on A-One's sheets) in Japanese.
FIRST_SIZE = {"en": "poker", "ja": "meishi"}
LANGUAGE_NAMES = {"en": N_("English"), "ja": N_("Japanese")}
RULEBOOK_PAGE = {True: "Half-letter", False: "A5"}  # half the US or the ISO paper: a booklet on it
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # never open through a link (POSIX; not on Windows)
_CUSTOM = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*[x×]\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|cm|in)\s*$")

GAME_YAML = """\
# {c_intro}
title: {game}  # {c_title}
lang: {lang}  # {c_lang}
{defaults_line}decks:
  - id: cards
    name: {deck_name}
    cards: cards.yaml  # {c_cards}
    sheet: {sheet}  # {c_sheet}
    front: {game}-front  # {c_front}
    back: {game}-back
    color: "#2f5d8a"
    fields:  # {c_fields}
      name: {{type: text, required: true}}
      cost: {{type: integer, required: true, minimum: 0}}
      text: {{type: text}}
rulebook:
  template: rulebook.md  # {c_rulebook}
  page: {page}
{rulebook_font_line}"""
# What an English game sets in Latin type (docs/layouts.md, "Defaults"; docs/rulebook.md):
# its cards' text and its rulebook, Japanese falling back to gothic. A Japanese game keeps
# the main family.
LATIN_LINES = {
    "defaults_line": "defaults: {{font: latin}}  # {c_defaults}\n",
    "rulebook_font_line": "  font: latin  # {c_rulebook_font}\n",
}
# A line's comment starts in the column of the others' (two spaces after the longest line
# that has one), whatever the game's name: a line longer than COMMENT_COLUMN_AT_MOST (a
# long name) keeps its comment two spaces after it rather than push every other one out.
_COMMENTED = re.compile(r"^(?P<code>[ -]*[^\s#].*?) +(?P<comment># .*)$")
COMMENT_COLUMN_AT_MOST = 40


def aligned(text: str) -> str:
    """YAML text with the comments after its lines' values in one column."""
    lines = text.split("\n")
    found = [_COMMENTED.match(line) for line in lines]
    column = max((len(m["code"]) + 2 for m in found
                  if m and len(m["code"]) + 2 <= COMMENT_COLUMN_AT_MOST), default=0)
    return "\n".join(m["code"].ljust(max(column, len(m["code"]) + 2)) + m["comment"] if m else line
                     for line, m in zip(lines, found))


# The comments of the files `cardgen new` writes, in the new game's language.
COMMENTS = {
    "c_intro": N_("{game}: made by `cardgen new`. Every key is explained in docs/format.md."),
    "c_title": N_("the game's title: card backs and the rulebook cover show it"),
    "c_lang": N_("en or ja: the language of the words cardgen adds (rulebook cover, contents) "
                 "and of its messages"),
    "c_cards": N_("the deck file: one entry per card"),
    "c_sheet": N_("the paper the cards are printed on (docs/printing.md)"),
    "c_front": N_("the card face, a layout in layouts/ (docs/layouts.md)"),
    "c_fields": N_("what every card has; checked by `cardgen validate`"),
    "c_rulebook": N_("Markdown with data in {{ }} (docs/rulebook.md)"),
    "c_defaults": N_("every text of the game's layouts in Latin type, Japanese from gothic "
                     "(docs/layouts.md, \"Defaults\")"),
    "c_rulebook_font": N_("the rulebook's text and contents in Latin type"),
    "deck_name": N_("Cards"),
    "c_deck_file": N_("The cards. `copies` says how many to print; a value you have not "
                      "decided yet\n# can be TBD: `cardgen validate` lists it and the card "
                      "prints with a DRAFT mark."),
    "c_front_layout": N_("{game}: card front ({size}). Positions are from the top-left "
                         "corner; % is of the card."),
    "c_back_layout": N_("{game}: card back ({size})."),
}


def _comments(lang: str, game: str, size: str) -> dict[str, str]:
    """The comments, said in `lang` (the new game's)."""
    return {key: message.shown(lang).replace("{game}", game).replace("{size}", size)
            for key, message in COMMENTS.items()}


CARDS_YAML = {"ja": """\
# {c_deck_file}
cards:
  - id: scout
    name: 斥候
    cost: 1
    text: カードを1枚引く。
    copies: 3
  - id: knight
    name: 騎士
    cost: 3
    text: 相手のカード1枚を捨て札にする。
    copies: 2
  - id: oracle
    name: 巫女
    cost: 2
    text: TBD
""", "en": """\
# {c_deck_file}
cards:
  - id: scout
    name: Scout
    cost: 1
    text: Draw a card.
    copies: 3
  - id: knight
    name: Knight
    cost: 3
    text: Your opponent discards a card.
    copies: 2
  - id: oracle
    name: Oracle
    cost: 2
    text: TBD
"""}

FRONT_YAML = """\
# {c_front_layout}
size: {size}
elements:
  - {{name: background, type: rect, fill: "{{{{ deck.color }}}}", bleed: true}}
  - {{name: panel, type: rect, x: 3mm, y: 3mm, width: 100% - 6mm, height: 100% - 6mm,
     radius: 2mm, fill: white}}
  - {{name: cost-disc, type: circle, x: 5mm, y: 5mm, width: 9mm, height: 9mm,
     fill: "{{{{ deck.color }}}}"}}
  - {{name: cost, type: text, text: "{{{{ card.cost }}}}", bold: true, x: 5mm, y: 5mm, width: 9mm,
     height: 9mm, size: 12pt, color: white, align: center, valign: middle, line_spacing: 1}}
  - {{name: name, type: text, text: "{{{{ card.name }}}}", bold: true, x: 16mm, y: 5mm,
     width: 100% - 21mm, height: 9mm, size: 13pt, valign: middle, fit: shrink, min_size: 8pt}}
  - {{name: text, type: text, text: "{{{{ card.text }}}}", x: 6mm, y: 50%, width: 100% - 12mm,
     height: 50% - 9mm, size: 8pt, fit: shrink, min_size: 6pt, align: justify}}
"""

BACK_YAML = """\
# {c_back_layout}
size: {size}
elements:
  - {{name: background, type: rect, fill: "{{{{ deck.color }}}}", bleed: true}}
  - {{name: border, type: rect, x: 4mm, y: 4mm, width: 100% - 8mm, height: 100% - 8mm, radius: 2mm,
     stroke: white, stroke_width: 0.8pt}}
  - {{name: title, type: text, text: "{{{{ game.title }}}}", x: 6mm, y: 0mm, width: 100% - 12mm,
     height: 100%, size: 14pt, color: white, align: center, valign: middle, fit: shrink,
     min_size: 7pt}}
"""

RULEBOOK_MD = {"en": """\
# Overview

Write your rules here. Everything between double curly braces comes from the game's
data, so the rulebook changes with the cards.

# Components

- {{{{ cards | sum(attribute='copies') }}}} cards:
{{%- for c in cards %}}
    - {{{{ c.name }}}} × {{{{ c.copies }}}}
{{%- endfor %}}

{{{{ card_faces(cards | map(attribute='id') | list) }}}}

# Cards

| Card | Cost | Effect |
|---|---|---|
{{%- for c in cards %}}
| {{{{ c.name }}}} | {{{{ c.cost }}}} | {{{{ c.text }}}} |
{{%- endfor %}}
""", "ja": """\
# 概要

ここにルールを書きます。二重の波括弧の中はゲームのデータから取られるので、カードを
直せばルールブックも変わります。

# 内容物

- カード{{{{ cards | sum(attribute='copies') }}}}枚：
{{%- for c in cards %}}
    - {{{{ c.name }}}}（{{{{ c.copies }}}}枚）
{{%- endfor %}}

{{{{ card_faces(cards | map(attribute='id') | list) }}}}

# カード

| カード | コスト | 効果 |
|---|---|---|
{{%- for c in cards %}}
| {{{{ c.name }}}} | {{{{ c.cost }}}} | {{{{ c.text }}}} |
{{%- endfor %}}
"""}


GITIGNORE = """\
# What cardgen builds: made again by `cardgen build` from the files kept here.
/output/
"""


def card_size(text: str) -> tuple[str, str]:
    """(what a layout's `size:` says, the size in words) for a named size or WIDTHxHEIGHT
    with a unit (`33x54mm`, `2.5x3.5in`)."""
    if text in CARD_SIZES:
        w_mm, h_mm = CARD_SIZES[text]
        return text, f"{w_mm:g} x {h_mm:g} mm"
    custom = _CUSTOM.match(text)
    if custom:
        w, h, unit = custom.groups()
        try:
            width, height = parse_length(w + unit), parse_length(h + unit)
        except ValueError as error:  # a length no card can have (too many digits)
            raise UsageError(_("--size {strip}: {error}",
                               strip=text.strip(), error=error)) from None
        problem = card_size_problem((width, height))  # the one rule layouts follow too
        if problem:
            raise UsageError(_("--size {strip}: {problem}", strip=text.strip(), problem=problem))
        return f"[{w}{unit}, {h}{unit}]", f"{to_mm(width):g} x {to_mm(height):g} mm"
    raise UsageError(_("unknown card size '{text}' (sizes: {join}, or any WIDTHxHEIGHT with a "
                       "unit: 33x54mm, 2.5x3.5in)", text=text, join=', '.join(CARD_SIZES)))


def _sheet_file(project: Project, sheet: str) -> Path | None:
    """The sheet preset's file: the project's, else cardgen's; None if neither has it."""
    if not is_name(sheet):
        return None
    own = project.root / "layouts" / "sheets" / f"{sheet}.yaml"
    return own if own.is_file() else project.shipped_file(f"layouts/sheets/{sheet}.yaml")


def _preset_paper(project: Project, sheet: str) -> str | None:
    path = _sheet_file(project, sheet)
    if path is None:
        return None
    doc = load_yaml(path, project.display(path), Report())  # the one YAML reader
    data = doc.data if doc is not None else None
    paper = data.get("paper") if isinstance(data, dict) else None
    return paper if isinstance(paper, str) and paper in PAPER else None


@dataclass(frozen=True)
class Choice:
    """What a new game is made in: the options given, and what follows the person for
    those not given."""
    lang: str
    size: str  # as given or chosen: "poker", "2.5x3.5in"
    layout_size: str  # what the layouts' `size:` says
    size_words: str  # "63 x 88 mm"
    paper: str  # a PAPER name
    sheet: str  # a preset of layouts/sheets/


@dataclass(frozen=True)
class NewGame:
    files: list[Path]
    chosen: Message  # one line: what was chosen, and how to choose otherwise


def choose(project: Project, size: str | None = None, sheet: str | None = None,
           paper: str | None = None, lang: str | None = None) -> Choice:
    """The options checked, and those not given chosen: the language the run's (--lang,
    else the locale's, else English: i18n.language), the size the language's first, the
    paper the sheet's or else the locale's, the sheet one for the size and paper."""
    if lang is not None and lang not in LANGS:
        raise UsageError(_("unknown language '{lang}' (languages: {join})",
                           lang=lang, join=', '.join(LANGS)))
    lang = lang or language()
    size = FIRST_SIZE[lang] if size is None else size
    layout_size, size_words = card_size(size)
    if paper is not None and paper_name(paper) is None:
        raise UsageError(_("unknown paper '{paper}' (papers: {join})",
                           paper=paper, join=', '.join(PAPER)))
    if sheet is not None and _sheet_file(project, sheet) is None:
        raise UsageError(_("unknown sheet preset '{sheet}' (see layouts/sheets/)", sheet=sheet))
    chosen_paper = (paper_name(paper) if paper else None) or \
        (_preset_paper(project, sheet) if sheet else None) or locale_paper()
    if sheet is None:
        sheet = SHEETS.get((size, chosen_paper), f"plain-{chosen_paper.lower()}")
        if _sheet_file(project, sheet) is None:
            raise UsageError(_("no sheet preset for {size_words} cards on {paper} paper; give one "
                               "with --sheet (see layouts/sheets/)",
                               size_words=size_words, paper=chosen_paper))
    return Choice(lang, size.strip(), layout_size, size_words, chosen_paper, sheet)


def project_for(root: Path | None) -> tuple[Project, bool]:
    """Where `cardgen new` makes its game: the project `root` (--root) or, without it, the
    project at or above the working folder; where there is none, a new project in that
    folder itself (True)."""
    start = (root or Path.cwd()).resolve()
    found = project_above(start)
    if found is not None and (root is None or found == start):
        return Project.find(start), False
    if start.exists() and not start.is_dir():
        raise UsageError(_("{start} is a file, not a folder to make a project in", start=start))
    return Project(start, start / "output"), True


def new_game(project: Project, game: str, size: str | None = None, sheet: str | None = None,
             paper: str | None = None, lang: str | None = None,
             fresh: bool = False, example: str | None = None) -> NewGame:
    """A game that builds at once, in `project`; `fresh`: the project is new, and gets its
    cardgen.yaml (the marker, with the format version) and a .gitignore for output/. With
    `example`, a copy of that example game (its folder and the layouts it uses)."""
    if example is not None:
        return _from_example(project, game, example, fresh)
    if not is_name(game):
        raise UsageError(_("'{game}' cannot name a game: a game's name is {NAME_RULE}",
                           game=game, NAME_RULE=NAME_RULE))
    choice = choose(project, size, sheet, paper, lang)
    folder = project.cards / game
    layouts = project.root / "layouts"
    said = _comments(choice.lang, game, choice.layout_size)
    latin = {key: line.format(**said) if choice.lang == "en" else ""
             for key, line in LATIN_LINES.items()}
    files = {
        folder / "game.yaml": aligned(GAME_YAML.format(
            game=game, lang=choice.lang, page=RULEBOOK_PAGE[choice.paper in US_PAPERS],
            sheet=choice.sheet, **latin, **said)),
        folder / "cards.yaml": CARDS_YAML[choice.lang].format(**said),
        folder / "rulebook.md": RULEBOOK_MD[choice.lang].format(),
        layouts / f"{game}-front.yaml": FRONT_YAML.format(game=game, size=choice.layout_size,
                                                          **said),
        layouts / f"{game}-back.yaml": BACK_YAML.format(game=game, size=choice.layout_size,
                                                        **said),
    }
    if fresh:
        files.update(_project_files(project, choice.lang))
    if os.path.lexists(folder):  # (each file is checked again as it is written)
        raise UsageError(_("{display} already exists; cardgen new never overwrites anything",
                           display=project.display(folder)))
    _write_new(project, dict.fromkeys(files, b""), only_check=True)  # before the trial
    _try_build(project, game, files, _("{size} cards on sheet preset '{sheet}'",
                                       size=choice.size_words, sheet=choice.sheet))
    _write_new(project, {path: text.encode("utf-8") for path, text in files.items()})
    return NewGame(list(files), _chosen(game, choice))


def _project_files(project: Project, lang: str) -> dict[Path, str]:
    """A new project's own files: its marker, and a .gitignore unless it has one (a git
    repository's is kept)."""
    files = {project.root / MARKER: versions.marker(lang)}
    if not os.path.lexists(project.root / ".gitignore"):
        files[project.root / ".gitignore"] = GITIGNORE
    return files


def _write_new(project: Project, files: dict[Path, bytes], only_check: bool = False) -> None:
    """Each file made new, never over one that exists, never through a link: nothing is
    written if any of them exists or lies behind a link leading out of the project (with
    `only_check`, nothing is written at all)."""
    existing = [p for p in files if os.path.lexists(p)]  # a dangling link exists too
    if existing:
        raise UsageError(_("{display} already exists; cardgen new never overwrites anything",
                           display=project.display(existing[0])))
    for path in files:  # no folder on the way may be a link that leads out of the project
        try:
            inside(project.root, path.relative_to(project.root))
        except Outside:
            raise UsageError(_("{display} lies behind a link that leads outside the project; "
                               "cardgen new writes only inside it, so nothing was written",
                               display=project.display(path))) from None
    for path, data in files.items() if not only_check else ():
        path.parent.mkdir(parents=True, exist_ok=True)
        # O_EXCL and O_NOFOLLOW: never through a link, never over a file made meanwhile
        # (Windows has no O_NOFOLLOW; O_EXCL refuses a link there as any existing name).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o666)
        with os.fdopen(fd, "wb") as out:
            out.write(data)


def examples() -> list[str]:
    """The example games cardgen comes with (shipped.examples)."""
    folder = shipped.examples()
    return Project(folder, folder / "output").games() if folder is not None else []


def _from_example(project: Project, game: str, example: str, fresh: bool) -> NewGame:
    """`cardgen new GAME --from EXAMPLE`: the example's folder as cards/GAME, and the card
    and board layouts it uses that cardgen does not ship to every project."""
    from .load import load_game
    from .load.targets import target_names

    folder = shipped.examples()
    known = examples()
    if folder is None or example not in known:
        raise UsageError(_("unknown example '{example}' (examples: {join})", example=example,
                           join=", ".join(known) or "none"))
    source = Project(folder, folder / "output")
    used: set[str] = set()  # the files of its layouts, from the examples' top
    for target in (None, *target_names(source, example)):
        loaded = load_game(source, example, Report(), target)
        if loaded is None:
            continue
        for chain in loaded.layouts.values():
            used.update(f"layouts/{name}.yaml" for name, _doc in chain)
        used.update(f"layouts/boards/{name}.yaml" for name in loaded.boards)
    files: dict[Path, bytes] = {}
    for path in sorted(source.game_folder(example).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            inner = path.relative_to(source.game_folder(example))
            files[project.game_folder(game) / inner] = path.read_bytes()
    for relative in sorted(used):
        if not shipped.ships(relative) and (folder / relative).is_file():
            files[project.root / relative] = (folder / relative).read_bytes()
    lang = language()
    for path, text in (_project_files(project, lang) if fresh else {}).items():
        files[path] = text.encode("utf-8")
    if os.path.lexists(project.game_folder(game)):
        raise UsageError(_("{display} already exists; cardgen new never overwrites anything",
                           display=project.display(project.game_folder(game))))
    _write_new(project, files)
    return NewGame(list(files), _("{game}: a copy of the example '{example}'", game=game,
                                  example=example))


def _chosen(game: str, choice: Choice) -> Message:
    """The line `cardgen new` says what it chose in, and how to choose otherwise."""
    return _("{game}: in {language}, {size} cards ({size_words}) on {paper} paper (sheet "
             "preset '{sheet}'); to choose otherwise, give --lang, --size, --paper or --sheet",
             game=game, language=LANGUAGE_NAMES[choice.lang], size=choice.size,
             size_words=choice.size_words, paper=choice.paper, sheet=choice.sheet)


def _try_build(project: Project, game: str, files: dict[Path, str], what: str) -> None:
    """Lay the new game out in a scratch copy of the project (its layouts and fonts, and the
    new files): a game `new` writes builds at once, or nothing is written."""
    from . import pipeline
    with tempfile.TemporaryDirectory(prefix="cardgen-new-") as tmp:
        root = Path(tmp)
        (root / "cards").mkdir()
        if (project.root / "layouts").is_dir():
            shutil.copytree(project.root / "layouts", root / "layouts", symlinks=True)
        fonts = project.root / "fonts"
        if fonts.exists():
            (root / "fonts").symlink_to(fonts.resolve())
        for path, text in files.items():
            target = root / path.relative_to(project.root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, "utf-8")
        outcome = pipeline.check(Project(root, root / "output"), game)
        pipeline.lay_out(outcome)
        errors = outcome.report.errors
    if errors:
        first = errors[0].message
        more = _(" (and {n} more)", n=len(errors) - 1) if len(errors) > 1 else ""
        raise UsageError(_("{game} would not build with {what}, so nothing was written: "
                           "{first}{more}; choose another --size or --sheet, or leave --sheet "
                           "out for one that suits the size and paper", game=game, what=what,
                           first=first, more=more))


def upgrade(project: Project, write: bool) -> tuple[list[str], list[Path]]:
    """`cardgen upgrade`: what the changes since the project's format rewrite, as a diff,
    and with `write` made (versions.upgrade). A problem with cardgen.yaml stops it."""
    report = Report()
    found = format_of(project, report)
    if report.errors:
        raise DataProblems(report)
    version = found[0] if found is not None else versions.FORMAT
    if (versions.parse(version) or ()) > (versions.parse(versions.FORMAT) or ()):
        raise UsageError(_("this project is written in format {old}, newer than this cardgen's "
                           "({new}): install a newer cardgen (pip install --upgrade cardgen)",
                           old=version, new=versions.FORMAT))
    return versions.upgrade(project.root, version, write)
