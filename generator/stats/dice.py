"""Exact dice odds: the chance of every total of a roll (`stats: dice:` in game.yaml).

A roll is standard dice and a constant (`2d6`, `1d20+3`, `2d6+1d4-1`) or some dice of one
custom die (`faces: [1, 1, 2, 3]`, or an expression over the data giving the faces). The
ways to reach each total are counted die by die (a convolution of whole numbers), so every
chance is an exact fraction; the work is bounded before it runs, as for draw odds.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..model import DiceRoll, plain
from ..values import MAX_DIGITS, abridged  # (a number in dice: as any a designer writes)
from .results import DiceAnswer, DiceStats, Total
from ..i18n import _

MAX_DICE = 100  # dice in one roll
MAX_FACES = 1_000  # faces of one die
MAX_STEPS = 2_000_000  # (total so far, face) pairs the counting may visit for one roll

SHOWN_FACES = 12  # a custom die's faces listed in its description, at most
_TERM = re.compile(r"\s*([-+]?)\s*(?:(\d*)[dD](\d+)|(\d+))\s*")


class Unrollable(Exception):
    """What is wrong with a roll as written, in words (said at its line in game.yaml)."""

    def __init__(self, message: str, key: str):
        super().__init__(message)
        self.key = key  # the key of the roll it is said at: dice, faces


def parse(text: str) -> tuple[list[tuple[int, tuple[int, ...], int]], int]:
    """Dice as written ("2d6+1d4-1"): (count, faces, sign) per term, and the constant."""
    terms, constant, at = [], 0, 0
    written, text = text, abridged(text)  # (the messages quote it shortened)
    while at < len(written):
        m = _TERM.match(written, at)
        if m is None or m.end() == at or (at and not m[1]):
            raise Unrollable(_("dice: '{text}' is not dice such as 2d6, 1d20+3 or 2d6+1d4",
                               text=text),
                             "dice")
        at = m.end()
        sign = -1 if m[1] == "-" else 1
        if any(len(n or "") > MAX_DIGITS for n in m.groups()[1:]):
            raise Unrollable(_("dice: '{text}' has a number of more than {MAX_DIGITS} digits",
                               text=text, MAX_DIGITS=MAX_DIGITS), "dice")
        if m[4] is not None:
            constant += sign * int(m[4])
            continue
        count, faces = int(m[2] or 1), int(m[3])
        if count == 0:
            raise Unrollable(_("dice: '{text}' rolls no dice", text=text), "dice")
        if faces == 0:
            raise Unrollable(_("dice: '{text}': a die has at least one face", text=text), "dice")
        if faces > MAX_FACES:
            raise Unrollable(_("dice: '{text}': a die of {faces:,} faces; at most {MAX_FACES:,}",
                               text=text, faces=faces, MAX_FACES=MAX_FACES), "dice")
        if count > MAX_DICE:
            raise Unrollable(_("dice: '{text}' rolls {count:,} dice; at most {MAX_DICE}",
                               text=text, count=count, MAX_DICE=MAX_DICE), "dice")
        terms.append((count, tuple(range(1, faces + 1)), sign))
    if not terms:
        raise Unrollable(_("dice: '{text}' rolls no dice", text=text), "dice")
    return terms, constant


def _faces(value, written: str) -> tuple[int, ...]:
    """A custom die's faces from what its expression gives: a list of whole numbers."""
    value = plain(value)
    if not isinstance(value, (list, tuple)) or not value:
        shown = _("an empty list") if value == [] or value == () else \
            "nothing" if value is None else f"'{value}'" if not isinstance(value, dict) \
            else "a mapping"
        raise Unrollable(_("faces: {written} gives {shown}, not a list of faces such as [1, 1, 2, "
                           "3]", written=written, shown=shown), "faces")
    if len(value) > MAX_FACES:
        raise Unrollable(_("faces: {written} gives {n_value:,} faces; a die has at most "
                           "{MAX_FACES:,}", written=written, n_value=len(value),
                           MAX_FACES=MAX_FACES), "faces")
    for face in value:
        if not isinstance(face, int) or isinstance(face, bool):
            raise Unrollable(_("faces: {written} gives '{face}' as a face, not a whole number (a "
                               "die of symbols counts a symbol as 1 and a blank as 0)",
                               written=written, face=face),
                             "faces")
    return tuple(value)


