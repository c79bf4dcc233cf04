"""The operand locator: for each program, where every literal operand sits in the table (row label ×
column header) or the page text, with `#k` references resolved, printed next to the English and zh-TW
question and the gold, so a reader sees at once whether the cells match what is asked."""

from __future__ import annotations

from collections.abc import Iterator

from tw_fin_eval.schema import display_number
from tw_fin_eval.sources.base import SourceItem, numbers_in
from tw_fin_eval.verification.program import (
    TABLE_OPS,
    ProgramError,
    constant,
    execute_steps,
    literal,
    parse,
    table_row,
)

MAX_PLACES = 2  # locations shown per operand (then "+N more")
SNIPPET = 90  # characters of a text sentence shown around an operand


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _holds(text: str, value: float) -> bool:
    return any(_close(abs(v), abs(value)) for v in numbers_in(text))


def _cell(text: str, width: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _snippet(sentence: str, value: float) -> str:
    """The part of a sentence around the first occurrence of the number."""
    text = " ".join(sentence.split())
    for token in (display_number(value), display_number(abs(value)), f"{abs(value):,.0f}", f"{abs(value):,.2f}"):
        pos = text.find(token)
        if pos >= 0:
            start = max(0, pos - SNIPPET // 2)
            end = min(len(text), pos + len(token) + SNIPPET // 2)
            return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return _cell(text, SNIPPET)


def _direct(value: float, table: list[list[str]], sentences: list[str], question: str) -> list[str]:
    out: list[str] = []
    header = table[0] if table else []
    for row in table[1:]:
        for c, cell in enumerate(row[1:], 1):
            if _holds(cell, value):
                col = header[c] if c < len(header) else f"col {c}"
                out.append(f"[{_cell(row[0], 50)} × {_cell(col, 30)}] = {_cell(cell, 24)}")
    if not out:  # upstream tables sometimes hold a data row in the header or the row-label column
        out += [f"(column header {_cell(h, 30)!r})" for h in header if _holds(h, value)]
        out += [f"(row label {_cell(row[0], 50)!r})" for row in table[1:] if row and _holds(row[0], value)]
    if not out:
        out += [f"text: {_snippet(s, value)}" for s in sentences if _holds(s, value)]
    if not out and _holds(question, value):
        out.append("(stated in the question)")
    return out


def places(value: float, table: list[list[str]], sentences: list[str], question: str) -> list[str]:
    """Where a literal operand occurs: table cells first (row × column), then text, then the question;
    failing those, the same number scaled by 100 or 1000 (a percent or unit conversion in the program)."""
    out = _direct(value, table, sentences, question)
    if not out:
        for scale, name in ((100, "×100"), (0.01, "÷100"), (1000, "×1000"), (0.001, "÷1000")):
            scaled = _direct(value * scale, table, sentences, question)
            if scaled:
                out = [f"{name} of {p}" for p in scaled]
                break
    return out or ["NOT FOUND in table, text or question"]


def operand_lines(program: str, table: list[list[str]], sentences: list[str], question: str) -> list[str]:
    """One line per step (`#k op(args) = value`), then one line per literal operand with its places."""
    try:
        steps = parse(program)
        values = execute_steps(program, table)
    except ProgramError as exc:
        return [f"   program error: {exc}"]
    lines = []
    seen: set[float] = set()
    for k, (step, value) in enumerate(zip(steps, values)):
        shown = value if isinstance(value, str) else display_number(value)
        if step.op == "value":
            lines.append(f"   #{k} {step.args[0]} = {shown}")
        else:
            refs = [f"{a}={display_number(v)}" for a in step.args if a.startswith("#")
                    for v in [values[int(a[1:])]] if not isinstance(v, str)]
            lines.append(f"   #{k} {step.text()} = {shown}" + (f"   ({', '.join(refs)})" if refs else ""))
        if step.op in TABLE_OPS:
            row = table_row(table, step.args[0]) or []
            lines.append(f"       row [{_cell(step.args[0])}] = {' | '.join(_cell(c, 16) for c in row[1:])}")
            continue
        for arg in step.args:
            if arg.startswith("#") or constant(arg) is not None:
                continue
            v = literal(arg)
            if v is None:
                continue
            lookup = float(arg.rstrip("%").replace(",", "")) if arg.endswith("%") else v
            if lookup in seen:
                continue
            seen.add(lookup)
            found = places(lookup, table, sentences, question)
            more = f"  (+{len(found) - MAX_PLACES} more)" if len(found) > MAX_PLACES else ""
            lines.append(f"       {arg} ← {found[0]}{more}")
            lines += [f"       {' ' * len(arg)}   {p}" for p in found[1:MAX_PLACES]]
    return lines


def _gold(value: float | None, text: str | None, shown: str, human: str | None = None) -> str:
    gold = text if text is not None else display_number(value or 0.0)
    out = f"gold {gold}"
    if shown != gold:
        out += f" (answer {shown!r})"
    if human is not None and human != shown:
        out += f"   (FinQA's human answer {human!r} differs)" if human else ""
    return out


def _columns(table: list[list[str]]) -> str:
    if not table:
        return "   (no table)"
    header = " | ".join(_cell(h, 28) for h in table[0][1:]) or "—"
    return f"   cols: {header}   ({len(table) - 1} rows)"


def full_context(table: list[list[str]], sentences: list[str]) -> list[str]:
    out = ["   table:"]
    out += ["     " + " | ".join(" ".join(c.split()) for c in row) for row in table]
    out.append("   text:")
    out += [f"     [{i}] {' '.join(s.split())}" for i, s in enumerate(sentences)]
    return out


def finqa_view(item: SourceItem, rid: str, zh_question: str | None, verdict: str | None,
               full: bool = False) -> list[str]:
    f = item.fields
    sentences = f.get("page_text") or [e.text for e in item.text_evidence]
    ev = "gold ev" if item.setting == "gold_evidence" else "silver ev"
    lines = [f"── {rid} · {item.source_id} · {ev}" + (f" · verdict: {verdict}" if verdict else ""),
             f"   Q  {item.question}", f"   中 {zh_question or '(no zh-TW overlay)'}", _columns(item.table or [])]
    lines += operand_lines(f["program"], item.table or [], sentences, item.question)
    lines.append(f"   ⇒ {_gold(f['answer_value'], f['answer_text'], f['answer'], f.get('answer_original'))}")
    if full:
        lines += full_context(item.table or [], sentences)
    return lines


def convfinqa_view(item: SourceItem, rid: str, zh_turns: list[str] | None,
                   verdicts: dict[int, str], full: bool = False) -> list[str]:
    sentences = item.fields.get("page_text") or [e.text for e in item.text_evidence]
    lines = [f"── {rid} · {item.source_id} · {len(item.fields['turns'])} turns", _columns(item.table or [])]
    for k, t in enumerate(item.fields["turns"]):
        zh = zh_turns[k] if zh_turns and k < len(zh_turns) else "(no zh-TW overlay)"
        mark = f" · verdict: {verdicts[k]}" if k in verdicts else ""
        lines += [f"  t{k} Q  {t['question_en']}{mark}", f"     中 {zh}"]
        lines += operand_lines(t["program"], item.table or [], sentences, t["question_en"])
        lines.append(f"   ⇒ {_gold(t['answer_value'], t['answer_text'], t['answer'])}")
    if full:
        lines += full_context(item.table or [], sentences)
    return lines


def parse_range(text: str, total: int) -> range:
    """"1-25" / "7" → the 1-based positions; ValueError with a clear message otherwise."""
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-", 1))
        else:
            a = b = int(text)
    except ValueError:
        raise ValueError(f"range must look like 1-25 or 7, got {text!r}") from None
    if not 1 <= a <= b <= total:
        raise ValueError(f"range {text} outside 1–{total}")
    return range(a, b + 1)


def iter_selected(items: list[SourceItem], positions: range) -> Iterator[SourceItem]:
    by_index = {it.index: it for it in items}
    for i in positions:
        yield by_index[i]
