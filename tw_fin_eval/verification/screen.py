"""The residual-class pre-screen (docs/VERIFICATION.md, "Residual classes"): mechanical checks over every
FinQA-TW item and ConvFinQA-TW turn that flag the units a reader must look at again. A flag is a question,
not a verdict: the reader decides and records the outcome in the verdict files with its `sweep` class.

Classes (the numbers of issue 29):

1. ``unit`` — the question asks for a unit (「以百萬計」, "in millions") other than the gold's (the unit the
   program's operands are stated in, from the table, the page's unit note or the sentence of the operand).
2. ``program`` — the program's final operation does not fit what the question asks (a percentage asked and
   no division, an amount asked and a ratio given, an average without averaging).
3. ``missing_fact`` — a program operand or a non-trivial constant is nowhere in the prompt the model sees
   (table, evidence, question, earlier turns and their gold answers), value-aware: 80 億 holds 8 billion.
4. ``sign`` — a question asking for a positive number (「以正數表示」) with a negative gold; a "change from
   A to B" computed A − B or a percent change divided by the later year; a conversation computing its
   changes both ways; a turn that repeats an earlier turn's upstream computation the verdicts fixed.
5. ``unanswerable`` — every unanswerable verdict, to be re-read.
6. ``table`` — the zh-TW table as rendered does not let the model find an operand: two columns share one
   header and the operand (or the label the question names) is under it; or the operand's cell shows a dash
   (「—」, the upstream '2014' mojibake of an em dash).

Class 1 also flags a return asked over a performance-graph table based at 100 whose gold is a dollar
amount (value − 100, or the value itself); class 4 also reports a loss/outflow looked up with the sign
the table does not show (report only: `REPORT_ONLY_CHECKS`, a scorer rule is being considered).

Numbers are read by the scorer's parser (tw_fin_eval.answers.numbers), so the prompt's 「7.72 億美元」,
「1,234」, 「4.1%」 and 「七年」 are read the same way a model's answer is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval.answers.match import asked_part
from tw_fin_eval.answers.numbers import CJK_NUMERAL_RUN, find_numbers, parse_cjk_numeral
from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.sources.amount_scale import UnitNote, program_literals, program_scale
from tw_fin_eval.sources.base import SourceItem, numbers_in
from tw_fin_eval.verification.program import ProgramError, Step, constant, literal, parse
from tw_fin_eval.verification.verdicts import Verdict

CLASSES = {
    "unit": "1: the question's unit differs from the gold's",
    "program": "2: the program's final quantity does not fit the question",
    "missing_fact": "3: an operand or constant the prompt does not show",
    "sign": "4: sign / direction of a change / dependent turns",
    "unanswerable": "5: an unanswerable verdict to re-read",
    "table": "6: the rendered table hides the operand (shared column header, a dash cell)",
}
# checks whose flags are reported but need no verdict read (their outcome may be a scorer rule instead)
REPORT_ONLY_CHECKS = {"loss_sign"}

# ---- class 1: units -------------------------------------------------------------------------------------
_EN_UNIT = re.compile(r"\bin\s+(?:\$\s*|us\s*\$\s*|u\.s\.\s+|dollars?\s+|usd\s+)?(thousand|million|billion)s?\b"
                      r"|\bhow\s+many\s+(thousand|million|billion)s?\b", re.I)
_ZH_UNIT = re.compile(r"以(?:新臺幣|新台幣|美元)?\s*(千|百萬|十億|億|萬)\s*(?:美元|元|股|單位|桶)?\s*(?:為單位|計|表示)"
                      r"|(?:換算成|多少)\s*(千|百萬|十億)\s*(?:美元|元|股|(?=[？?，,。]|$|是多少))"
                      r"|單位\s*[：:為]\s*(千|百萬|十億|億|萬)"
                      r"|[（(]\s*(千|百萬|十億|億|萬)\s*(?:美元|元|股)\s*[）)]")
_SCALE = {"thousand": 3, "million": 6, "billion": 9, "千": 3, "萬": 4, "百萬": 6, "億": 8, "十億": 9}
_RESCALE = {"const_1000": 3, "const_1000000": 6}
_STEP = re.compile(r"(\w+)\(([^()]*)\)")


# a question that names its currency without a scale (「（以美元計）」, 「（美元）」) asks for plain dollars: the
# gold's unit is stated, even though asked_scale has no power of ten to compare (q33: finqa 0069, 0773)
_ASKS_CURRENCY = re.compile(r"以(?:新臺幣|新台幣)?\s*(?:美元|元)\s*(?:為單位|計|表示)|[（(]\s*(?:以)?(?:美元|元)(?:計)?\s*[）)]")


def asked_scale(question_en: str, question_zh: str) -> tuple[int | None, int | None]:
    """(English, zh-TW) unit the question asks for, as powers of ten; None where it asks none."""
    m = _EN_UNIT.search(question_en or "")
    en = _SCALE[next(g for g in m.groups() if g).lower()] if m else None
    z = _ZH_UNIT.search(question_zh or "")
    zh = _SCALE[next(g for g in z.groups() if g)] if z else None
    return en, zh


def gold_scale(program: str, table: list[list[str]] | None, sentences: list[str], note: UnitNote | None) -> int | None:
    """The unit of the gold as a power of ten: the operands' unit (amount_scale.program_scale), with an
    average's final division by a count and a rescale by const_1000 / const_1000000 taken into account."""
    steps = _STEP.findall(program or "") or [("value", (program or "").strip())]
    shift = 0
    while steps:
        op, body = steps[-1]
        args = [a.strip() for a in body.split(",")]
        if op == "divide" and len(args) == 2 and args[0].startswith("#") and args[1].startswith("const_") \
                and args[1] not in _RESCALE and args[1] != "const_100":
            steps = steps[:-1]  # an average: the sum's unit
        elif op in ("multiply", "divide") and args[1] in _RESCALE and (args[0].startswith("#") or len(steps) == 1):
            shift += -_RESCALE[args[1]] if op == "multiply" else _RESCALE[args[1]]
            steps = steps[:-1] if args[0].startswith("#") else [("value", args[0])]
        else:
            break
    if not steps:
        return None
    prefix = ", ".join(f"{op}({body})" if op != "value" else body for op, body in steps)
    base = program_scale(prefix, table, sentences, note)
    return None if base is None else base + shift


