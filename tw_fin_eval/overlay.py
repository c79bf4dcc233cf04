"""zh-TW translation overlays: load and validate `translations/<subset>/*.jsonl`, pair every translated
string with its English source for the rule checker.

An overlay line holds only our zh-TW text, keyed by the source id (docs/FORMATS.md §2). Structural
problems (bad JSON, unknown or duplicate id, missing field, wrong table shape, evidence keys that do not
match) stop the build with file:line:id; rule findings (Simplified characters, lost numerals, …) keep the
item out of data/ and are reported."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tw_fin_eval.errors import InputError
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.sources.base import SourceItem


@dataclass(frozen=True)
class Overlay:
    data: dict[str, Any]
    path: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Pair:
    """One translated string with its English source."""

    field: str  # e.g. "question", "table[3][0]", "evidence.text_4", "turns[2]", "rubric[1]"
    en: str
    zh: str
    in_table: bool = False


# fields each subset's overlay must have (besides "id") and their JSON types
OVERLAY_FIELDS: dict[str, dict[str, type]] = {
    "finqa": {"question": str, "table": list, "evidence": dict},
    "convfinqa": {"turns": list, "table": list, "evidence": dict},
    "financeagent": {"question": str, "answer": str, "rubric": list},
}


def overlay_files(translations_dir: Path, subset: str) -> list[Path]:
    folder = translations_dir / subset
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def _fail(msg: str, ov: Overlay, field: str | None = None) -> InputError:
    return InputError(msg, path=ov.path, line=ov.line, item_id=str(ov.data.get("id")), field=field)


def validate_structure(subset: str, item: SourceItem, ov: Overlay) -> None:
    """Raise InputError when the overlay line cannot be merged onto its English item."""
    from tw_fin_eval.zhcheck.rules import table_issues  # one place for the table-shape rule

    spec = OVERLAY_FIELDS[subset]
    extra = set(ov.data) - set(spec) - {"id", "note"}
    if extra:
        raise _fail(f"unexpected field(s): {', '.join(sorted(extra))}", ov)
    for name, typ in spec.items():
        value = ov.data.get(name)
        if not isinstance(value, typ):
            raise _fail(f"missing or not a {typ.__name__}", ov, name)
        if typ is str and not value.strip():
            raise _fail("empty translation", ov, name)
    if "table" in spec:
        zh_table = ov.data["table"]
        if not all(isinstance(r, list) and all(isinstance(c, str) for c in r) for r in zh_table):
            raise _fail("table must be a list of rows of strings", ov, "table")
        shape = [f for f in table_issues(item.table or [], zh_table) if f.rule == "table_shape"]
        if shape:
            raise _fail(shape[0].message, ov, "table")
    if "evidence" in spec:
        want = {e.key for e in item.text_evidence}
        got = set(ov.data["evidence"])
        if want != got:
            missing, unknown = sorted(want - got), sorted(got - want)
            raise _fail(f"evidence keys differ from the English text evidence (missing {missing}, unknown {unknown})",
                        ov, "evidence")
        for k, v in ov.data["evidence"].items():
            if not isinstance(v, str) or not v.strip():
                raise _fail("empty translation", ov, f"evidence.{k}")
    if subset == "convfinqa":
        n = len(item.fields["turns"])
        turns = ov.data["turns"]
        if len(turns) != n or not all(isinstance(t, str) and t.strip() for t in turns):
            raise _fail(f"needs {n} non-empty turn questions, got {len(turns)}", ov, "turns")
    if subset == "financeagent":
        n = len(item.fields["rubric"])
        rubric = ov.data["rubric"]
        if len(rubric) != n or not all(isinstance(t, str) and t.strip() for t in rubric):
            raise _fail(f"needs {n} non-empty rubric criteria, got {len(rubric)}", ov, "rubric")


def load_overlays(subset: str, items: list[SourceItem], translations_dir: Path) -> dict[str, Overlay]:
    """All overlay lines of a subset, validated against the English items, keyed by source id."""
    by_id = {it.source_id: it for it in items}
    out: dict[str, Overlay] = {}
    for path in overlay_files(translations_dir, subset):
        for lineno, obj in iter_jsonl(path):
            ov = Overlay(obj, path, lineno)
            sid = obj.get("id")
            if not isinstance(sid, str):
                raise InputError("overlay line without a string 'id'", path=path, line=lineno)
            if sid not in by_id:
                raise _fail(f"unknown {subset} source id", ov)
            if sid in out:
                raise _fail(f"duplicate id (first at {out[sid].where})", ov)
            validate_structure(subset, by_id[sid], ov)
            out[sid] = ov
    return out


def pairs(subset: str, item: SourceItem, ov: Overlay) -> list[Pair]:
    """Every (English, zh-TW) string pair the rule checker must see for this overlay."""
    data = ov.data
    out: list[Pair] = []
    if subset in ("finqa", "financeagent"):
        out.append(Pair("question", item.question, data["question"]))
    if subset == "convfinqa":
        for k, (t, zh) in enumerate(zip(item.fields["turns"], data["turns"])):
            out.append(Pair(f"turns[{k}]", t["question_en"], zh))
    if "evidence" in data:
        for e in item.text_evidence:
            out.append(Pair(f"evidence.{e.key}", e.text, data["evidence"][e.key]))
    if subset == "financeagent":
        out.append(Pair("answer", item.fields["answer"], data["answer"]))
        for k, (r, zh) in enumerate(zip(item.fields["rubric"], data["rubric"])):
            out.append(Pair(f"rubric[{k}]", r["criteria"], zh))
    return out


@dataclass(frozen=True)
class Issue:
    """A rule finding located in a file: what every checker message prints."""

    path: str
    line: int | None
    item_id: str | None
    field: str
    rule: str
    message: str
    text: str

    def format(self) -> str:
        where = self.path + (f":{self.line}" if self.line is not None else "")
        who = f" id={self.item_id}" if self.item_id else ""
        return f"{where}{who} field={self.field} [{self.rule}] {self.message}: {self.text!r}"


def check_overlay(subset: str, item: SourceItem, ov: Overlay) -> list[Issue]:
    """Every rule finding for one overlay line (the table is checked cell by cell by the table rule)."""
    from tw_fin_eval.zhcheck.rules import check_translation, table_issues

    issues = []

    def add(field: str, findings) -> None:
        for f in findings:
            issues.append(Issue(str(ov.path), ov.line, item.source_id, field, f.rule, f.message, f.text))

    for p in pairs(subset, item, ov):
        add(p.field, check_translation(p.en, p.zh, in_table=p.in_table))
    if "table" in ov.data and item.table is not None:
        add("table", table_issues(item.table, ov.data["table"]))
    return issues
