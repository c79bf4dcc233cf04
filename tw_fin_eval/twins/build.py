"""Make the twin of one FinQA-TW record or one ConvFinQA-TW conversation (docs/TWINS.md).

Steps, for a unit whose gold is verified or fixed and whose program executes:

1. every literal operand of the program(s) is located in the prompt: a table cell, a text evidence sentence or
   the question (as written, or restated: 「7.72 億美元」 for a cell of 772 in millions; a percent cell for the
   fraction the program uses). Years, counts of periods (a small integer the table does not hold), unit
   constants (100, 1000) and earlier results (a ConvFinQA turn reusing the previous answer) are not perturbed;
   any other operand the prompt does not state makes the unit skipped.
2. the table's identities (twins.identities) touching a perturbed cell are followed: their parts are
   perturbed too and their result cells (totals, changes) recomputed, so the twin's table still adds up.
3. each perturbed value gets its own factor (twins.perturb); every occurrence of it is rewritten in the table,
   the text evidence and the questions (table evidence is re-rendered from the new table), in English too.
4. the programs get the new literals and are executed on the new table: the new gold. A result the page
   itself states (an intermediate or final value written in the text) is rewritten with the new result.
5. checks: the program executes to the new gold, every new value is in the prompt, no perturbed original
   value is left in it, the table identities hold (twins.checks).

A unit that cannot be twinned safely is skipped with a reason (`Skip`), counted in the coverage report.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from tw_fin_eval import prompts, records
from tw_fin_eval.answers.match import gold_display
from tw_fin_eval.records import render_table_evidence
from tw_fin_eval.sources.base import table_row_sentence
from tw_fin_eval.twins import checks
from tw_fin_eval.twins import identities as ids
from tw_fin_eval.twins.ids import DATASET_SUFFIX, twin_id
from tw_fin_eval.twins.numerals import MULTIPLIERS, PAGE_SCALES, dec, decimals, fmt, plain, replace, tokens
from tw_fin_eval.twins.perturb import Rng, new_value
from tw_fin_eval.verification.program import TABLE_OPS, ProgramError, execute_steps

_STEP = re.compile(r"(\w+)\(([^()]*)\)")
ATTEMPTS = 12  # redraws when a recomputed total would change sign or collide
GOLD_STATUSES = ("verified", "fixed")
SCALES = (Decimal(1), Decimal("0.01"), Decimal(100), Decimal(1000), Decimal("0.001"))


class Skip(Exception):
    """The unit cannot be twinned safely; `reason` is a short category for the coverage table."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason, self.detail = reason, detail


@dataclass
class Unit:
    """What the twin of one record is computed from (FinQA: one program; ConvFinQA: one per turn)."""

    rid: str
    table: list[list[str]]  # zh-TW
    en_table: list[list[str]]
    texts: list[str]  # zh-TW text evidence entries (table evidence is rendered from the table)
    questions: list[str]  # zh-TW
    programs: list[str]
    mapping: dict[Decimal, Decimal] = field(default_factory=dict)  # |page value| → |new value|
    kinds: dict[Decimal, str] = field(default_factory=dict)  # operand / part / total
    restated: list[tuple[Decimal, Decimal]] = field(default_factory=list)  # (old result, new result)


# ---- locating operands --------------------------------------------------------------------------------------
def _args(program: str) -> list[str]:
    steps = _STEP.findall(program or "")
    if not steps:
        return [program.strip()] if program and program.strip() else []
    return [a.strip() for op, body in steps if op not in TABLE_OPS for a in body.split(",")]


def _literal(arg: str) -> tuple[Decimal, Decimal] | None:
    """(value the program computes with, page value as written) of a literal arg ("4.1%" → (0.041, 4.1))."""
    if arg.startswith(("#", "const_")):
        return None
    body = arg.rstrip("%").replace(",", "")
    try:
        page = Decimal(body)
    except ArithmeticError:
        return None
    return (page / 100, page) if arg.endswith("%") else (page, page)


def _year(v: Decimal) -> bool:
    return v == v.to_integral_value() and 1900 <= abs(v) <= 2100 and "." not in str(v)