# ---- class 3: values in the prompt ---------------------------------------------------------------------
TRIVIAL_CONSTANTS = {1.0, -1.0, 100.0, 1000.0, 1000000.0}


def _close(a: float, b: float, rel: float = 1e-6) -> bool:
    return abs(a - b) <= max(1e-9, rel * max(abs(a), abs(b)))


class PromptNumbers:
    """Every value a prompt states, each with the readings a reader would make of it: the numeral as
    written, its value with 億/萬/million applied, that value in thousands/millions/billions (a page amount
    in millions restated as 億), and a percent both as written and as a fraction."""

    def __init__(self, text: str):
        values: set[float] = set()
        literal: set[float] = set()  # the numerals as written (no unit applied)
        for n in find_numbers(text):
            for v in (n.bare, n.value):
                values.add(abs(v))
            literal.add(abs(n.bare))
            if n.unit and not n.percent and n.multiplier > 1:
                for s in (1e3, 1e6, 1e9):
                    values.add(abs(n.value) / s)
            else:
                literal.add(abs(n.value))
        for v in numbers_in(text):  # FinQA's cell style (「-32 ( 32 )」, 「$ 5829」)
            values.add(abs(v))
            literal.add(abs(v))
        for m in CJK_NUMERAL_RUN.finditer(text):
            v = parse_cjk_numeral(m.group(0))
            if v is not None:
                values.add(abs(v))
        self.values = sorted(values)
        self.literal = sorted(literal)

    def restated_only(self, value: float) -> bool:
        """The prompt states `value` only restated in another unit (「22 億美元」 for the page's 2.2 billion, 「2.64
        億美元」 for its $ 264 million), never as the numeral itself."""
        target = abs(value)
        return target != 0 and self.holds(value) and not any(_close(target, v) for v in self.literal)

    def holds(self, value: float) -> bool:
        target = abs(value)
        if target == 0:
            return True
        return any(_close(target, v) for v in self.values)


def average_divisors(program: str) -> set[str]:
    """The `const_N` of `divide(#k, const_N)` where #k sums N operands (an average's count needs no fact)."""
    out: set[str] = set()
    try:
        steps = parse(program)
    except ProgramError:
        return out
    for k, st in enumerate(steps):
        if st.op == "divide" and st.args[0].startswith("#") and st.args[1].startswith("const_"):
            n = constant(st.args[1])
            adds = sum(1 for s in steps[:k] if s.op == "add")
            if n is not None and n in (adds + 1, 2, 3, 4, 5, 12):
                out.add(st.args[1])
    return out


