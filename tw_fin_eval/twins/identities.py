"""Arithmetic a table shows by itself: a total row or column that sums the cells before it, a row that is the
difference of the two above it, a change column (a − b) and a percent-change column ((a − b) / b × 100).

A twin changes some cells; every identity touching a changed cell is kept by recomputing its result cell
from its (perturbed) parts, so the twin's table adds up exactly as the page did. Detection runs on the
original table; an identity is accepted only when it holds to the cells' own rounding.

>>> g = grid([["", "2015"], ["a", "$ 5735"], ["b", "95"], ["c", "-32 ( 32 )"], ["total", "$ 5798"]])
>>> [(i.kind, i.result, i.parts) for i in detect(g)]
[('sum', (4, 1), ((1, 1), (2, 1), (3, 1)))]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from tw_fin_eval.twins.numerals import dec, decimals

Cell = tuple[int, int]
# a cell holding one amount: "$ 5,735", "-32 ( 32 )", "( 32 )", "4.7% ( 4.7 % )", "$ -1.2"
_CELL = re.compile(r"^\s*(?P<neg1>-)?\s*\$?\s*(?P<lp>\()?\s*(?P<neg2>-)?\s*\$?\s*"
                   r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?P<rp>\))?\s*(?P<pct>%)?"
                   r"(?:\s*\(\s*-?\s*\$?\s*(?P=num)\s*%?\s*\))?\s*$")
MAX_PARTS = 40


@dataclass(frozen=True)
class Amount:
    value: Decimal  # signed
    places: int
    percent: bool


@dataclass(frozen=True)
class Identity:
    kind: str  # sum (column or row total), diff (a − b), pct_change ((a − b) / b × 100)
    result: Cell
    parts: tuple[Cell, ...]  # sum: the summed cells; diff / pct_change: (a, b)

    def compute(self, values: dict[Cell, Decimal]) -> Decimal | None:
        if self.kind == "sum":
            return sum((values[p] for p in self.parts), Decimal(0))
        a, b = values[self.parts[0]], values[self.parts[1]]
        if self.kind == "diff":
            return a - b
        return None if b == 0 else (a - b) / abs(b) * 100


def amount(cell: str) -> Amount | None:
    """The one amount a cell holds (signed: a leading minus or accounting brackets), else None."""
    m = _CELL.match(cell or "")
    if not m:
        return None
    value = dec(m.group("num"))
    if m.group("neg1") or m.group("neg2") or (m.group("lp") and m.group("rp")):
        value = -value
    return Amount(value, decimals(m.group("num")), bool(m.group("pct")))


# a printed dash — or FinQA's OCR code of one (2014 for —, 2013 for –, 2212 for −): the cell reads zero
_DASH = re.compile(r"^\s*(?:\(?\s*\$?\s*\(?\s*(?:2013|2014|2212)\s*\)?\s*\)?|\$?\s*[—–])\s*$")
ZERO = Amount(Decimal(0), 0, False)


def _year_like(a: Amount) -> bool:
    return a.places == 0 and not a.percent and 1900 <= a.value <= 2100


def grid(table: list[list[str]] | None) -> dict[Cell, Amount]:
    """The amounts of a table's body cells (row ≥ 1, column ≥ 1); years and blanks left out."""
    out: dict[Cell, Amount] = {}
    for r, row in enumerate(table or []):
        if r == 0:
            continue
        for c, cell in enumerate(row):
            if c == 0:
                continue
            if _DASH.match(cell or ""):
                out[(r, c)] = ZERO
                continue
            a = amount(cell)
            if a is not None and not _year_like(a):
                out[(r, c)] = a
    return out


def _tolerance(cells: list[Amount]) -> Decimal:
    """Half a unit of the coarsest rounding per summed cell (a total of rounded parts may be off by that)."""
    places = min((a.places for a in cells if a is not ZERO), default=0)
    return Decimal(1).scaleb(-places) * Decimal("0.5") * max(1, len(cells) - 1)


def _segments(line: list[Cell]) -> list[list[Cell]]:
    """A line cut where a blank or text cell interrupts it."""
    out: list[list[Cell]] = []
    for cell in line:
        if out and (cell[0] - out[-1][-1][0]) + (cell[1] - out[-1][-1][1]) == 1:
            out[-1].append(cell)
        else:
            out.append([cell])
    return out


