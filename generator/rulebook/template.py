"""The rulebook template: Markdown with Jinja2, rendered over the game's data.

The template sees the same data as the game's checks (`cards`, `card[id]`,
`decks`, `data`, `game`) and a few helpers that write Markdown for it:

    {{ card_name('priest') }}            the card's current name (card_name('priest', 'en'))
    {{ table(data.setup.cards_used, ['players', 'total'], ['Players', 'Cards']) }}
    {{ card_faces(['princess', 'prince']) }}   the cards' faces, drawn from their layouts
    {{ pagebreak() }}

A name that does not exist (a card id, a data field) is not a crash: it is
recorded with its line in the template and reported with every other problem.
"""

from __future__ import annotations

import inspect
from typing import Any

import jinja2

from .. import sandbox, stats, syntax
from ..sandbox_env import Sandbox
from ..load.schema import suggest, type_word
from ..model import Game, Rulebook
from ..problems import Location, Report, raised_in
from ..validate.invariants import context
from ..i18n import Message, _, printing

# Where a name was looked for, as a suggestion says it (words of their own: babel
# extracts no message nested in another call's arguments).
IN_STATS = _("stats: odds: and dice: in game.yaml")
IN_DICE = _("stats: dice: in game.yaml")

FACES = "cardgen:faces"
BESIDE = "cardgen:beside"
PAGEBREAK = "cardgen:pagebreak"
WIDTHS = "cardgen:widths"  # the next table's column widths, as relative weights


class _Recorder:
    def __init__(self, rulebook: Rulebook, report: Report):
        self.rulebook = rulebook
        self.report = report
        self.env: jinja2.Environment | None = None
        self.seen: set = set()
        # file as shown -> (name the loader knows it by, text): the template and its includes
        self.files = {self.rulebook.file: (self.rulebook.file, self.rulebook.text),
                      **{shown: (name, text) for name, (shown, text) in
                         self.rulebook.includes.items()}}

    def where(self, needle: str | None = None) -> Location:
        """The template line being rendered (found on the Python stack), and the column of
        `needle` on it when given."""
        frame = inspect.currentframe()
        while frame is not None:
            known = self.files.get(frame.f_code.co_filename)
            if known is not None and self.env is not None:
                line = self.env.get_template(known[0]).get_corresponding_lineno(frame.f_lineno)
                lines = known[1].splitlines()
                text = lines[line - 1] if 0 < line <= len(lines) else ""
                col = text.find(needle) + 1 if needle and needle in text else 1
                return Location(frame.f_code.co_filename, line, col)
            frame = frame.f_back
        return self.rulebook.loc

    def where_raised(self, exc: BaseException) -> Location:
        """The template line an exception came from (Jinja2 rewrites its traceback so that
        template frames carry the template's own file and line)."""
        found = raised_in(exc, lambda name: name in self.files)
        return Location(found[0], found[1], 1) if found else self.rulebook.loc

    def error(self, message: str, needle: str | None = None) -> None:
        where = self.where(needle)
        if (where, message) not in self.seen:
            self.seen.add((where, message))
            self.report.error(_("rulebook: {message}", message=message), where, "rulebook")


def _undefined_class(recorder: _Recorder):
    class Recording(jinja2.ChainableUndefined):
        """An unknown name: recorded where the template uses it, rendered as nothing."""

        def _record(self):
            name = self._undefined_name
            recorder.error(sandbox.in_words(self._undefined_message), str(name) if name else None)

        def __str__(self):
            self._record()
            return ""

        def __iter__(self):
            self._record()
            return iter(())

        def __len__(self):
            self._record()
            return 0

        def __bool__(self):
            self._record()
            return False

    return Recording


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def language_of(markdown: str) -> str:
    """The language a rulebook is written in, where the game does not say: Japanese when a
    tenth of its letters are kana or kanji."""
    letters = [ch for ch in markdown if ch.isalpha()]
    japanese = sum(1 for ch in letters if "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff")
    return "ja" if letters and japanese >= 0.1 * len(letters) else "en"


def _printed(value):
    """What the rulebook prints of a value: cardgen's own words (an answer's label, "at
    least 7") in the language of the moment, which is the game's while it renders."""
    return value.shown() if isinstance(value, Message) else value


# What dice() gives for a roll it cannot give (unknown, or not counted): every key, empty
NO_ROLL = {"name": "", "dice": "", "mean": 0.0, "most_likely": [], "totals": [], "answers": []}


