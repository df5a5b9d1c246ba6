"""Exact draw odds: the chance that a hand drawn from a pool meets every requirement.

The pool's cards fall into classes by which requirements they count for (a card can count
for several). A hand is a number of cards from each class; the ways to draw it are the
product of binomial coefficients (the multivariate hypergeometric distribution). Walking
the classes one by one while keeping, per requirement, how many cards count so far (capped
just above what the requirement looks at) counts every favourable hand exactly, in time
that grows with the hand and the requirements, not with the number of possible hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, lgamma, log
from ..i18n import _

# The counting's budget, in steps of the walk each weighted by the length of the numbers it
# multiplies (a step over integers thousands of digits long costs as much as many small
# ones): a question beyond it is refused before it runs, or as soon as it passes it.
MAX_STEPS = 2_000_000
DIGITS_PER_STEP = 400  # numbers this long cost one more small step each
MAX_DIGITS = 4_000  # digits of the count of possible hands (C(pool, hand)) at most: under
# the 4,300 digits Python writes an integer in (the exact answer is shown and written whole)


class TooLarge(Exception):
    """The question needs more counting than the budget (MAX_STEPS, MAX_DIGITS)."""


def digits_of_hands(pool: int, hand: int) -> int:
    """About how many decimal digits C(pool, hand) has, without computing it."""
    if hand <= 0 or hand >= pool:
        return 1
    return int((lgamma(pool + 1) - lgamma(hand + 1) - lgamma(pool - hand + 1)) / log(10)) + 1


@dataclass(frozen=True)
class Need:
    """At least `low` and at most `high` (None: no bound) of the hand's cards count."""

    low: int | None
    high: int | None

    def cap(self) -> int:
        """Counts above this all answer alike."""
        return max(self.low or 0, (self.high + 1) if self.high is not None else 0)

    def met(self, n: int) -> bool:
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)


def probability(classes: dict[tuple[bool, ...], int], hand: int,
                needs: tuple[Need, ...]) -> Fraction:
    """The exact probability. `classes` maps which requirements a card counts for (one bool
    per need) to the number of such cards in the pool."""
    pool = sum(classes.values())
    if hand > pool or hand < 0:
        raise ValueError(_("a hand of {hand} from a pool of {pool}", hand=hand, pool=pool))
    digits = digits_of_hands(pool, hand)
    if digits > MAX_DIGITS:
        raise TooLarge(_("the number of possible hands has about {digits:,} digits (at most "
                         "{MAX_DIGITS:,})", digits=digits, MAX_DIGITS=MAX_DIGITS))
    # A step's weight: the time its multiplication takes against a step over small numbers
    # (measured: 520 digits cost 2 to 3 small steps, 2,500 digits 17 to 20).
    cost = 1 + (digits / DIGITS_PER_STEP) ** 1.5
    caps = tuple(n.cap() for n in needs)
    states: dict[tuple[int, tuple[int, ...]], int] = {(0, (0,) * len(needs)): 1}
    steps = 0
    for signature, size in classes.items():
        nxt: dict[tuple[int, tuple[int, ...]], int] = {}
        for (drawn, counts), ways in states.items():
            for k in range(0, min(size, hand - drawn) + 1):
                steps += cost
                if steps > MAX_STEPS:
                    raise TooLarge(_("more than {MAX_STEPS:,} steps", MAX_STEPS=MAX_STEPS))
                key = (drawn + k, tuple(min(c + k, cap) if hit else c
                                        for c, hit, cap in zip(counts, signature, caps)))
                nxt[key] = nxt.get(key, 0) + ways * comb(size, k)
        states = nxt
    favourable = sum(ways for (drawn, counts), ways in states.items()
                     if drawn == hand and all(n.met(c) for n, c in zip(needs, counts)))
    return Fraction(favourable, comb(pool, hand))