def _count(v: Decimal) -> bool:
    return v == v.to_integral_value() and 0 < abs(v) <= 12


def _unit_constant(v: Decimal) -> bool:
    return abs(v) in (Decimal(100), Decimal(1000), Decimal(10) ** 6, Decimal(10) ** 9) or v == 0


def _value_cells(table: list[list[str]]) -> Iterable[tuple[int, int, str]]:
    for r, row in enumerate(table):
        if r == 0:
            continue
        for c, cell in enumerate(row):
            if c:
                yield r, c, cell


def _stated(unit: Unit, page: Decimal) -> tuple[bool, list[int]]:
    """(found in the prompt, decimals of its plain occurrences)."""
    found, places = False, []
    for text in [cell for _, _, cell in _value_cells(unit.table)] + unit.texts + unit.questions:
        for t in tokens(text):
            if t.matches(page):
                found = True
                if t.mult is None:
                    places.append(decimals(t.num))
    return found, places


@dataclass
class Operand:
    arg: str
    page: Decimal  # |value as the page writes it|
    scale: Decimal  # program value = page × scale (sign from the program)
    places: int


def locate(unit: Unit, arg: str, earlier: list[Decimal]) -> Operand | str | None:
    """An Operand to perturb, "keep" for a literal that stays (year, count, constant, earlier result), or None
    when the prompt does not state it."""
    lit = _literal(arg)
    if lit is None:
        return "keep"
    value, page = lit
    if _year(page) and not arg.endswith("%"):
        return "keep"
    for scale in SCALES if not arg.endswith("%") else (Decimal("0.01"),):
        candidate = abs(value / scale) if arg.endswith("%") is False else abs(page)
        if candidate == 0:
            continue
        found, places = _stated(unit, candidate)
        if found:
            lit_places = decimals(arg.rstrip("%")) if scale in (Decimal(1), Decimal("0.01")) else 0
            return Operand(arg, candidate, scale if not arg.endswith("%") else Decimal("0.01"),
                           max(places) if places else lit_places)
    if any(abs(abs(value) - abs(e)) <= Decimal("1e-5") * max(Decimal(1), abs(e)) for e in earlier):
        return "keep-earlier"
    if _count(value) or _unit_constant(value):
        return "keep"
    return None


def _row_operands(unit: Unit, have: list[Operand]) -> list[Operand]:
    """The cells a table_sum/average/max/min step reads: perturbed like literal operands."""
    from tw_fin_eval.verification.program import table_row

    seen = {op.page for op in have}
    out = []
    for program in unit.programs:
        for op, body in _STEP.findall(program or ""):
            if op not in TABLE_OPS:
                continue
            row = table_row(unit.en_table, body.split(",")[0].strip())
            if row is None:
                raise Skip("program does not execute", f"table row {body!r} not found")
            r = unit.en_table.index(row)
            if r >= len(unit.table):
                raise Skip("table shapes differ")
            for cell in unit.table[r][1:]:
                a = ids.amount(cell)
                if a is None or a.value == 0 or abs(a.value) in seen or ids._year_like(a):
                    continue
                seen.add(abs(a.value))
                out.append(Operand("", abs(a.value), Decimal(1), a.places))
    return out


# ---- the twin ----------------------------------------------------------------------------------------------
def _closure(g: dict[ids.Cell, ids.Amount], idents: list[ids.Identity], free: set[Decimal]) -> \
        tuple[set[Decimal], set[ids.Cell], list[ids.Identity]]:
    """Values to perturb and cells to recompute: every identity touching a changed cell is followed."""
    derived: set[ids.Cell] = set()
    touched: list[ids.Identity] = []
    changed = True
    while changed:
        changed = False
        for ident in idents:
            if ident in touched:
                continue
            cells = (ident.result, *ident.parts)
            if any(abs(g[c].value) in free or c in derived for c in cells):
                touched.append(ident)
                derived.add(ident.result)
                free |= {abs(g[p].value) for p in ident.parts if p not in derived and g[p].value != 0}
                changed = True
    return free, derived, touched