def _value_args(program: str, steps: list[Step] | None = None) -> list[str]:
    """The arguments of `program` (or of its already parsed `steps`) that name a value (literals and constants;
    not step references, not the row names of table_ steps). Raises ProgramError."""
    steps = parse(program) if steps is None else steps
    return [arg for st in steps if not st.op.startswith("table_") for arg in st.args if not arg.startswith("#")]


def missing_operands(program: str, prompt: PromptNumbers) -> list[str]:
    """The literal operands and non-trivial constants of `program` the prompt does not state."""
    try:
        args = _value_args(program)
    except ProgramError as exc:
        return [f"program error: {exc}"]
    averages = average_divisors(program)
    out: list[str] = []
    for arg in args:
        c = constant(arg)
        if c is not None:
            if c in TRIVIAL_CONSTANTS or arg in averages or prompt.holds(c):
                continue
            out.append(arg)
            continue
        v = literal(arg)
        if v is not None and not prompt.holds(v) and not prompt.holds(float(arg.rstrip("%").replace(",", ""))):
            out.append(arg)
    return list(dict.fromkeys(out))


def _amount_operands(program: str) -> list[tuple[str, float]]:
    """(argument, value) of the literal operands and the non-trivial constants of `program` that may be amounts
    (not percents; a constant only where it is added or subtracted): 「const_7」 is the page's $ 7 billion as surely as 「7.0」 is (v37: convfinqa
    0296, 「由 50 億美元提高至 70 億美元」)."""
    try:
        steps = parse(program)
        args = _value_args(program, steps)
        # a constant added or subtracted is an amount; one that multiplies or divides is a count (七大洲, 分八期)
        summed = {a for st in steps if st.op in ("add", "subtract") for a in st.args}
    except ProgramError:
        return []
    out = []
    for a in args:
        c = constant(a)
        if c is not None:
            if c not in TRIVIAL_CONSTANTS and a in summed:
                out.append((a, float(c)))
        elif literal(a) is not None and not a.endswith("%"):
            out.append((a, float(a)))
    return out


def _ratio_gold(u: ScreenUnit) -> bool:
    """A gold without a unit: a ratio, a percent or a change rate (the program ends in a division by a
    value, or the question asks a percentage)."""
    try:
        steps = parse(u.program)
    except ProgramError:
        return False
    last = steps[-1] if steps else None
    divisor = last.args[-1] if last is not None and last.op == "divide" else None
    # a division by a percent turned fraction (「divide(20, const_100), divide(264, #0)」: the whole from a stake) is
    # an amount
    by_fraction = divisor is not None and divisor.startswith("#") and int(divisor[1:]) < len(steps) and \
        steps[int(divisor[1:])].op == "divide" and steps[int(divisor[1:])].args[-1] == "const_100"
    divides = divisor is not None and constant(divisor) is None and not by_fraction
    return divides or bool(re.search(r"百分比|比率|比例|%|倍", asked_part(u.question_zh)[0]))


# ---- class 4: signs and directions -----------------------------------------------------------------------
_POSITIVE = re.compile(r"\bpositive\b|\babsolute\b|以正數|正數表示|取正值|絕對值", re.I)
_FROM_TO = re.compile(r"\bfrom\s+(?:\w+\s+){0,3}?((?:19|20)\d\d)\s+(?:to|through|and)\s+(?:\w+\s+){0,3}?((?:19|20)\d\d)"
                      r"|\bbetween\s+((?:19|20)\d\d)\s+and\s+((?:19|20)\d\d)"
                      r"|((?:19|20)\d\d)\s*(?:年)?\s*(?:至|到|～|~)\s*((?:19|20)\d\d)", re.I)
_CHANGE = re.compile(r"\bchange|\bincrease|\bgrowth|\bgrow|\bdifference|\bvariation|變動|變化|增加|增減|成長|差額|差異|增幅", re.I)
_DECREASE = re.compile(r"\bdecrease|\bdecline|\bdrop|\bfall|\breduc|減少|下降|下滑|降低|衰退", re.I)
_YEAR = re.compile(r"(?:19|20)\d\d")