def _runs(g: dict[Cell, Amount], lines: list[list[Cell]]) -> list[Identity]:
    """Sum identities along each line (a column read downwards, or a row read rightwards): a cell equal to
    the sum of the ≥ 2 cells right before it (a total row, a total column on the right) or, failing that,
    right after it (a total column on the left: 「合計 | 2009 | 2010 …」). The longest such run wins (a bridge
    from an opening balance)."""
    found = []
    for seg in (s for line in lines for s in _segments(line)):
        for i, res in enumerate(seg):
            total = g[res]
            if total.value == 0:
                continue
            for order in (seg[i - 1::-1] if i else [], seg[i + 1:]):
                best = None
                acc = Decimal(0)
                for j, prev in enumerate(order[:MAX_PARTS]):
                    acc += g[prev].value
                    run = order[:j + 1]
                    if sum(1 for p in run if g[p].value != 0) >= 2 and g[prev].percent == total.percent and \
                            abs(acc - total.value) <= _tolerance([g[p] for p in run] + [total]):
                        best = tuple(sorted(run))
                if best is not None:
                    found.append(Identity("sum", res, best))
                    break
    return found


def _column_pairs(g: dict[Cell, Amount], rows: list[int], cols: list[int]) -> list[Identity]:
    """Change columns: column c = a − b (or the percent change of a over b) on every row that has all three."""
    found = []
    for c in cols:
        for a in cols:
            for b in cols:
                if len({a, b, c}) < 3 or c < max(a, b):  # a change column stands right of its operands
                    continue
                hits = [r for r in rows if (r, a) in g and (r, b) in g and (r, c) in g]
                if not hits:
                    continue
                for kind in ("diff", "pct_change"):
                    ok = True
                    for r in hits:
                        ident = Identity(kind, (r, c), ((r, a), (r, b)))
                        v = ident.compute({k: g[k].value for k in ident.parts})
                        tol = Decimal(1).scaleb(-g[(r, c)].places) * Decimal("0.5") + Decimal("1e-9")
                        if kind == "diff":
                            tol = _tolerance([g[(r, a)], g[(r, b)], g[(r, c)]])
                        if v is None or abs(abs(v) - abs(g[(r, c)].value)) > tol or \
                                (v != 0 and g[(r, c)].value != 0 and (v > 0) != (g[(r, c)].value > 0)):
                            ok = False
                            break
                    # one row could agree by chance: a change column needs two rows, or decimals to agree on
                    if ok and (len(hits) >= 2 or g[(hits[0], c)].places >= 1) and \
                            any(g[(r, c)].value != 0 for r in hits):
                        found += [Identity(kind, (r, c), ((r, a), (r, b))) for r in hits]
                        break
    return found


def detect(g: dict[Cell, Amount]) -> list[Identity]:
    rows = sorted({r for r, _ in g})
    cols = sorted({c for _, c in g})
    columns = [[(r, c) for r in rows if (r, c) in g] for c in cols]
    lines_r = [[(r, c) for c in cols if (r, c) in g] for r in rows]
    pairs = _column_pairs(g, rows, cols)
    # a = b + (a − b) is the change column read backwards: one relation, kept once (as the change)
    same = {frozenset((i.result, *i.parts)) for i in pairs}
    found = [i for i in _runs(g, columns) + _runs(g, lines_r) if frozenset((i.result, *i.parts)) not in same]
    taken = {i.result for i in found}
    found += [i for i in pairs if i.result not in taken]
    # a row that is the difference of the two rows above it (gross profit = revenue − cost)
    taken = {i.result for i in found}
    for c in cols:
        line = [(r, c) for r in rows if (r, c) in g]
        for i in range(2, len(line)):
            res, a, b = line[i], line[i - 2], line[i - 1]
            if res in taken or res[0] - a[0] != 2 or g[res].value == 0:
                continue
            if abs(g[a].value - g[b].value - g[res].value) <= _tolerance([g[a], g[b], g[res]]) and \
                    g[b].value != 0 and g[a].value != g[res].value:
                found.append(Identity("diff", res, (a, b)))
    return found


def cells_of(idents: list[Identity]) -> set[Cell]:
    return {c for i in idents for c in (i.result, *i.parts)}
