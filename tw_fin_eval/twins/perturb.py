"""New values for a twin's operands: each its own seeded factor, sign, decimals and magnitude class kept.

A value `v` written with `p` decimals becomes `round(|v| · f, p)` for a factor `f` drawn uniformly from
FACTOR_RANGES (a change of 5 % to 20 % either way), redrawn until the result differs from `v`, keeps the
number of integer digits (the magnitude class: 5,735 stays a four-digit amount, 0.41 stays below 1) and
collides with no other number of the unit. The draw depends only on (seed, unit id, value), so the same
value gets the same new value wherever it occurs, in every turn of a conversation.

>>> new_value(Decimal("5735"), Rng(7, "finqa_tw-test-0001"), avoid=set())
Decimal('5423')
"""

from __future__ import annotations

import random
from decimal import Decimal

FACTOR_RANGES = ((0.80, 0.95), (1.05, 1.20))
DRAWS = 40


class Rng:
    """The seeded draws of one unit (a FinQA item, a whole ConvFinQA conversation)."""

    def __init__(self, seed: int, unit: str) -> None:
        self.seed, self.unit = seed, unit

    def factors(self, value: Decimal, attempt: int = 0):
        rng = random.Random(f"{self.seed}:{self.unit}:{value}:{attempt}")
        for _ in range(DRAWS):
            lo, hi = FACTOR_RANGES[rng.randrange(len(FACTOR_RANGES))]
            yield Decimal(repr(rng.uniform(lo, hi)))


def magnitude(value: Decimal) -> int:
    """floor(log10 |v|): 5735 → 3, 60.94 → 1, 0.41 → −1."""
    return value.copy_abs().adjusted()


def places_of(value: Decimal) -> int:
    return max(0, -value.as_tuple().exponent)  # type: ignore[operator]


def new_value(value: Decimal, rng: Rng, *, avoid: set[Decimal], places: int | None = None,
              attempt: int = 0) -> Decimal | None:
    """The perturbed |value| with `places` decimals (default: as written), or None when no draw in range
    keeps the magnitude class and differs from every number in `avoid` (a one-digit integer such as 3 has
    no neighbour within 20 %)."""
    v = value.copy_abs()
    p = places_of(v) if places is None else places
    quantum = Decimal(1).scaleb(-p)
    for f in rng.factors(v, attempt):
        new = (v * f).quantize(quantum)
        if new != v and new > 0 and magnitude(new) == magnitude(v) and new not in avoid:
            return new
    return None