def _cell_years(value: float, table: list[list[str]]) -> set[int]:
    """The years of the cells that hold `value` (from their column header, else their row label)."""
    out: set[int] = set()
    header = table[0] if table else []
    for row in table[1:]:
        for c, cell in enumerate(row[1:], 1):
            if any(_close(abs(v), abs(value), 1e-9) for v in numbers_in(cell)):
                col = header[c] if c < len(header) else ""
                years = [int(y) for y in _YEAR.findall(col)] or [int(y) for y in _YEAR.findall(row[0])]
                if len(set(years)) == 1:
                    out.add(years[0])
    return out


def change_direction(program: str, table: list[list[str]] | None) -> tuple[str, tuple[int, int]] | None:
    """("new-old" or "old-new", (year of a, year of b)) of the first subtract(a, b) whose two literals sit
    in cells of two different, unambiguous years; None when it cannot be told."""
    if not table:
        return None
    for op, body in _STEP.findall(program or ""):
        if op != "subtract":
            continue
        args = [a.strip() for a in body.split(",")]
        va, vb = (literal(a) for a in args)
        if va is None or vb is None:
            return None
        ya, yb = _cell_years(va, table), _cell_years(vb, table)
        if len(ya) == 1 and len(yb) == 1 and ya != yb:
            a, b = ya.pop(), yb.pop()
            return ("new-old" if a > b else "old-new"), (a, b)
        return None
    return None


def percent_base_year(program: str, table: list[list[str]] | None) -> tuple[int, int] | None:
    """For `subtract(a, b), divide(#0, c)`: (year of c, year of a) when both are unambiguous."""
    steps = _STEP.findall(program or "")
    if len(steps) < 2 or steps[0][0] != "subtract" or steps[1][0] != "divide" or not table:
        return None
    a = literal(steps[0][1].split(",")[0].strip())
    d = [x.strip() for x in steps[1][1].split(",")]
    c = literal(d[1]) if d[0] == "#0" else None
    if a is None or c is None:
        return None
    yc, ya = _cell_years(c, table), _cell_years(a, table)
    return (yc.pop(), ya.pop()) if len(yc) == 1 and len(ya) == 1 else None


# ---- the units ---------------------------------------------------------------------------------------------

@dataclass
class ScreenUnit:
    subset: str
    record_id: str
    turn: int | None
    question_en: str
    question_zh: str
    program: str  # the current gold program (the corrected one for a fixed unit)
    answer_value: float | None
    status: str | None
    prompt: str  # the zh-TW prompt text the model sees for this unit
    table_en: list[list[str]]
    sentences: list[str]
    note: UnitNote | None
    upstream_program: str
    upstream_value: float | None
    table_zh: list[list[str]] = field(default_factory=list)  # the table as the model sees it

    @property
    def label(self) -> str:
        return self.record_id if self.turn is None else f"{self.record_id} turn {self.turn}"


@dataclass
class Flag:
    cls: str
    unit: ScreenUnit
    why: str
    check: str = ""  # the check's name where a class has several (dup_column, dash_cell, loss_sign, base100_return)

    def line(self) -> str:
        check = f"{self.check}: " if self.check else ""
        return f"{self.cls:<13} {self.unit.label:<32} [{self.unit.status}] {check}{self.why}"


def screen_units(subset: str, items: list[SourceItem], records: list[dict[str, Any]],
                 verdicts: dict[tuple[str, int | None], Verdict]) -> Iterator[ScreenUnit]:
    by_id = {r["id"]: r for r in records}
    from tw_fin_eval.subsets import get_spec

    for it in items:
        rid = get_spec(subset).record_id(it.index)
        rec = by_id.get(rid)
        if rec is None:
            continue
        sentences = it.fields.get("page_text") or []
        note = it.fields.get("unit_note")
        if not get_spec(subset).conversational:
            v = verdicts.get((rid, None))
            prompt = "\n".join(m["content"] for m in rec["messages"] if m["role"] == "user")
            yield ScreenUnit(subset, rid, None, it.question, rec["question"], rec["program"], rec["answer_value"],
                             v.status if v else None, prompt, it.table or [], sentences, note,
                             it.fields["program"], it.fields["answer_value"], rec["context"]["table"] or [])
            continue
        text = rec["first_user_prefix"]
        for k, (t, t_en) in enumerate(zip(rec["turns"], it.fields["turns"])):
            v = verdicts.get((rid, k))
            text += "\n" + t["question"]
            yield ScreenUnit(subset, rid, k, t_en["question_en"], t["question"], t["program"], t["answer_value"],
                             v.status if v else None, text, it.table or [], sentences, note,
                             t_en["program"], t_en["answer_value"], rec["context"]["table"] or [])
            text += "\n答案：" + str(t["answer"])


