"""FinQA's OCR codes of a dash told from real values, from the table's own evidence.

FinQA's OCR wrote an em dash as the number 2014 (an en dash as 2013, a minus sign as 2212), so a table cell
「$ 2014」 is usually 「—」 — but a real amount of 2,014 or a year 2014 reads the same. Which it is, the
table itself says:

- a column of years (the other data cells of the column are years: 「租約到期年度」 2022, 2023, 2019): a year;
- the table's arithmetic: a total or difference that holds in the table's other columns (rows), or a real
  total in the cell's own line, holds here under one reading only — the cell read as 0 (a dash) or as its
  number. The dash codes of one line are read together (2^k readings), and the reading under which the most
  of those identities hold decides a cell when every best reading agrees on it.

A cell neither rule decides is undecided; `number_cells` returns the cells to print as numbers (the two
rules' numbers, and with `keep_undecided` the undecided ones too).

>>> t = [["", "2013", "2012", "2011"], ["報告數", "$ 2837", "$ 1562", "$ 1427"], ["市價調整", "947", "-452 ( 452 )",
...      "-682 ( 682 )"], ["K 專案", "-208 ( 208 )", "2014", "2014"], ["基礎數", "$ 2098", "$ 2014", "$ 2109"]]
>>> sorted(readings(t).items())
[((3, 2), False), ((3, 3), False), ((4, 2), True)]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

DASH_CODES = "2013|2014|2212"  # —, –, −
DASH_CODE_RE = re.compile(rf"\(?\s*\$?\s*\(?\s*({DASH_CODES})\s*\)?\s*\)?")  # a cell holding only a dash code
_PRINTED_DASH_RE = re.compile(r"\$?\s*[—–−]")
_FOOTNOTE_RE = re.compile(r"\(\s*[a-z]\s*\)|（(?:註 ?)?[a-z0-9]{1,2}）")  # 「( a )」, printed 「（a）」「（註 2）」
# a cell holding one amount: "$ 5,735", "-32 ( 32 )", "( 32 )", "$ ( 5 )", "4.7% ( 4.7 % )", "$ -1.2"
_AMOUNT_RE = re.compile(r"(?P<neg1>-)?\s*\$?\s*(?P<lp>\()?\s*(?P<neg2>-)?\s*\$?\s*"
                        r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?P<rp>\))?\s*(?P<pct>%)?"
                        r"(?:\s*\(\s*-?\s*\$?\s*(?P=num)\s*%?\s*\))?")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_PLACEHOLDERS = frozenset({"", "n/a", "na", "nm", "none", "*", "***", "無", "不適用", "不適用者"})
MAX_JOINT = 8  # dash codes of one line read jointly; a line with more is read one code at a time


@dataclass(frozen=True)
class _Cell:
    value: float  # a dash code's number; a printed dash's 0
    places: int
    code: bool  # a dash code: 0 or `value`, to be decided
    printed: bool = False  # a dash the table prints (「—」): 0, and no size to compare with


def _cell(text: str) -> _Cell | None:
    text = text.strip()
    if (m := DASH_CODE_RE.fullmatch(text)) is not None:  # read as a number, 「( 2014 )」 is negative
        return _Cell(-float(m.group(1)) if "(" in text and ")" in text else float(m.group(1)), 0, True)
    if _PRINTED_DASH_RE.fullmatch(text):
        return _Cell(0.0, 0, False, printed=True)
    m = _AMOUNT_RE.fullmatch(_FOOTNOTE_RE.sub("", text).strip())
    if m is None:
        return None
    value = float(m.group("num").replace(",", ""))
    negative = m.group("neg1") or m.group("neg2") or (m.group("lp") and m.group("rp"))
    return _Cell(-value if negative else value, len(m.group("num").partition(".")[2]), False)


@dataclass(frozen=True)
class _Identity:
    """line[target] = f(line[parts]): f the sum, or (`diff`) the first part minus the others."""

    target: int
    parts: tuple[int, ...]
    diff: bool = False

    def cells(self) -> tuple[int, ...]:
        return (self.target, *self.parts)

    def holds(self, line: list[_Cell | None], reading: dict[int, float]) -> bool | None:
        """Under `reading` (a dash code's position → the value it is read as; other codes read 0); None when a
        cell is missing from `line`."""
        cells = [line[i] if i < len(line) else None for i in self.cells()]
        if any(c is None for c in cells):
            return None
        values = [reading.get(i, 0.0) if c.code else c.value for i, c in zip(self.cells(), cells)]  # type: ignore[union-attr]
        total, window = values[0], values[1:]
        result = window[0] - sum(window[1:]) if self.diff else sum(window)
        real = [c.places for c in cells if not c.code]  # type: ignore[union-attr]
        return abs(result - total) <= 0.5 * 10 ** -min(real, default=0) * max(1, len(window) - 1) + 1e-9


def _windows(n: int, t: int) -> Iterable[tuple[int, ...]]:
    """The runs of cells next to position t of a line of n cells: ending right before it, or starting right after it."""
    yield from (tuple(range(s, t)) for s in range(t - 2, -1, -1))
    yield from (tuple(range(t + 1, e)) for e in range(t + 3, n + 1))


def _identities(line: list[_Cell | None]) -> tuple[set[_Identity], set[_Identity]]:
    """(shared, own): the identities a line shows with its dash codes read as 0, for a real non-zero target.
    Shared ones have two or more non-zero real parts — the table's arithmetic, which the other lines are read
    by. Own ones are read in this line only: a real total of one real part and dash codes (766801 = 766801 +
    「2014」) — never a total that needs a code's number by its own line alone (1562 = -452 + 「2014」 is the
    layout of a reported / adjustment / underlying block, not arithmetic). A code is never a total of its own line's cells: 「K 專案 2014」 right under 1562 and -452 is
    their difference by the table's layout (the 基礎數 below it is), not by its value. A total may take a
    subtotal in place of its parts (合計 = 美國 + 非洲合計 + 其他, 非洲合計 = 埃及 + 其他非洲)."""
    shared: set[_Identity] = set()
    own: set[_Identity] = set()

    def add(ident: _Identity) -> None:
        parts = [line[p] for p in ident.parts]
        real = sum(1 for c in parts if not c.code and c.value != 0)  # type: ignore[union-attr]
        if real >= 2 and ident.holds(line, {}):
            shared.add(ident)
        elif real >= 1 and any(c.code for c in parts) and ident.holds(line, {}):  # type: ignore[union-attr]
            own.add(ident)

    targets = [t for t, c in enumerate(line) if c is not None and not c.code and c.value != 0]
    for t in targets:
        for parts in _windows(len(line), t):
            if all(line[p] is not None for p in parts):
                add(_Identity(t, parts))
                add(_Identity(t, parts, diff=True))
    # a subtotal above a total stands for its parts: the longest run that sums to it
    subtotal = {}
    for ident in sorted(shared | own, key=lambda i: len(i.parts)):
        if not ident.diff and ident.parts[-1] == ident.target - 1:
            subtotal[ident.target] = ident.parts[0]
    for t in targets:
        parts, j = [], t - 1
        while j >= 0 and line[j] is not None:
            parts.append(j)
            j = subtotal[j] - 1 if j in subtotal else j - 1
            if len(parts) >= 2 and any(p in subtotal for p in parts):
                add(_Identity(t, tuple(sorted(parts))))
    return shared, own


def _decide_line(line: list[_Cell | None], candidates: Iterable[_Identity],
                 fit: Callable[[int], int]) -> dict[int, bool]:
    """position → True (the number) / False (a dash) for the dash codes of `line` the identities decide; among
    readings the identities cannot tell apart, the one whose numbers fit their cross lines (`fit`: +1 the
    number is of the size of the other values there, −1 it is not, 0 unknown) — the other years of a row."""
    codes = [i for i, c in enumerate(line) if c is not None and c.code]
    def real(p: int) -> bool:
        return line[p] is not None and not line[p].code and line[p].value != 0  # type: ignore[union-attr]

    # an identity says something here when it touches a code and a real amount of this line (one over codes
    # alone — 「2014」 = 「2014」 − 「2014」 — holds for a dash and for a number alike)
    relevant = [ident for ident in set(candidates) if ident.holds(line, {}) is not None
                and any(p in codes for p in ident.cells())
                and any(real(p) for p in ident.cells())]
    if not codes or not relevant:
        return {}
    if len(codes) <= MAX_JOINT:
        choices: Iterable[tuple[int, ...]] = itertools.product((0, 1), repeat=len(codes))
    else:  # all dashes, and each code alone a number
        choices = [tuple(0 for _ in codes)] + [tuple(int(j == k) for j in range(len(codes))) for k in range(len(codes))]
    scored = []
    for choice in choices:
        reading = {p: line[p].value for p, on in zip(codes, choice) if on}  # type: ignore[union-attr]
        held = sum(1 for ident in relevant if ident.holds(line, reading))
        scored.append((held, sum(fit(p) for p in reading), choice))
    best = max(scored)[:2]
    if best[0] == 0:
        return {}
    winners = [choice for held, fits, choice in scored if (held, fits) == best]
    return {p: bool(winners[0][k]) for k, p in enumerate(codes) if len({w[k] for w in winners}) == 1}


def _fit(value: float, others: Iterable[_Cell | None]) -> int:
    """+1 when a line's other non-zero amounts hold one of `value`'s sign and size (within a factor 2), −1 when
    they hold none (or the line's amounts are all zero), 0 when the line has no other amount."""
    cells = [c for c in others if c is not None and not c.code and not c.printed]
    amounts = [c.value for c in cells if c.value != 0]
    if not amounts:
        return -1 if cells else 0  # 「2014」 among $ 0.00 only: a dash
    return 1 if any(a * value > 0 and 0.5 <= a / value <= 2 for a in amounts) else -1


def _year_column(cells: list[str]) -> bool:
    """The data cells other than dash codes and placeholders are all years (two at least): 2022 ( 2 ), 2023."""
    years = [c for c in cells if c.strip().lower() not in _PLACEHOLDERS and not DASH_CODE_RE.fullmatch(c.strip())]
    return len(years) >= 2 and all(_YEAR_RE.fullmatch(_FOOTNOTE_RE.sub("", re.sub(r"\(\s*\d\s*\)", "", c)).strip())
                                   for c in years)


def _stated_total(value: float, lines: list[list[_Cell | None]], at: tuple[int, int],
                  stated: frozenset[float]) -> bool | None:
    """The page's text states the total of a line that holds this one code (its other cells real): True when the
    stated total counts the code's number, False when it counts a dash, None when neither or both."""
    said = set()
    for line, i in zip(lines, at):
        others = [x for j, x in enumerate(line) if j != i and x is not None]
        if any(x.code for x in others) or sum(1 for x in others if x.value) < 2:
            continue
        total = sum(x.value for x in others)
        if total == 0:  # the text's 「2014」 is a year or its own dash code, never a total's evidence
            continue
        for number, with_code in ((True, total + value), (False, total)):
            if any(abs(abs(with_code) - s) <= 1e-6 * max(1.0, s) for s in stated):
                said.add(number)
    return said.pop() if len(said) == 1 else None


def readings(table: list[list[str]], first: int = 1, lead: int = 1,
             stated: frozenset[float] = frozenset()) -> dict[tuple[int, int], bool]:
    """(row, column) → True (a number) / False (a dash) for the dash-code cells of `table` whose reading the
    table's evidence decides (data rows from `first`, value columns from `lead`); undecided cells are absent.
    In this order: a column of years; the arithmetic, down the columns and along the rows (a cell the two
    directions read differently is undecided); for a cell no identity touches, a total of its row or column
    the page's text states (`stated`: the numbers of the page's sentences — 「we had $ 3081 outstanding」 over
    「2017 $ 2014 | 2018 150 | 2019 175 | 2020 2756」), a row of dash codes only (dashes), else its size against its row's other amounts (the same
    item in other periods), or failing those its column's."""
    width = max((len(r) for r in table), default=0)
    grid = {(r, c): _cell(table[r][c]) for r in range(first, len(table)) for c in range(lead, len(table[r]))}
    codes = [cell for cell, x in grid.items() if x is not None and x.code]
    if not codes:
        return {}
    columns = {c: [grid.get((r, c)) for r in range(len(table))] for c in range(lead, width)}
    rows = {r: [grid.get((r, c)) for c in range(width)] for r in range(first, len(table))}
    out: dict[tuple[int, int], bool] = {}
    for c in columns:
        if _year_column([table[r][c] for r in rows if c < len(table[r])]):
            out.update({(r, cc): True for r, cc in codes if cc == c})
    votes: dict[tuple[int, int], set[bool]] = {}
    for lines, cross, transpose in ((columns, rows, True), (rows, columns, False)):
        found = {k: _identities(line) for k, line in lines.items()}
        shared = set().union(*(f[0] for f in found.values()))  # the table's arithmetic, from every line
        for k, line in lines.items():
            def fit(i: int, k: int = k, line: list[_Cell | None] = line,
                    cross: dict[int, list[_Cell | None]] = cross) -> int:
                return _fit(line[i].value, [x for j, x in enumerate(cross.get(i, [])) if j != k])  # type: ignore[union-attr]
            for i, number in _decide_line(line, shared | found[k][1], fit).items():
                votes.setdefault((i, k) if transpose else (k, i), set()).add(number)
    for (r, c) in codes:
        if (r, c) in out:
            continue
        if (r, c) in votes:
            if len(votes[(r, c)]) == 1:
                out[(r, c)] = next(iter(votes[(r, c)]))
            continue
        value = grid[(r, c)].value  # type: ignore[union-attr]
        if (total := _stated_total(value, [rows[r], columns[c]], (c, r), stated)) is not None:
            out[(r, c)] = total
            continue
        row = [x for j, x in enumerate(rows[r]) if j != c and x is not None and not x.printed]
        if row and all(x.code for x in row):  # a row of dash codes only (「2014 | ( 2013 ) | 2212」): dashes
            out[(r, c)] = False
            continue
        size = _fit(value, row) or \
            _fit(value, (x for j, x in enumerate(columns[c]) if j != r))
        if size:
            out[(r, c)] = size > 0
    return out


def number_cells(table: list[list[str]], first: int = 1, lead: int = 1, stated: frozenset[float] = frozenset(),
                 keep_undecided: bool = True) -> frozenset[tuple[int, int]]:
    """The dash-code cells of `table` to print as numbers: those the evidence reads as numbers and, with
    `keep_undecided` (a real value is never dropped on a guess), those it cannot decide."""
    decided = readings(table, first, lead, stated)
    codes = {(r, c) for r in range(first, len(table)) for c in range(lead, len(table[r]))
             if DASH_CODE_RE.fullmatch(table[r][c].strip())}
    return frozenset(cell for cell in codes if decided.get(cell, keep_undecided))