def _assign(unit: Unit, operands: list[Operand], g: dict[ids.Cell, ids.Amount], idents: list[ids.Identity],
            rng: Rng, attempt: int) -> None:
    free = {op.page for op in operands}
    places = {op.page: op.places for op in operands}
    free, derived, touched = _closure(g, idents, set(free))
    derived_values = {abs(g[c].value) for c in derived}
    for v in list(free & derived_values):  # an operand that is a total: recomputed, not drawn
        others = [c for c, a in g.items() if abs(a.value) == v and c not in derived]
        if others:
            raise Skip("a total shares its value with another cell", f"{v:f}")
        free.discard(v)
    avoid = {abs(a.value) for a in g.values()}
    for text in unit.texts + unit.questions:
        avoid |= {t.value for t in tokens(text)}
    mapping: dict[Decimal, Decimal] = {}
    for v in sorted(free):
        p = places.get(v)
        if p is None:
            p = max((g[c].places for c in g if abs(g[c].value) == v), default=0)
        new = new_value(v, rng, avoid=avoid | set(mapping.values()), places=p, attempt=attempt)
        if new is None:
            raise Skip("operand too small to perturb", f"{v} has no neighbour within 20% at its precision")
        mapping[v] = new
    # recompute results in dependency order
    values = {c: (a.value.copy_sign(a.value) if abs(a.value) not in mapping else
                  mapping[abs(a.value)].copy_sign(a.value if a.value else Decimal(1)))
              for c, a in g.items() if c not in derived}
    pending = list(touched)
    while pending:
        progress = False
        for ident in list(pending):
            if all(p in values for p in ident.parts):
                v = ident.compute(values)
                if v is None:
                    raise Skip("table identity cannot be recomputed", "division by zero")
                q = Decimal(1).scaleb(-g[ident.result].places)
                new = v.quantize(q)
                if ident.result in values and abs(values[ident.result] - new) > q:
                    raise Skip("conflicting table identities", f"cell {ident.result}")
                values[ident.result] = new
                pending.remove(ident)
                progress = True
        if not progress:
            raise Skip("conflicting table identities", "circular")
    for c in derived:
        old, new = g[c].value, values[c]
        if new == 0 or (old > 0) != (new > 0):
            raise Skip("a recomputed total would change sign")  # redrawn by the caller
        if abs(old) in mapping and mapping[abs(old)] != abs(new):
            raise Skip("conflicting table identities", f"{abs(old)} recomputed two ways")
        if abs(new) == abs(old):
            raise Skip("a recomputed total would not change")
        mapping[abs(old)] = abs(new)
    # the operands keep their order: 「增加」 between two years stays an increase, a comparison keeps its answer
    ops = sorted(v for v in places if v in mapping)
    for i, a in enumerate(ops):
        for b in ops[i + 1:]:
            if (mapping[b] - mapping[a]) * (b - a) <= 0:
                raise Skip("perturbation would reorder the operands", f"{a:f} and {b:f}")  # redrawn by the caller
    unit.mapping = mapping
    unit.kinds = {v: ("operand" if v in places else "total" if v in derived_values else "part") for v in mapping}


def _new_literal(op: Operand, new_page: Decimal, sign_negative: bool) -> str:
    value = new_page * op.scale
    if op.arg.endswith("%"):
        text = fmt(new_page, decimals(op.arg.rstrip("%"))) + "%"
    elif op.scale == 1:
        text = fmt(new_page, max(decimals(op.arg), op.places))
    else:
        text = plain(value)
    return ("-" if sign_negative else "") + text


def _rewrite_program(program: str, literal_map: dict[str, str]) -> str:
    if not _STEP.findall(program or ""):
        return literal_map.get(program.strip(), program)

    def step(m: re.Match[str]) -> str:
        op, body = m.group(1), m.group(2)
        if op in TABLE_OPS:
            return m.group(0)
        return f"{op}({', '.join(literal_map.get(a.strip(), a.strip()) for a in body.split(','))})"

    return _STEP.sub(step, program)


def _step_values(program: str, table: list[list[str]]) -> list[float | str]:
    try:
        return execute_steps(program, table)
    except ProgramError as exc:
        raise Skip("program does not execute", str(exc)) from None