def screen(units: list[ScreenUnit]) -> list[Flag]:
    flags: list[Flag] = []
    conv_dirs: dict[str, list[tuple[ScreenUnit, str]]] = {}
    for u in units:
        # class 1
        en, zh = asked_scale(u.question_en, u.question_zh)
        asked = en if en is not None else zh
        if en is not None and zh is not None and en != zh and not (en == 9 and zh == 8):
            flags.append(Flag("unit", u, f"English asks 10^{en}, zh-TW asks 10^{zh}"))
        if asked is not None and u.answer_value is not None and u.status != "unanswerable":
            g = gold_scale(u.program, u.table_en, u.sentences, u.note)
            if g is not None and g != asked and not (asked == 8 and g == 9):
                flags.append(Flag("unit", u, f"asks 10^{asked}, gold is in 10^{g} (gold {u.answer_value:g})"))
            elif g is None:
                flags.append(Flag("unit", u, f"asks 10^{asked}, the gold's unit cannot be told (gold {u.answer_value:g})"))
        # class 1: an operand the prompt states only in 億／萬 (the page's "$ 2.2 billion" as 「22 億美元」) while the
        # gold keeps the page's unit and the question names none — the model cannot know the gold's unit
        numbers = PromptNumbers(u.prompt) if u.status != "unanswerable" else None
        if numbers is not None and asked is None and u.answer_value is not None and not _ratio_gold(u) \
                and not _ASKS_CURRENCY.search(u.question_zh):
            restated = [a for a, v in _amount_operands(u.program) if numbers.restated_only(v)]
            if restated:
                flags.append(Flag("unit", u, f"operand {', '.join(restated)} is in the prompt only in another unit "
                                             f"(億／萬), the question names none (gold {u.answer_value:g})",
                                  "restated_operand"))
        # class 3
        if numbers is not None:
            missing = missing_operands(u.program, numbers)
            if missing:
                flags.append(Flag("missing_fact", u, "not in the prompt: " + ", ".join(missing)))
        # class 4
        if u.answer_value is not None and u.answer_value < 0 and _POSITIVE.search(u.question_en + " " + u.question_zh):
            flags.append(Flag("sign", u, f"asks a positive number, gold {u.answer_value:g}"))
        d = change_direction(u.program, u.table_en)
        q = u.question_en + " " + u.question_zh
        m = _FROM_TO.search(q)
        if d and u.status != "unanswerable":
            if u.turn is not None and not _DECREASE.search(q):  # "by how much did it decrease" is old − new
                conv_dirs.setdefault(u.record_id, []).append((u, d[0]))
            if m and _CHANGE.search(q) and not _DECREASE.search(q):
                y = [int(g) for g in m.groups() if g]
                start, end = y[0], y[1]
                if start < end and d[1] == (start, end):
                    flags.append(Flag("sign", u, f"change from {start} to {end} computed {start} − {end}"))
        pb = percent_base_year(u.program, u.table_en)
        if pb and m and u.status != "unanswerable":
            y = sorted(int(g) for g in m.groups() if g)
            if pb[0] == y[-1] and pb[0] != y[0]:
                flags.append(Flag("sign", u, f"percent change divided by the later year ({pb[0]})"))
        # class 5
        if u.status == "unanswerable":
            flags.append(Flag("unanswerable", u, "re-read"))
    for dirs in conv_dirs.values():
        kinds = {d for _, d in dirs}
        if len(kinds) > 1:
            for u, d in dirs:
                flags.append(Flag("sign", u, f"conversation computes changes both ways (this turn {d})"))
    flags += dependent_turns([u for u in units if u.turn is not None])
    flags += program_fit(units)
    flags += table_checks(units)
    return flags


def dependent_turns(turns: list[ScreenUnit]) -> list[Flag]:
    """Later turns of a conversation that repeat an earlier fixed turn's upstream computation (its program
    as a prefix, or its upstream answer as a literal) but kept their own upstream gold."""
    out: list[Flag] = []
    by_conv: dict[str, list[ScreenUnit]] = {}
    for u in turns:
        by_conv.setdefault(u.record_id, []).append(u)
    for conv in by_conv.values():
        for k, fixed in enumerate(conv):
            if fixed.status != "fixed":
                continue
            up = " ".join(fixed.upstream_program.split())
            for later in conv[k + 1:]:
                if later.status in ("fixed", "unanswerable"):
                    continue
                prog = " ".join(later.upstream_program.split())
                reuses = prog.startswith(up) or (fixed.upstream_value is not None and any(
                    _close(abs(v), abs(fixed.upstream_value), 1e-4) for v in program_literals(prog)))
                if reuses:
                    out.append(Flag("sign", later, f"repeats turn {fixed.turn}'s upstream computation, which was fixed"))
    return out


