"""What the stats stage gives: each deck's distributions and cross-tables, the pool tables
and the answers to the odds questions, as finished values."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction


from ..i18n import _
from ..colors import Color

NONE = "(none)"  # the label of copies that do not have the field
MAX_CATEGORIES = 40  # values of one field shown as bars; the rest are summed as "other"
MAX_BARS = 30  # integer values shown one bar each; a wider range is binned
# Colours for values with none of their own: the Okabe-Ito palette, told apart by people
# with any colour vision.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442",
           "#999999")
DRAFT_COLOR = (0.82, 0.82, 0.82)
_OTHER = object()  # the bar that sums the values beyond MAX_CATEGORIES


@dataclass(frozen=True)
class Distribution:
    """One field of one deck: copies per value (a category, or a number or a bin)."""

    deck: str
    field: str  # "power", "condition.kind"; "" for the deck's cards themselves
    title: str
    numeric: bool
    labels: tuple[str, ...]
    counts: tuple[int, ...]
    colors: tuple[Color | None, ...]
    mean: float | None = None  # numeric fields: over copies with a number
    low: float | None = None
    high: float | None = None
    drafts: int = 0  # copies whose value is TBD (not among the counts)
    declared: bool = False  # a view game.yaml asks for

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass(frozen=True)
class CrossTable:
    """Two fields of one deck: copies per pair of values (rows: the first field)."""

    deck: str
    fields: tuple[str, str]
    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[tuple[int, ...], ...]  # [row][column]
    colors: tuple[Color | None, ...]  # per column
    # Where one field is numeric: its mean per value of the other, (value, mean or None).
    means: tuple[tuple[str, float | None], ...] = ()
    mean_of: str = ""  # the numeric field the means are of
    drafts: int = 0  # copies with a TBD in either field (not in the cells)


@dataclass(frozen=True)
class DeckStats:
    id: str
    name: str
    total: int  # copies
    kinds: int  # distinct cards
    color: Color | None
    distributions: tuple[Distribution, ...]
    crosses: tuple[CrossTable, ...]


@dataclass(frozen=True)
class TableStats:
    """A declared table of pools (cards used by player count): each item's total and cards."""

    name: str
    deck: str
    labels: tuple[str, ...]
    totals: tuple[int, ...]
    cards: tuple[tuple[str, tuple[int, ...]], ...]  # (card name, count per item)
    color: Color | None


class Chance:
    """An exact probability (`probability`, a Fraction) and the ways it is said: a share,
    a percentage and "1 in N", however small it is."""

    probability: Fraction

    @property
    def chance(self) -> float:
        """The probability as a number from 0 to 1 (0.0 when it is below the smallest float:
        the exact value is in `probability`, and `magnitude` says how small)."""
        return float(self.probability)

    @property
    def fraction(self) -> str:
        return f"{self.probability.numerator}/{self.probability.denominator}"

    @property
    def magnitude(self) -> float | None:
        """log10 of the probability, exact to a float's precision however small it is
        (None for a probability of 0)."""
        p = self.probability
        return _log10(p) if p else None

    @property
    def one_in(self) -> float | None:
        """1 / probability, when it is a float (not for 0, nor beyond 1e300)."""
        m = self.magnitude
        return None if m is None or -m > 300 else float(1 / self.probability)

    @property
    def percent(self) -> str:
        x = self.chance * 100
        if not self.probability or x >= 0.005:
            return f"{x:.2f}%"
        return f"{_power(_log10(self.probability) + 2)}%"  # too small for two decimals: its size

    def words(self) -> str:
        p = self.probability
        exact = len(str(p.denominator)) <= SHOWN_DIGITS
        chance = self.percent if p.denominator == 1 else \
            f"{p.numerator}/{p.denominator} = {self.percent}" if exact else self.percent
        if 0 < p < 1:
            one_in = self.one_in
            return _("{chance}, 1 in {n}", chance=chance, n=f"{one_in:.1f}" if one_in is not None
                     and one_in < 1e15 else _power(-_log10(p)))
        return chance


@dataclass(frozen=True)
class Answer(Chance):
    """The exact odds of one question, for one item of its table (or the whole deck)."""

    question: str  # the question's id
    text: str  # the question, in words
    label: str  # the item ("4 players"), or ""
    hand: int
    pool: int
    probability: Fraction
    draft: bool = False  # the pool has cards whose copies are TBD




@dataclass(frozen=True)
class DiceAnswer(Chance):
    """The chance that a roll's total is at least, at most or exactly `value`."""

    kind: str  # at_least, at_most, exactly
    value: int
    probability: Fraction

    @property
    def label(self) -> str:
        """"at least 7", "at most 3", "exactly 7" (a Message: "7 以上" in Japanese)."""
        if self.kind == "at_least":
            return _("at least {value}", value=self.value)
        if self.kind == "at_most":
            return _("at most {value}", value=self.value)
        return _("exactly {value}", value=self.value)


@dataclass(frozen=True)
class Total(Chance):
    """One total a roll can come to, and its chance."""

    value: int
    probability: Fraction


@dataclass(frozen=True)
class DiceStats:
    """A roll of dice (`stats: dice:`): the exact chance of every total, and the answers."""

    id: str
    name: str
    dice: str  # in words: "2d6", "3 dice of faces 1, 1, 2, 3"
    totals: tuple[Total, ...]  # every total that can come up, from the least
    answers: tuple[DiceAnswer, ...]

    @property
    def mean(self) -> Fraction:
        return sum((t.probability * t.value for t in self.totals), Fraction(0))

    @property
    def most_likely(self) -> tuple[Total, ...]:
        """The totals that come up most (several where they tie)."""
        top = max(t.probability for t in self.totals)
        return tuple(t for t in self.totals if t.probability == top)


SHOWN_DIGITS = 30  # a fraction with a longer denominator is shown by its size


def _log10(p: Fraction) -> float:
    """log10 of a chance above 0, exact to a float's precision however small it is."""
    return math.log10(p.numerator) - math.log10(p.denominator)


def _power(exponent: float) -> str:
    """A number by its size: about 3.2 x 10^-390."""
    whole = math.floor(exponent)
    return f"about {10 ** (exponent - whole):.1f} x 10^{whole}"


@dataclass(frozen=True)
class Stats:
    """A game's statistics: what each kind (stats/kinds) gave, under its FIELD; a kind
    registered from elsewhere gives its part in `more` (FIELD, part)."""

    game: str
    title: str
    decks: tuple[DeckStats, ...]
    tables: tuple[TableStats, ...] = ()
    answers: tuple[Answer, ...] = ()
    dice: tuple[DiceStats, ...] = ()
    more: tuple[tuple[str, tuple], ...] = ()

    def deck(self, deck_id: str) -> DeckStats | None:
        return next((d for d in self.decks if d.id == deck_id), None)

    def part(self, field: str) -> tuple:
        """What the kind of statistic whose FIELD is `field` gave."""
        if field in ("decks", "tables", "answers", "dice"):
            return getattr(self, field)
        return dict(self.more).get(field, ())


# --- fields -------------------------------------------------------------------------------