def _restate(text: str, pairs: list[tuple[Decimal, Decimal]], english: bool = False) -> tuple[str, int]:
    """A computed value the page states (「增加 94」, 「減少 7 百萬美元」) rewritten with the twin's result, at
    the precision it is written with."""
    out, pos, count = [], 0, 0
    for t in tokens(text, english):
        if t.dated:
            continue
        p = decimals(t.num)
        q = Decimal(1).scaleb(-p)
        hit = None
        for old, new in pairs:
            if t.mult:  # restated in 億/萬: the written figure times its unit is the result in a page unit
                unit = MULTIPLIERS[t.mult]
                for scale in PAGE_SCALES:
                    if t.value == (abs(old) * scale / unit).quantize(q) and (p >= 1 or t.value >= 10):
                        hit = fmt(abs(new) * scale / unit, p, "," in t.num) + t.text[len(t.num):]
                        break
            else:
                for factor in (Decimal(1), Decimal(100)):
                    target = (abs(old) * factor).quantize(q)
                    if t.value == target and (p >= 1 or target >= 10):
                        hit = fmt(abs(new) * factor, p, "," in t.num)
                        break
            if hit is not None:
                break
        if hit is not None:
            out += [text[pos:t.start], hit]
            pos = t.end
            count += 1
    return "".join(out) + text[pos:], count


def _human_answer(original: str | None, old: float, new: float) -> str | None:
    """The twin's answer written like the original's: 「14.1%」 for a fraction shown in percent, same decimals."""
    if not original:
        return None
    s = original.strip()
    m = re.fullmatch(r"\$?\s*(-?\d[\d,]*(?:\.\d+)?)\s*(%?)", s)
    if not m:
        return None
    num, pct = dec(m.group(1)), m.group(2)
    factor = Decimal(100) if pct and abs(float(num) - old * 100) <= max(0.06, abs(old) * 0.6) else Decimal(1)
    if not pct and abs(float(num) - old) > max(0.06, abs(old) * 0.01):
        return None
    p = decimals(m.group(1))
    return f"{'-' if new < 0 else ''}{fmt(abs(dec(new)) * factor, p)}{pct}"


@dataclass
class Turned:
    program: str
    value: float | None
    text: str | None  # yes/no
    answer: str


def _gold(program: str, en_table: list[list[str]], human: str | None, old_value: float | None,
          question: str) -> Turned:
    result = _step_values(program, en_table)[-1]
    if isinstance(result, str):
        return Turned(program, None, result, result)
    value = round(float(result), 5)
    if not (value == value) or abs(value) == float("inf"):
        raise Skip("program does not execute", "not a finite number")
    shown = _human_answer(human, old_value if old_value is not None else value, value)
    return Turned(program, value, None, gold_display(shown, value, questions=[question]))


def make_unit(record: dict[str, Any]) -> Unit:
    en = record.get("original_en") or {}
    turns = record.get("turns")
    keys = [e.get("key", "") for e in en.get("evidence") or []]
    texts = [t for k, t in zip(keys, record["context"]["evidence"]) if not k.startswith("table_")]
    if turns:
        questions, programs = [t["question"] for t in turns], [t["program"] or "" for t in turns]
    else:
        questions, programs = [record["question"]], [record.get("program") or ""]
    return Unit(record["id"], record["context"].get("table") or [], en.get("table") or [], texts, questions,
                programs)


def _statuses(record: dict[str, Any]) -> list[str | None]:
    if record.get("turns"):
        return [t.get("gold_status") for t in record["turns"]]
    return [record.get("gold_status")]


def twin(record: dict[str, Any], seed: int) -> dict[str, Any]:
    """The twin record (raises Skip with the reason when the unit cannot be twinned)."""
    statuses = _statuses(record)
    if not any(s in GOLD_STATUSES for s in statuses):
        raise Skip("gold not verified" if None in statuses else "unanswerable gold")
    last_error: Skip | None = None
    for attempt in range(ATTEMPTS):
        try:
            return _twin(record, seed, attempt)
        except Skip as exc:
            if exc.reason not in ("a recomputed total would change sign", "a recomputed total would not change",
                                  "perturbation would reorder the operands", "twin check failed"):
                raise
            last_error = exc
    assert last_error is not None
    raise last_error