# ---- class 2: the final quantity vs the question ---------------------------------------------------------
# words that ask for a ratio; a number written with % ("the 8.75% notes") or a row named with one is no ask
_ASKS_RATIO = re.compile(r"\bpercent(?:age)?\b|\bportion\b|\bratio\b|\bproportion|\bshare of\b|\bfraction|"
                         r"divided by|\bdivide|\bover (?:the |that |this )?(?:(?:19|20)\d\d |beginning |prior |low |total )?"
                         r"(?:value|price|number|amount|total|sum|revenues?|income|sales|100)\b|in relation to|relative to|\brepresent|"
                         r"\bas a percent", re.I)
_NOT_A_RATIO_ASK = re.compile(r"-?\d[\d,.]*\s*%(?:\s*\(\s*-?\d[\d,.]*\s*%\s*\))?|change (?:in|of) (?:the |that |this )?percentage|"
                              r"percentage points?|basis points?|(?:current )?portion of (?:long-term )?debt|"
                              r"(?:increase|change|decrease) (?:amount )?in (?:that|this|the) percentage|that percentage|"
                              r"correspondent to", re.I)
_ASKS_AMOUNT = re.compile(r"^(?:what|how much)\b.*\b(?:difference|change|decrease|increase|total|sum|amount|balance)\b", re.I)
_ASKS_AVERAGE = re.compile(r"\baverage\b|平均", re.I)
_AVERAGE_IS_A_NAME = re.compile(r"weighted[- ]?average|average (?:price|exercise|grant|interest|equity|backlog|wti|"
                                r"investments|balance|shares|common|outstanding|remaining|cost)|dow jones|annual average|"
                                r"\b(?:sum|total|combined|change|increase|decrease)\b", re.I)
_RATE_WORDS = re.compile(r"\brate\b|yield|margin|return|\bper\b|times|multiple|growth|price|workforce|number of", re.I)


def program_fit(units: list[ScreenUnit]) -> list[Flag]:
    """Class 2 candidates: the final operation against what the (English) question asks."""
    out = []
    for u in units:
        if u.status == "unanswerable" or u.answer_value is None:
            continue
        try:
            steps = parse(u.program)
        except ProgramError:
            continue
        ops = [s.op for s in steps]
        last = ops[-1]
        if last == "divide" and steps[-1].args[1].startswith("const_"):
            last = "rescale"  # a unit change (÷1000) or an average's count: still an amount
        q = u.question_en
        ratio_q = _NOT_A_RATIO_ASK.sub(" ", q)
        divides = any(o in ("divide", "table_average") for o in ops)
        if _ASKS_AVERAGE.search(q) and not _AVERAGE_IS_A_NAME.search(q) and last in ("add", "table_sum"):
            out.append(Flag("program", u, "asks an average; the program sums without dividing"))
        elif _ASKS_RATIO.search(ratio_q) and not divides and last not in ("value", "greater", "exp", "table_max",
                                                                          "table_min"):
            out.append(Flag("program", u, f"asks a percentage/ratio; the program ends in {last} without dividing"))
        elif _ASKS_AMOUNT.search(q) and last == "divide" and not _ASKS_RATIO.search(ratio_q) \
                and not _RATE_WORDS.search(q):
            out.append(Flag("program", u, "asks an amount; the program ends in a division"))
        elif last == "divide" and _ASKS_TOTAL.search(q):
            label = _divisor_row(steps[-1].args[1], u.table_en)
            if label is not None and not _TOTAL_ROW.search(label):
                out.append(Flag("program", u, f"asks a share of a total; divides by the row {label[:40]!r}"))
    return out


_ASKS_TOTAL = re.compile(r"\b(?:of|to|in relation to|relative to) (?:the |all |its )?total\b", re.I)
_TOTAL_ROW = re.compile(r"total|all|combined|net|overall|worldwide|consolidated", re.I)


