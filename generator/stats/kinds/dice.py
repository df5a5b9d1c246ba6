"""dice: the exact chances of every total of the rolls game.yaml's `stats: dice:` declares,
and of the questions asked of them (at least, at most, exactly a total)."""

from __future__ import annotations

from typing import Any

from ...declared import STATISTICS
from ...i18n import _, shown
from ...validate.invariants import CheckBroken
from .. import dice
from ..pictures import dice_chart
from ..results import DiceStats
from ..show import _exact, _in, dice_lines, dice_summary, number
from .base import Run

NAME = "dice"
ORDER = 40
FIELD = "dice"
KEY = "dice"
OPTIONS = STATISTICS[NAME]  # the keys of `stats:` it reads (declared.py)
EXAMPLE = {"dice": [{"id": "two-dice", "name": "two dice", "dice": "2d6", "at_least": [7]}]}


def compute(run: Run) -> tuple[DiceStats, ...]:
    if run.decks is not None:  # dice belong to no deck
        return ()
    ev, spec = run.ev, run.game.stats
    taken = {q.id for q in spec.questions}  # odds() in a rulebook finds either by its id
    rolls = []
    for roll in spec.dice:
        if roll.id in taken:
            ev.error(_("dice '{roll_name}': '{roll_id}' already names another question or "
                       "roll; give it an id of its own (id:), as odds() and dice() in a "
                       "rulebook find it by", roll_name=roll.name, roll_id=roll.id),
                     roll.path + (("id",) if roll.id != roll.name else ("name",)))
            continue
        taken.add(roll.id)
        rolled = _roll(roll, ev)
        if rolled is not None:
            rolls.append(rolled)
    return tuple(rolls)


def _roll(spec, ev) -> DiceStats | None:
    """A roll's statistics, or None with its problem said at its line in game.yaml."""
    what = f"dice '{spec.name}'"

    def evaluate(text: str, key: str):
        return ev.expression(text, {}, spec.path + (key,), f"{what}: {key}")
    try:
        return dice.roll(spec, evaluate)
    except dice.Unrollable as exc:
        ev.error(_("{what}: {exc}", what=what, exc=exc), spec.path + (exc.key,),
                 evaluated=exc.key == "faces" and isinstance(spec.faces, str))
    except CheckBroken:
        pass  # said where the expression is written
    return None


def words(part: tuple[DiceStats, ...]) -> list:
    lines: list = [_("dice:")] if part else []
    for r in part:
        lines += [_in(line) for line in dice_lines(r)]
    return lines


def as_json(part: tuple[DiceStats, ...]) -> list[dict[str, Any]]:
    return [{"id": r.id, "name": r.name, "dice": r.dice,
             "mean": {"fraction": f"{r.mean.numerator}/{r.mean.denominator}",
                      "value": float(r.mean)},
             "most_likely": [t.value for t in r.most_likely],
             "totals": {str(t.value): _exact(t) for t in r.totals},
             "answers": [{"question": a.kind, "value": a.value, "label": a.label,
                          **_exact(a)} for a in r.answers]}
            for r in part]


def changes(old: tuple[DiceStats, ...], new: tuple[DiceStats, ...]) -> list:
    rolls, out = {r.id: r for r in old}, []
    for r in new:
        b = rolls.get(r.id)
        if b is None:
            continue
        if b.mean != r.mean:
            out.append(_("dice {name}: mean {was} -> {now}", name=r.name,
                         was=number(float(b.mean)), now=number(float(r.mean))))
        was = {(a.kind, a.value): a for a in b.answers}
        out += [_("dice {name}: {label}: {was} -> {now}", name=r.name, label=a.label,
                  was=was[a.kind, a.value].percent, now=a.percent)
                for a in r.answers if (a.kind, a.value) in was
                and was[a.kind, a.value].probability != a.probability]
    return out


def blocks(part: tuple[DiceStats, ...], stats, chart) -> list[dict]:
    out: list[dict] = [{"kind": "heading", "text": shown(_("Dice")), "deck": ""}] \
        if part else []
    for r in part:
        out.append(chart(dice_chart(r)))
        out.append({"kind": "text", "text": shown(dice_summary(r))})
        out += [{"kind": "text", "text": f"{a.label}: {shown(a.words())}"} for a in r.answers]
    return out
