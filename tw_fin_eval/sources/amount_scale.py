"""The unit an amount gold is counted in, read from where its operands stand in the English source.

FinQA and ConvFinQA golds are bare numbers in the unit of the page ("( in millions )", "$ 772 million"). The
zh-TW evidence states prose amounts the Taiwan way (7.72 億美元, glossary §1.3), so a model may answer
「7.72 億美元」 for the gold 772: the scorer needs the gold's unit to see that the amounts are equal. This module
finds it once, at build time, and the records carry it as `answer_scale` (a power of ten: 3, 6, 9; null when it
cannot be told). Each literal operand found in the source carries a unit — a scale word right after it in a page
sentence ("$ 772 million", "$ 1.4 billion"), or the unit its table is stated in ("( in millions )", "dollars in
thousands"); one stated nowhere with a unit counts as a pure number in a sum or a product (12 months) and makes a
division unknown. The unit is then followed step by step:
sums of amounts in one unit keep it, amount × pure number keeps it, amount ÷ amount is a ratio (also when a
later step subtracts 1 from it), and amount × amount (shares × price) or mixed units give null, as do programs
that rescale with const_1000 / const_1000000.

>>> program_scale("subtract(772, 843)", None, ["the balance was $ 772 million , compared to $ 843 million ."])
6
>>> program_scale("divide(772, 843)", None, ["the balance was $ 772 million , compared to $ 843 million ."])
>>> program_scale("add(5829, 5735)", [["", "amount ( in millions )"], ["2015", "$ 5829"], ["2014", "$ 5735"]], [])
6
>>> program_scale("divide(772, 843), subtract(#0, const_1)", None, ["$ 772 million , compared to $ 843 million ."])
>>> program_scale("multiply(3.2, 45.5)", [["( in millions )", "shares", "price"], ["2015", "3.2", "45.5"]], [])
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_SCALE_WORDS = {"thousand": 3, "million": 6, "billion": 9}
_AFTER = re.compile(r"\s*(?:20(?:13|14|22)\s+)?(thousand|million|billion|mil-\s*lion|bil-\s*lion)s?\b", re.I)
_TABLE_UNIT = re.compile(r"\b(?:in\s+|dollars\s+in\s+|\$\s*in\s+)?(thousands|millions|billions)\b", re.I)
_NUM = re.compile(r"-?\$?\s*\d[\d,]*(?:\.\d+)?")
_STEP = re.compile(r"(\w+)\(([^()]*)\)")
_RESCALE = {"const_1000", "const_1000000", "const_100"}


def _literal(arg: str) -> float | None:
    arg = arg.strip()
    if arg.startswith(("#", "const_")) or arg.endswith("%"):
        return None
    try:
        return float(arg.replace(",", ""))
    except ValueError:
        return None


def _value(text: str) -> float | None:
    try:
        return float(text.replace("$", "").replace(",", "").replace(" ", ""))
    except ValueError:
        return None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _text_scales(value: float, sentences: Iterable[str]) -> set[int]:
    found = set()
    for s in sentences:
        for m in _NUM.finditer(s):
            v = _value(m.group())
            if v is None or not _close(abs(v), abs(value)):
                continue
            after = _AFTER.match(s, m.end())
            if after:
                found.add(_SCALE_WORDS[re.sub(r"-\s*", "", after.group(1)).lower()])
    return found


def table_scale(table: list[list[str]] | None) -> int | None:
    """The unit a table states in its header row or first column ("( in millions )"), if one."""
    if not table:
        return None
    cells = list(table[0]) + [row[0] for row in table[1:] if row]
    scales = {_SCALE_WORDS[m.group(1).lower().rstrip("s")] for c in cells for m in _TABLE_UNIT.finditer(c)}
    return scales.pop() if len(scales) == 1 else None


# the unit note a page prints right before its table: "the following table … ( in thousands ) :",
# "( dollars in millions , except per share data )", "$ in millions december 2015", "shares in thousands"
_NOTE = re.compile(r"(?:\b(?:u\.s\.\s+)?(?:dollars?|dollar\s+amounts|amounts|shares|share\s+awards|units)\s+|\$\s*|\b)"
                   r"(?:stated\s+)?in\s+(thousands|millions|billions)\b"
                   r"(?:\s+of\s+(?:u\.s\.\s+)?(dollars|shares))?"
                   r"(?:\s*,?\s*except\s+(?:for\s+)?(?P<excepted>(?:(?:number\s+of\s+)?shares?|per[\s-]+share)"
                   r"(?:\s*(?:,|and|&)\s*(?:(?:number\s+of\s+)?shares?|per[\s-]+share))*)\b)?", re.I)


_BRACKETED = re.compile(r"\(([^()]*)\)")


@dataclass(frozen=True)
class UnitNote:
    """A table's unit as the page states it outside the table: its scale (3/6/9), what it counts
    ("dollars" — said by the note, or by the table's "$" amounts when it counts nothing else —, "shares",
    or "" when the page does not say) and whether per-share figures are excepted."""

    text: str  # the English words, e.g. "dollars in millions"
    scale: int
    kind: str
    except_per_share: bool = False
    except_shares: bool = False  # "( in thousands , except share and per share amounts )": share counts are not


def unit_note(table: list[list[str]] | None, pre_text: list[str]) -> UnitNote | None:
    """The unit note of the sentence right before the table (the last pre-text sentence), else a bracketed
    page-level note anywhere in the pre-text ("( in thousands , except per share data )"), when the table itself
    states no unit; None when there is none, or when the notes name two different scales."""
    if not pre_text or table_scale(table) is not None or _states_unit(table):
        return None
    found = list(_NOTE.finditer(pre_text[-1]))
    if not found:  # a page-level note: "notes to consolidated financial statements ( in thousands , except … )"
        found = [m for s in pre_text for inner in _BRACKETED.findall(s) for m in _NOTE.finditer(inner)]
    scales = {_SCALE_WORDS[m.group(1).lower().rstrip("s")] for m in found}
    if len(scales) != 1:
        return None
    m = found[0]
    # what the note counts is said before "in thousands" or by "of shares" after it; the except clause names
    # what the scale does NOT apply to ("except share and per share amounts" — those are not in thousands)
    lead = m.group(0)[: m.start(1) - m.start(0)].lower()
    excepted = re.sub(r"per[\s-]+shares?", " ", (m.group("excepted") or "").lower())
    if re.search(r"\bshares?\b", lead) or (m.group(2) or "").lower() == "shares":
        kind = "shares"
    elif "$" in lead or "dollar" in lead or (m.group(2) or "").lower() == "dollars" or _dollar_table(table):
        kind = "dollars"
    else:
        kind = ""
    return UnitNote(" ".join(m.group(0).split()), scales.pop(), kind,
                    bool(re.search(r"per[\s-]+share", m.group("excepted") or "", re.I)),
                    bool(re.search(r"\bshares?\b", excepted)))


# table labels that count something other than money (a scale note then covers them too)
_COUNT_LABEL = re.compile(r"\bshares\b|\bunits\b|\bnumber of\b|\bemployees\b|\bheadcount\b|\bbarrels\b|\bacres\b|"
                          r"\bsquare feet\b|\bcustomers\b|\bsubscribers\b", re.I)


def _dollar_table(table: list[list[str]] | None) -> bool:
    """Does the page state the currency in the table itself — amounts printed with "$" — and count nothing
    else (no row or column of shares, units, employees…)? Then "( in thousands )" means thousands of dollars."""
    if not table:
        return False
    labels = list(table[0]) + [row[0] for row in table[1:] if row]
    return any("$" in c for row in table for c in row) and not any(_COUNT_LABEL.search(c) for c in labels)


def _states_unit(table: list[list[str]] | None) -> bool:
    """Does the header row already carry some unit words ("( in $ millions )", "( 000s )")? Then no note."""
    header = " ".join((table or [[]])[0]).lower()
    return bool(re.search(r"\b(?:thousands|millions|billions|000s?)\b|in \$", header))


def _in_table(value: float, table: list[list[str]] | None) -> bool:
    for row in (table or [])[1:]:
        for cell in row[1:]:
            for m in _NUM.finditer(cell):
                v = _value(m.group())
                if v is not None and _close(abs(v), abs(value)):
                    return True
    return False


def program_literals(program: str | None) -> list[float]:
    """The literal numbers a program computes with ("subtract(2.3, 2.1)" → [2.3, 2.1]; #k and const_ left out)."""
    steps = _STEP.findall(program or "") or [("value", program or "")]
    return [v for _, body in steps for a in body.split(",") if (v := _literal(a)) is not None]


def rescales(program: str | None) -> bool:
    """Does the program change the unit itself (multiply by const_1000 …)? Then its gold is not in the unit the
    operands are stated in."""
    return any(a.strip() in _RESCALE for _, body in _STEP.findall(program or "") for a in body.split(","))


def program_scale(program: str | None, table: list[list[str]] | None, sentences: Iterable[str],
                  note: UnitNote | None = None) -> int | None:
    """Power of ten of the gold's unit (see the module docstring), or None. `note`: the table's unit as the
    page states it before the table (`unit_note`), used when the table itself states none."""
    steps = _STEP.findall(program or "")
    if not steps:  # a bare lookup ("60.94") is one literal operand
        steps = [("value", program or "")]
    if rescales(program):
        return None
    sentences = list(sentences)
    t_scale = table_scale(table) or (note.scale if note else None)

    def operand(arg: str, done: list[_Dim]) -> _Dim:
        arg = arg.strip()
        if arg.startswith("#"):
            k = int(arg[1:]) if arg[1:].isdigit() else -1
            return done[k] if 0 <= k < len(done) else _UNKNOWN
        if arg.startswith("const_") or arg.endswith("%"):
            return _PURE  # a count, a percentage or 1: no unit of its own
        value = _literal(arg)
        if value is None:
            return _UNKNOWN
        if value == 0:
            return _PURE
        here = _text_scales(value, sentences)
        if not here and t_scale and _in_table(value, table):
            here = {t_scale}
        if not here:
            return _BARE  # stated nowhere with a unit: a count (12 months, 3 plants) — or an amount we cannot place
        return ("amount", here.pop()) if len(here) == 1 else _UNKNOWN

    done: list[_Dim] = []
    terms: list[int] = []  # how many values each step's sum adds up (an average divides by exactly that many)
    for op, body in steps:
        parts = [a.strip() for a in body.split(",")]
        n_terms = sum(terms[int(a[1:])] if a[1:].isdigit() and int(a[1:]) < len(terms) else 1
                      for a in parts) if op == "add" and parts[0] and not any(a.startswith("const_") for a in parts) else 1
        terms.append(n_terms)
        if op.startswith("table_"):
            done.append(("amount", t_scale) if t_scale and op in ("table_sum", "table_average", "table_max",
                                                               "table_min") else _UNKNOWN)
            continue
        args = [operand(a, done) for a in parts]
        if op == "divide" and len(parts) == 2 and parts[1].startswith("const_"):
            # amount ÷ const_N keeps the unit only as an average of N summed values; otherwise the constant may be
            # an amount written in words ($ 10 billion, 5 million shares) and the result a ratio or a price
            ref = parts[0][1:] if parts[0].startswith("#") else ""
            n = parts[1][len("const_"):]
            if not (ref.isdigit() and n.isdigit() and int(ref) < len(terms) and terms[int(ref)] == int(n) > 1):
                done.append(_UNKNOWN if args[0][0] == "amount" else _combine(op, args))
                continue
        done.append(_combine(op, args))
    last = done[-1]
    return last[1] if last[0] == "amount" else None


_Dim = tuple  # ("amount", scale) | ("pure",) | ("ratio",) | ("unknown",)
_PURE: _Dim = ("pure",)
_RATIO: _Dim = ("ratio",)
_UNKNOWN: _Dim = ("unknown",)
_BARE: _Dim = ("bare",)  # a literal found nowhere with a unit: pure in a sum or a product, never a safe divisor


def _combine(op: str, args: list[_Dim]) -> _Dim:
    """The unit of one program step from its operands' units: a sum of amounts in one unit keeps it, an amount
    times a pure number keeps it, amount ÷ amount is a ratio, and amount × amount (shares × price) or a sum of
    different units has no unit the scorer may rely on."""
    if _UNKNOWN in args or not args:
        return _UNKNOWN
    if op == "divide" and _BARE in args:
        return _UNKNOWN  # 100.3 / 46.7: a ratio of two amounts, one of them unplaced — no unit to rely on
    args = [_PURE if a == _BARE else a for a in args]
    amounts = {a[1] for a in args if a[0] == "amount"}
    if op == "value":
        return args[0]
    if op in ("add", "subtract"):
        if len(amounts) > 1 or (amounts and _RATIO in args):
            return _UNKNOWN
        return ("amount", amounts.pop()) if amounts else (_RATIO if _RATIO in args else _PURE)
    if op == "multiply":
        n_amounts = sum(a[0] == "amount" for a in args)
        if n_amounts > 1:
            return _UNKNOWN
        return ("amount", amounts.pop()) if amounts else (_RATIO if _RATIO in args else _PURE)
    if op == "divide":
        num, den = args[0], args[-1]
        if num[0] == "amount":
            return _RATIO if den[0] == "amount" else num
        return _UNKNOWN if den[0] == "amount" else (_RATIO if _RATIO in args else _PURE)
    if op == "exp":
        return _RATIO if args[0][0] != "amount" else _UNKNOWN
    return _UNKNOWN  # greater and anything unknown: no unit


def annotate_record(record: dict, item) -> dict:
    """FinQA post-gold hook: `answer_scale` of the (final) program; null for yes/no items."""
    sentences = item.fields.get("page_text") or [e.text for e in item.evidence]
    record["answer_scale"] = None if record.get("answer_value") is None else \
        program_scale(record.get("program"), item.table, sentences, item.fields.get("unit_note"))
    return record


def annotate_turns(record: dict, item) -> dict:
    """ConvFinQA post-gold hook: `answer_scale` of every turn's (final) program."""
    sentences = item.fields.get("page_text") or [e.text for e in item.evidence]
    for turn in record.get("turns") or []:
        turn["answer_scale"] = None if turn.get("answer_value") is None else \
            program_scale(turn.get("program"), item.table, sentences, item.fields.get("unit_note"))
    return record