def _divisor_row(arg: str, table: list[list[str]]) -> str | None:
    """The row label of the one table row whose cells hold the literal divisor `arg` (None otherwise)."""
    v = literal(arg)
    if v is None:
        return None
    rows = {row[0] for row in table[1:] if any(_close(abs(x), abs(v), 1e-9) for c in row[1:] for x in numbers_in(c))}
    return rows.pop() if len(rows) == 1 else None


# ---- the rendered table (class 6), loss signs (class 4, report only), base-100 returns (class 1) -------------
# each check's name → its class; a flag of a check is a question for a reader, as every flag
CHECKS = {"dup_column": "table", "dash_cell": "table", "loss_sign": "sign", "base100_return": "unit",
          "restated_operand": "unit"}
# a dash, or the upstream code of one kept as digits (U+2014 em dash, U+2013 en dash, U+2212 minus)
_DASH_CELL = re.compile(r"\$?\s*(?:[-—–―−]+|201[34]|2212)\s*")
_NEGATIVE_SHOWN = re.compile(r"(?:^|[\s$＄])[-−–]\s*\$?\s*\d|[(（]\s*\$?\s*\d[\d,.]*\s*%?\s*[)）]")
_ASKS_LOSS = re.compile(r"\bloss(?:es)?\b|\boutflows?\b|\bused (?:in|for|by)\b|\bdeficits?\b|虧損|損失|淨損|流出|用於", re.I)
_ASKS_RETURN = re.compile(r"\breturns?\b|報酬", re.I)
# 「累積報酬指數」 names the graph's value itself (the glossary's performance-graph wording): its gold is the value
_NOT_A_RETURN = re.compile(r"\breturn on (?:average )?(?:equity|assets|capital|invested|tangible)|(?:權益|資產|資本)報酬率|"
                           r"報酬指數", re.I)
_ASKS_PERCENT = re.compile(r"\bpercent|百分比|%", re.I)


def shared_headers(table: list[list[str]]) -> dict[str, list[int]]:
    """Header text → its columns, for each header two or more value columns share (whitespace-normalised)."""
    cols: dict[str, list[int]] = {}
    for c, h in enumerate((table[0] if table else [])[1:], 1):
        key = " ".join(h.split())
        if key:
            cols.setdefault(key, []).append(c)
    return {k: v for k, v in cols.items() if len(v) > 1}


def cells_holding(value: float, table: list[list[str]]) -> list[tuple[int, int]]:
    """(row, column) of every value cell (below the header, right of the label) that states |value|."""
    return [(r, c) for r, row in enumerate(table[1:], 1) for c, cell in enumerate(row[1:], 1)
            if any(_close(abs(x), abs(value), 1e-9) for x in numbers_in(cell))]


def _shown_table(u: ScreenUnit) -> list[list[str]]:
    """The table the model sees, when it has the English table's shape (so cells line up); else the English."""
    zh, en = u.table_zh, u.table_en
    if zh and len(zh) == len(en) and all(len(a) == len(b) for a, b in zip(zh, en)):
        return zh
    return en


def shows_negative(cell: str) -> bool:
    """Does the cell show its number negative (「-1,234」, 「$ -5」, 「( 1,234 )」)?"""
    return bool(_NEGATIVE_SHOWN.search(cell))


def base100_lines(table: list[list[str]]) -> bool:
    """Is the table a performance graph based at 100: a value column or row whose numeric cells (two or more)
    are all 100 (「100.00」, 「$ 100」)?"""
    def based(cells: list[str]) -> bool:
        values = [v for cell in cells for v in numbers_in(cell)]
        return len(values) >= 2 and all(_close(v, 100.0) for v in values)

    rows = [row[1:] for row in table[1:]]
    width = max((len(r) for r in rows), default=0)
    return any(based(r) for r in rows) or any(based([r[c] for r in rows if c < len(r)]) for c in range(width))