def render_markdown(game: Game, report: Report) -> str | None:
    """The template rendered to Markdown; problems go to `report` (None if it cannot be,
    or if the game has no rulebook)."""
    rulebook = game.rulebook
    if rulebook is None:
        return None
    recorder = _Recorder(rulebook, report)
    values, _unused = context(game)  # includes the game's macros
    ids = values["card"]

    def card_name(card_id: str, lang: str = "ja") -> str:
        card = ids.get(card_id)
        if card is None:
            recorder.error(_("unknown card '{card_id}'", card_id=card_id), card_id)
            return card_id
        key = "name_en" if lang == "en" else "name"
        return str(card.get(key, card_id))

    def card_faces(card_ids, side: str = "front", scale=1.0) -> str:
        card_ids = [card_ids] if isinstance(card_ids, str) else list(card_ids)
        known = [c for c in card_ids if c in ids]
        for c in card_ids:
            if c not in ids:
                recorder.error(_("unknown card '{c}'", c=c), c)
        if side not in ("front", "back"):
            recorder.error(_("card_faces: side must be 'front' or 'back', not '{side}'",
                             side=side), side)
            side = "front"  # (said here, once: the faces drawn are the fronts)
        try:
            scale = float(scale)
        except (TypeError, ValueError):
            scale = float("nan")
        if not 0.1 <= scale <= 2:  # nan fails too
            recorder.error(_("card_faces: scale must be a number from 0.1 to 2 (1 is real size), "
                             "not '{scale}'", scale=scale), "scale")
            scale = 1.0
        return f"\n\n<!-- {FACES} side={side} ids={','.join(known)} scale={scale:g} -->\n\n"

    def card_beside(card_id: str, field: str, side: str = "front") -> str:
        card = ids.get(card_id)
        if card is None:
            recorder.error(_("unknown card '{card_id}'", card_id=card_id), card_id)
            return ""
        if field not in card:
            recorder.error(_("card '{card_id}' has no field '{field}'",
                             card_id=card_id, field=field), field)
            return ""
        return f"\n\n<!-- {BESIDE} side={side} id={card_id} field={field} -->\n\n"

    def table(rows, columns, headers=None) -> str:
        listed = [v for v in (rows, columns, headers) if v is not None]
        if any(isinstance(v, (str, dict)) or not hasattr(v, "__iter__") for v in listed):
            wrong = next(v for v in listed
                         if isinstance(v, (str, dict)) or not hasattr(v, "__iter__"))
            recorder.error(_("table: give a list of rows, a list of columns and a list of "
                             "headers, such as table(data.setup.rows, ['players', 'total'], "
                             "['Players', 'Cards']), not {value}", value=type_word(wrong)),
                           "table")
            return ""
        rows, columns = list(rows), [str(c) for c in columns]
        headers = [str(h) for h in headers] if headers else columns
        if len(headers) != len(columns):
            recorder.error(_("table: the headers ({h}) and the columns ({n}) differ in number; "
                             "give one header per column",
                             h=len(headers), n=len(columns)), "table")
            return ""
        lines = ["| " + " | ".join(_cell(h) for h in headers) + " |",
                 "|" + "---|" * len(headers)]
        for row in rows:
            cells = []
            for column in columns:
                value = row.get(column) if isinstance(row, dict) else None
                if isinstance(row, dict) and column not in row:
                    recorder.error(_("table: a row has no '{column}'", column=column), column)
                cells.append(_cell(value))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n\n" + "\n".join(lines) + "\n\n"

    counted: list = []  # the game's statistics, computed the first time a template asks

    def computed():
        if not counted:
            counted.append(stats.compute(game))
        return counted[0]

    def _chance(c) -> dict:
        return {"percent": c.percent, "fraction": c.fraction,
                "one_in": round(c.one_in, 1) if c.one_in is not None else None,
                "chance": c.chance}

    def odds(question_id: str) -> list[dict]:
        """The answers to a draw-odds question of game.yaml's `stats: odds:`, one per item of
        its table: label, hand, pool, percent ("5.00%"), fraction ("1/20"), one_in, chance;
        or to a roll of `stats: dice:`, one per total it asks about (label "at least 7")."""
        rolls = {d.id: d for d in game.stats.dice}
        known = [q.id for q in game.stats.questions] + list(rolls)
        if question_id not in known:
            recorder.error(_("odds: unknown question '{question_id}' ({suggest})",
                             question_id=question_id,
                             suggest=suggest(str(question_id), known,
                                             IN_STATS)),
                           question_id)
            return []
        if question_id in rolls:
            found = next((r for r in computed().dice if r.id == question_id), None)
            return [] if found is None else [
                {"label": a.label, "question": found.name, "value": a.value, **_chance(a)}
                for a in found.answers]
        return [{"label": a.label, "hand": a.hand, "pool": a.pool, **_chance(a),
                 "question": a.text}
                for a in computed().answers if a.question == question_id]

    def dice(roll_id: str) -> dict:
        """A roll of game.yaml's `stats: dice:`: name, dice, mean, most_likely (totals),
        totals (each with value, percent, fraction, one_in, chance) and answers (as odds())."""
        known = [d.id for d in game.stats.dice]
        if roll_id not in known:
            recorder.error(_("dice: unknown roll '{roll_id}' ({suggest})",
                             roll_id=roll_id,
                             suggest=suggest(str(roll_id), known,
                                             IN_DICE)),
                           roll_id)
            return dict(NO_ROLL)  # (its keys, empty: the one problem is said once, here)
        found = next((r for r in computed().dice if r.id == roll_id), None)
        if found is None:
            return dict(NO_ROLL)
        return {"name": found.name, "dice": found.dice,
                "mean": float(found.mean), "most_likely": [t.value for t in found.most_likely],
                "totals": [{"value": t.value, **_chance(t)} for t in found.totals],
                "answers": odds(roll_id)}

    def pagebreak() -> str:
        return f"\n\n<!-- {PAGEBREAK} -->\n\n"

    def column_widths(*weights) -> str:
        """The next table's column widths, as shares of the page: column_widths(3, 1, 2)."""
        try:
            shares = [float(w) for w in weights]
        except (TypeError, ValueError):
            shares = []
        if not shares or not all(0 < s < 1000 for s in shares):
            recorder.error(_("column_widths: give one positive number per column, such as "
                             "column_widths(3, 1, 2)"), "column_widths")
            return ""
        return f"\n\n<!-- {WIDTHS} {','.join(f'{s:g}' for s in shares)} -->\n\n"

    class Loader(jinja2.BaseLoader):
        """The template and the files it includes, each compiled under its own file name (so
        its frames can be found), all read by the load stage: nothing is opened here."""

        def get_source(self, environment, name):
            if name == rulebook.file:
                return rulebook.text, rulebook.file, lambda: True
            if name in rulebook.includes:
                shown, text = rulebook.includes[name]
                return text, shown, lambda: True
            raise jinja2.TemplateNotFound(name)

    env = Sandbox(  # the one sandbox, with its budgets
        loader=Loader(),
        undefined=_undefined_class(recorder), autoescape=False, keep_trailing_newline=True,
        finalize=_printed)
    env.globals.update(column_widths=column_widths)
    env.globals.update(card_name=card_name, card_faces=card_faces, card_beside=card_beside,
                       table=table, pagebreak=pagebreak, odds=odds, dice=dice)
    recorder.env = env
    try:
        template = env.get_template(rulebook.file)
        sandbox.reset_budget()
        # cardgen's words it prints ("7 以上") in the rulebook's language, as its cover's
        with printing(game.declared_lang or language_of(rulebook.text)):
            return template.render(**values)
    except jinja2.TemplateSyntaxError as exc:
        file = exc.filename if exc.filename is not None and exc.filename in recorder.files \
            else rulebook.file
        source = recorder.files[file][1]
        words, line = syntax.in_words(source, exc, sandbox.in_words)
        report.error(_("rulebook: template syntax: {exc_message}", exc_message=words),
                     Location(file, line, 1), "rulebook")
    except jinja2.exceptions.SecurityError as exc:
        report.error(_("rulebook: not allowed: {exc}", exc=sandbox.in_words(exc)),
                     recorder.where_raised(exc), "rulebook")
    except sandbox.SandboxError as exc:
        report.error(_("rulebook: {exc}", exc=exc), recorder.where_raised(exc), "rulebook")
    except RecursionError as exc:
        report.error(_("rulebook: templates nest too deeply"), recorder.where_raised(exc),
                     "rulebook")
    except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, KeyError,
            AttributeError, IndexError) as exc:
        report.error(_("rulebook: {in_words}",
                       in_words=sandbox.in_words(exc)), recorder.where_raised(exc), "rulebook")
    return None
