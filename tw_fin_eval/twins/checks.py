"""The checks every twin passes before it is written (independent of how it was made):

- its program(s) execute on its own table to its gold (`verification.program`);
- every new value of its perturbation is stated in its prompt, and no perturbed original value is left in
  the prompt's value cells, text evidence or questions;
- every numeric gold whose program changed moves by more than MIN_CHANGE (a recalled original answer is not
  accepted for it; a turn that looks up a year keeps its answer);
- every identity the original table showed (twins.identities) still holds in the twin's table;
- same table shape and evidence count as the original; the prompt (`messages`) is the one the record's
  fields build.
A failing check returns its message; the builder redraws, then skips the unit with the reason.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tw_fin_eval import records
from tw_fin_eval.answers.match import answer_matches
from tw_fin_eval.schema import display_number
from tw_fin_eval.twins import identities as ids
from tw_fin_eval.twins.numerals import dec, holds
from tw_fin_eval.verification.program import ProgramError, execute, same_value

COUNTED = ("verified", "fixed")
# a twin's numeric gold moves by more than twice the scorer's default relative tolerance (1%) and the scorer
# rejects the original's answer for it
MIN_CHANGE = 0.02


def _accepted(o: dict[str, Any], u: dict[str, Any]) -> bool:
    old, new = o["answer_value"], u["answer_value"]
    if abs(new - old) <= MIN_CHANGE * abs(old):
        return True
    q = [u.get("question")]
    return any(answer_matches(f"答案：{a}", new, questions=q) for a in {str(o.get("answer")), display_number(old)})


def _prompt_texts(record: dict[str, Any]) -> list[str]:
    """The value cells, the evidence and the questions (row labels and headers hold names and years)."""
    table = record["context"].get("table") or []
    cells = [cell for r, row in enumerate(table) if r for c, cell in enumerate(row) if c]
    questions = [t["question"] for t in record["turns"]] if record.get("turns") else [record["question"]]
    return cells + list(record["context"]["evidence"]) + questions


def _units(record: dict[str, Any]) -> list[dict[str, Any]]:
    return record["turns"] if record.get("turns") else [record]


def problems(original: dict[str, Any], twin: dict[str, Any]) -> list[str]:
    out: list[str] = []
    en_table = (twin.get("original_en") or {}).get("table") or []
    for k, u in enumerate(_units(twin)):
        where = f"turn {k}" if twin.get("turns") else "program"
        try:
            result = execute(u["program"], en_table)
        except ProgramError as exc:
            out.append(f"{where}: does not execute ({exc})")
            continue
        if isinstance(result, str):
            if result != u.get("answer_text"):
                out.append(f"{where}: executes to {result}, gold says {u.get('answer_text')}")
        elif u.get("answer_value") is None or not same_value(round(result, 5), u["answer_value"]):
            out.append(f"{where}: executes to {result}, gold says {u.get('answer_value')}")
    for k, (o, u) in enumerate(zip(_units(original), _units(twin))):
        old, new = o.get("answer_value"), u.get("answer_value")
        same_program = o.get("program") == u.get("program") and "table_" not in (o.get("program") or "")
        if o.get("gold_status") in COUNTED and old is not None and new is not None and not same_program and \
                _accepted(o, u):
            out.append(f"{f'turn {k}' if twin.get('turns') else 'gold'}: the original answer {o.get('answer')} "
                       f"would be accepted for the twin's {new} (a memorised answer would score)")
    texts = _prompt_texts(twin)
    joined_by_piece = texts
    for p in twin.get("perturbation") or []:
        old, new = dec(p["original"]), dec(p["new"])
        if not any(holds(t, new) for t in joined_by_piece):
            out.append(f"new value {p['new']} (for {p['original']}) is not in the prompt")
        if any(holds(t, old) for t in joined_by_piece):
            out.append(f"original value {p['original']} is still in the prompt")
    g_old, g_new = ids.grid(original["context"].get("table")), ids.grid(twin["context"].get("table"))
    for ident in ids.detect(g_old):
        cells = (ident.result, *ident.parts)
        if not all(c in g_new for c in cells):
            out.append(f"identity at {ident.result}: a cell is no longer an amount")
            continue
        v = ident.compute({c: g_new[c].value for c in ident.parts})
        tol = Decimal(1).scaleb(-g_new[ident.result].places) * Decimal("0.5") * max(1, len(ident.parts))
        if v is None or abs(abs(v) - abs(g_new[ident.result].value)) > tol:
            out.append(f"{ident.kind} identity at {ident.result} broken: {v} vs {g_new[ident.result].value}")
    t_old, t_new = original["context"].get("table") or [], twin["context"].get("table") or []
    if [len(r) for r in t_old] != [len(r) for r in t_new]:
        out.append("table shape changed")
    if len(original["context"]["evidence"]) != len(twin["context"]["evidence"]):
        out.append("evidence count changed")
    if twin.get("turns"):
        system, prefix = records.conversation_parts(t_new, twin["context"]["evidence"],
                                                    twin["context"].get("table_unit"))
        if (system, prefix) != (twin.get("system"), twin.get("first_user_prefix")):
            out.append("system/first_user_prefix do not match the table and evidence")
    else:
        want = records.numeric_messages(twin["question"], t_new, twin["context"]["evidence"],
                                        yes_no=twin.get("answer_text") is not None,
                                        table_unit=twin["context"].get("table_unit"))
        if want != twin.get("messages"):
            out.append("messages do not match the record's fields")
    return out


def zh_findings(twin: dict[str, Any]) -> list[str]:
    """check-zh's rules over the twin record (numerals kept between its zh-TW and its English, …)."""
    from tw_fin_eval.zhcheck.records import record_issues

    return [f"check-zh {i.field} [{i.code or i.rule}]: {i.message}" for i in record_issues(twin)]