def table_checks(units: list[ScreenUnit]) -> list[Flag]:
    out: list[Flag] = []
    for u in units:
        if u.status == "unanswerable" or not u.table_en:
            continue
        shown = _shown_table(u)
        operands = [v for v in dict.fromkeys(program_literals(u.program)) if v != 0]
        # shared column headers: the model cannot tell which column an operand (or the asked label) is under
        for label, cols in shared_headers(shown).items():
            where = f"「{label}」 heads columns {', '.join(map(str, cols))}"
            under = [v for v in operands if any(c in cols for _, c in cells_holding(v, u.table_en))]
            if under:
                out.append(Flag("table", u, f"operand {', '.join(f'{v:g}' for v in under)} under a shared header: "
                                            f"{where}", "dup_column"))
            elif label in u.question_zh:
                out.append(Flag("table", u, f"the question names a shared header: {where}", "dup_column"))
        # an operand whose cell the model sees as a dash (「—」 for the upstream '2014' mojibake of an em dash)
        for v in operands:
            cells = cells_holding(v, u.table_en)
            dashes = [(r, c) for r, c in cells if _DASH_CELL.fullmatch(shown[r][c].strip())]
            if dashes and len(dashes) == len(cells):
                r, c = dashes[0]
                out.append(Flag("table", u, f"operand {v:g} is the cell {shown[r][0][:30]!r} / {shown[0][c][:30]!r}, "
                                            f"shown as 「{shown[r][c].strip()}」 (English {u.table_en[r][c]!r})",
                                "dash_cell"))
        if u.answer_value is None:
            continue
        q = u.question_en + " " + u.question_zh
        # a loss/outflow looked up with the other sign than the table shows (report only)
        try:
            steps = parse(u.program)
        except ProgramError:
            steps = []
        if len(steps) == 1 and steps[0].op == "value" and operands and _ASKS_LOSS.search(q) and u.answer_value:
            cells = cells_holding(operands[0], u.table_en)
            signs = {shows_negative(shown[r][c]) for r, c in cells}
            gold_negative = u.answer_value < 0
            if signs and gold_negative not in signs:
                r, c = cells[0]
                out.append(Flag("sign", u, f"asks the loss/outflow itself; the table shows 「{shown[r][c].strip()}」, "
                                           f"gold {u.answer_value:g}", "loss_sign"))
        # a return over a performance graph based at 100 whose gold is a dollar amount, not a fraction
        if _ASKS_RETURN.search(q) and not _NOT_A_RETURN.search(q) and base100_lines(u.table_en):
            values = {x for row in u.table_en[1:] for cell in row[1:] for x in numbers_in(cell) if not _close(x, 100.0)}
            a = u.answer_value
            near = [(x, "value − 100") for x in values if abs(a - (x - 100)) <= max(0.005, 1e-4 * abs(a))]
            near += [(x, "the value itself") for x in values if abs(a - x) <= max(0.005, 1e-4 * abs(a))]
            if near:
                x, how = near[0]
                asks = "; the question asks a percentage" if _ASKS_PERCENT.search(q) else ""
                out.append(Flag("unit", u, f"asks a return over a table based at 100; gold {a:g} is {how} "
                                           f"({x:g}), a dollar amount (as a fraction: {(x - 100) / 100:g}){asks}",
                                "base100_return"))
    return out


# ---- flags routed to readers but not yet read ----------------------------------------------------------------
PENDING_FILE = "screen_pending.jsonl"
_PENDING_FIELDS = {"id", "turn", "check", "routed"}


def load_pending(path: Path) -> set[tuple[str, int | None, str]]:
    """(id, turn, check) of the flags routed to a reader and not yet read (`verification/screen_pending.jsonl`,
    one line each: {"id", "turn", "check", "routed"}); a bad line is an InputError naming file:line and id.
    A missing file is an empty set."""
    out: set[tuple[str, int | None, str]] = set()
    if not path.is_file():
        return out
    for line, obj in iter_jsonl(path):
        rid = obj.get("id")
        where = {"path": path, "line": line, "item_id": rid if isinstance(rid, str) else None}
        if set(obj) != _PENDING_FIELDS:
            raise InputError(f"fields must be exactly {', '.join(sorted(_PENDING_FIELDS))}", **where)
        if not isinstance(rid, str) or not rid:
            raise InputError("id must be a record id", **where)
        turn = obj["turn"]
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 0):
            raise InputError("turn must be null or a turn index ≥ 0", **where)
        if obj["check"] not in CHECKS:
            raise InputError(f"check must be one of {', '.join(CHECKS)}, got {obj['check']!r}", **where)
        if not isinstance(obj["routed"], str) or not obj["routed"].strip():
            raise InputError("routed must say to whom / where the flag was routed", **where)
        key = (rid, turn, obj["check"])
        if key in out:
            raise InputError(f"pending twice: {rid} turn {turn} {obj['check']}", **where)
        out.add(key)
    return out
