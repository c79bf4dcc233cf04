"""The zh-TW rules over built records (data/*.jsonl, released parquet rows): every translated field
against its English in `original_en`, generated text on its own. Used by `check-zh` on record files and
by the release checks (rows are checked in memory, no file needed)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tw_fin_eval.finding import Finding, Issue
from tw_fin_eval.zhcheck.rules import check_translation, check_zh, table_issues


def _answer_is_translation(rec: dict[str, Any]) -> bool:
    """Whether `answer` is translated text (an overlay field of its subset, as FinanceAgent's reference
    answer) rather than a gold value (FinQA keeps its human answer string in original_en.answer for
    reference, not as the English of `answer`)."""
    from tw_fin_eval.subsets import by_dataset

    spec = by_dataset(rec.get("dataset"))
    return spec is not None and spec.overlay is not None and "answer" in spec.overlay.fields


def record_issues(rec: dict[str, Any], *, path: object = "", line: int | None = None) -> list[Issue]:
    """Every rule finding in one record (none for records not in zh-TW)."""
    out: list[Issue] = []
    rid = rec.get("id")
    if rec.get("lang", "zh-TW") != "zh-TW":
        return out  # FinSearchComp keeps its original zh-CN/en text: the zh-TW rules do not apply

    def add(field: str, findings: Iterable[Finding]) -> None:
        out.extend(Issue.of(f, path=path, line=line, item_id=rid, field=field) for f in findings)

    en = rec.get("original_en") or {}
    ctx = rec.get("context") or {}
    if isinstance(en.get("question"), str):
        add("question", check_translation(en["question"], rec.get("question", "")))
    elif rec.get("question"):
        add("question", check_zh(rec["question"]))
    if en.get("table") and ctx.get("table"):
        add("context.table", table_issues(en["table"], ctx["table"], displayed=True))
    for k, (e, z) in enumerate(zip(en.get("evidence") or [], ctx.get("evidence") or [])):
        if isinstance(e, dict) and not str(e.get("key", "")).startswith("table_"):
            add(f"context.evidence[{k}]", check_translation(e.get("text", ""), z))
    for k, (q_en, t) in enumerate(zip(en.get("questions") or [], rec.get("turns") or [])):
        add(f"turns[{k}].question", check_translation(q_en, t.get("question", "")))
    if _answer_is_translation(rec) and isinstance(en.get("answer"), str) and isinstance(rec.get("answer"), str):
        add("answer", check_translation(en["answer"], rec["answer"]))
    for k, (r_en, r) in enumerate(zip(en.get("rubric") or [], rec.get("rubric") or [])):
        add(f"rubric[{k}]", check_translation(r_en.get("criteria", ""), r.get("criteria", "")))
    for field in ("solution",):
        if isinstance(rec.get(field), str):
            add(field, check_zh(rec[field]))
    return out


def is_record(obj: dict[str, Any]) -> bool:
    """A built record (rather than a runs line or another JSON object)."""
    return "dataset" in obj and ("original_en" in obj or "messages" in obj)


def check_records(rows: Iterable[dict[str, Any]], *, path: object = "") -> list[Issue]:
    """Rule findings over records in memory; `line` is the 1-based position of the row."""
    return [issue for i, rec in enumerate(rows, 1) for issue in record_issues(rec, path=path, line=i)]