def roll(spec: DiceRoll, evaluate) -> DiceStats:
    """The roll's exact totals and answers. `evaluate(text, key)` gives the value of an
    expression written under `key`; what is wrong is raised as Unrollable (or CheckBroken,
    from the expression)."""
    if spec.faces is not None:
        if spec.dice:
            raise Unrollable(_("dice: with faces:, dice says how many of that die are rolled (a "
                               "number), not '{spec_dice}'", spec_dice=spec.dice), "dice")
        if spec.count > MAX_DICE:
            raise Unrollable(_("dice: {spec_count:,} dice; at most {MAX_DICE}",
                               spec_count=spec.count, MAX_DICE=MAX_DICE), "dice")
        faces = spec.faces if isinstance(spec.faces, tuple) else \
            _faces(evaluate(spec.faces, "faces"), spec.faces)
        if len(faces) > MAX_FACES:
            raise Unrollable(_("faces: {n_faces:,} faces; a die has at most {MAX_FACES:,}",
                               n_faces=len(faces), MAX_FACES=MAX_FACES),
                             "faces")
        terms, constant = [(spec.count, faces, 1)], 0
        listed = ", ".join(map(str, faces)) if len(faces) <= SHOWN_FACES else \
            f"{len(faces):,} faces"
        words: str = _("{spec_count} dice with faces {listed}", spec_count=spec.count,
                  listed=listed) if spec.count > 1 else \
            _("a die with faces {listed}", listed=listed)
    elif not spec.dice:
        raise Unrollable(_("give dice: (such as 2d6) or faces: (a custom die, such as [1, 1, 2, "
                           "3])"), "name")
    elif spec.dice.strip().isdigit():
        raise Unrollable(_("dice: {spec_dice} says how many of a custom die are rolled: give its "
                           "faces: too (or write dice such as 2d6)", spec_dice=spec.dice), "dice")
    else:
        terms, constant = parse(spec.dice)
        words = re.sub(r"\s+", "", spec.dice)
    dice = sum(count for count, _, _ in terms)
    if dice > MAX_DICE:
        raise Unrollable(_("dice: '{spec_dice}' rolls {dice:,} dice; at most {MAX_DICE}",
                           spec_dice=abridged(spec.dice), dice=dice, MAX_DICE=MAX_DICE), "dice")
    ways, outcomes = _count(terms, constant, spec)
    totals = tuple(Total(v, Fraction(n, outcomes)) for v, n in sorted(ways.items()))
    answers = []
    for kind, value in spec.asks:
        n = sum(w for v, w in ways.items() if (v >= value if kind == "at_least" else
                                                v <= value if kind == "at_most" else v == value))
        answers.append(DiceAnswer(kind, value, Fraction(n, outcomes)))
    return DiceStats(spec.id, spec.name, words, totals, tuple(answers))


def _count(terms, constant: int, spec: DiceRoll) -> tuple[dict[int, int], int]:
    """Ways to reach each total, and the number of outcomes (faces multiplied)."""
    ways = {constant: 1}
    outcomes = 1
    steps = 0
    for count, faces, sign in terms:
        tally: dict[int, int] = {}
        for face in faces:
            tally[sign * face] = tally.get(sign * face, 0) + 1
        for _roll in range(count):
            steps += len(ways) * len(tally)
            if steps > MAX_STEPS:
                raise Unrollable(_("dice: too many totals to count (more than {MAX_STEPS:,} "
                                   "steps); roll fewer dice or dice of fewer faces",
                                   MAX_STEPS=MAX_STEPS),
                                 "faces" if spec.faces is not None else "dice")
            nxt: dict[int, int] = {}
            for total, n in ways.items():
                for face, m in tally.items():
                    nxt[total + face] = nxt.get(total + face, 0) + n * m
            ways = nxt
            outcomes *= len(faces)
    return ways, outcomes