def _twin(record: dict[str, Any], seed: int, attempt: int) -> dict[str, Any]:
    unit = make_unit(record)
    if not unit.programs or not all(p.strip() for p in unit.programs):
        raise Skip("no program")
    # original step values, in order: a later literal equal to one of them is an earlier result
    old_steps: list[list[float | str]] = [_step_values(p, unit.en_table) for p in unit.programs]
    operands: list[Operand] = []
    literal_keep: set[str] = set()
    earlier: list[Decimal] = []
    for k, program in enumerate(unit.programs):
        for arg in _args(program):
            where = locate(unit, arg, earlier)
            if where is None:
                raise Skip("operand not stated in the prompt", arg)
            if isinstance(where, str):
                if where == "keep-earlier":
                    literal_keep.add(arg)
                continue
            operands.append(where)
        earlier += [dec(v) for v in old_steps[k] if not isinstance(v, str)]
    operands += _row_operands(unit, operands)
    if not operands:
        raise Skip("nothing to perturb", "the operands are years, counts or constants")
    g = ids.grid(unit.table)
    idents = ids.detect(g)
    _assign(unit, operands, g, idents, Rng(seed, record["id"]), attempt)
    # new literals; an earlier result reused as a literal is replaced below once that result is known
    literal_map: dict[str, str] = {}
    for op in operands:
        if not op.arg:
            continue
        neg = op.arg.startswith("-")
        literal_map[op.arg] = _new_literal(op, unit.mapping[op.page], neg)
    new_table = [[cell if (r == 0 or c == 0) else replace(cell, unit.mapping)[0] for c, cell in enumerate(row)]
                 for r, row in enumerate(unit.table)]
    new_en_table = [[cell if (r == 0 or c == 0) else replace(cell, unit.mapping, True)[0] for c, cell in enumerate(row)]
                    for r, row in enumerate(unit.en_table)]
    # the programs, turn by turn (ConvFinQA reuses earlier answers as literals)
    earlier_pairs: list[tuple[Decimal, Decimal]] = []
    new_programs: list[str] = []
    golds: list[Turned] = []
    turns = record.get("turns") or [None]
    for k, program in enumerate(unit.programs):
        lm = dict(literal_map)
        for arg in _args(program):
            if arg in literal_keep and arg not in lm:
                v = dec(arg)
                hit = next((new for old, new in reversed(earlier_pairs)
                            if abs(abs(old) - abs(v)) <= Decimal("1e-5") * max(Decimal(1), abs(old))), None)
                if hit is not None:
                    lm[arg] = ("-" if v < 0 else "") + plain(abs(hit).quantize(Decimal("1e-5")))
        new_prog = _rewrite_program(program, lm)
        t = turns[k]
        human = t.get("answer") if t else record.get("answer")
        old_value = (t or record).get("answer_value")
        gold = _gold(new_prog, new_en_table, human, old_value, unit.questions[k])
        new_steps = _step_values(new_prog, new_en_table)
        for old, new in zip(old_steps[k], new_steps):
            if not isinstance(old, str) and not isinstance(new, str):
                earlier_pairs.append((dec(old), dec(new)))
        new_programs.append(new_prog)
        golds.append(gold)
    # results the page states in words are rewritten too
    result_pairs = [(o, n) for o, n in earlier_pairs if o not in unit.mapping and o != n
                    and not any(op.page == abs(o) for op in operands)]
    unit.restated = result_pairs
    new_texts = [rewrite(text, unit) for text in unit.texts]
    new_questions = [rewrite(q, unit) for q in unit.questions]
    out = _record(record, seed, unit, operands, new_table, new_en_table, new_texts, new_questions,
                  new_programs, golds)
    found = checks.problems(record, out) + checks.zh_findings(out)
    if found:
        raise Skip("twin check failed", "; ".join(found))
    return out


def rewrite(text: str, unit: Unit, english: bool = False) -> str:
    """A sentence or question of the twin: perturbed values, then the results it states, rewritten."""
    text, _ = replace(text, unit.mapping, english)
    return _restate(text, unit.restated, english)[0]


def _en_text(text: str, unit: Unit) -> str:
    return rewrite(text, unit, english=True)


def _record(record: dict[str, Any], seed: int, unit: Unit, operands: list[Operand], table: list[list[str]],
            en_table: list[list[str]], texts: list[str], questions: list[str], programs: list[str],
            golds: list[Turned]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    en = out.get("original_en") or {}
    keys = [e.get("key", "") for e in en.get("evidence") or []]
    text_iter = iter(texts)
    keep = frozenset(float(v) for v in unit.mapping.values())
    evidence = []
    for key, old in zip(keys, record["context"]["evidence"]):
        if key.startswith("table_"):
            row = int(key.split("_", 1)[1])
            same = render_table_evidence(unit.table, row) == old or render_table_evidence(
                unit.table, row, frozenset(float(o.page) for o in operands)) == old
            evidence.append(render_table_evidence(table, row, keep) if same and row < len(table)
                            else replace(old, unit.mapping)[0])
        else:
            evidence.append(next(text_iter))
    out["id"] = twin_id(record["id"], seed)
    out["dataset"] = f"{record['dataset']}{DATASET_SUFFIX}"
    out["context"] = dict(record["context"], table=table, evidence=evidence)
    for e in en.get("evidence") or []:
        if e["key"].startswith("table_") and int(e["key"].split("_", 1)[1]) < len(en_table):
            e["text"] = table_row_sentence(en_table, int(e["key"].split("_", 1)[1]))
        else:
            e["text"] = _en_text(e["text"], unit)
    en["table"] = en_table
    out["perturbation"] = [{"original": f"{old:f}", "new": f"{new:f}", "kind": unit.kinds.get(old, "operand")}
                           for old, new in sorted(unit.mapping.items())]
    out["twin_seed"] = seed
    if record.get("turns"):
        en["questions"] = [_en_text(q, unit) for q in en.get("questions") or []]
        new_turns = []
        for k, (t, q, gold) in enumerate(zip(record["turns"], questions, golds)):
            nt = dict(t, question=q, program=gold.program, answer_value=gold.value, answer_text=gold.text,
                      answer=gold.answer, question_en=_en_text(t.get("question_en") or "", unit),
                      twin_of={"id": record["id"], "turn": k})
            for name in ("original_answer_value", "original_answer_text", "original_program", "original_answer"):
                if name in nt:
                    nt[name] = {"original_answer_value": gold.value, "original_answer_text": gold.text,
                                "original_program": gold.program, "original_answer": gold.answer}[name]
            if t.get("gold_status") in GOLD_STATUSES:
                nt["gold_status"], nt["gold_reason"] = "verified", None
            new_turns.append(nt)
        out["turns"] = new_turns
        last = new_turns[-1]
        out.update(question=new_turns[0]["question"], answer=last["answer"], answer_value=last["answer_value"],
                   answer_text=last["answer_text"], program=last["program"])
        system, prefix = records.conversation_parts(table, evidence, (record.get("context") or {}).get("table_unit"))
        out["system"], out["first_user_prefix"] = system, prefix
        out["messages"] = prompts.conversation_messages(system, prefix, [new_turns[0]["question"]], [])
        out["twin_of"] = {"id": record["id"], "turn": None}
    else:
        gold = golds[0]
        en["question"] = _en_text(en.get("question") or "", unit)
        en.update(answer=gold.answer, answer_value=gold.value, answer_text=gold.text, program=gold.program)
        out.update(question=questions[0], answer=gold.answer, answer_value=gold.value, answer_text=gold.text,
                   program=gold.program,
                   messages=records.numeric_messages(questions[0], table, evidence, yes_no=gold.text is not None,
                                                     table_unit=(record.get("context") or {}).get("table_unit")))
        if record.get("gold_status") in GOLD_STATUSES:
            out["gold_status"], out["gold_reason"] = "verified", None
        out["twin_of"] = {"id": record["id"], "turn": None}
    out["original_en"] = en
    meta = dict(out.get("meta") or {})
    meta["translation"] = f"{meta.get('translation', '')}；twin (seed {seed}): numbers perturbed, gold recomputed"
    out["meta"] = meta
    return out
