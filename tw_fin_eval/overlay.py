"""zh-TW translation overlays: load and validate `translations/<subset>/*.jsonl`, pair every translated
string with its English source for the rule checker.

An overlay line holds only our zh-TW text, keyed by the source id (docs/FORMATS.md §2). Structural
problems (bad JSON, unknown or duplicate id, missing field, wrong table shape, evidence keys that do not
match) stop the build with file:line:id; rule findings (Simplified characters, lost numerals, …) keep the
item out of data/ and are reported."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tw_fin_eval.errors import InputError
from tw_fin_eval.evidence_zh import display_table
from tw_fin_eval.finding import Issue
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.zhcheck.rules import check_translation, item_scale_issues, table_issues, written_row_issues


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


@dataclass(frozen=True)
class OverlaySpec:
    """What a translation overlay line of the subset holds (docs/FORMATS.md §2) and how it pairs with the
    English item. The shared field kinds `table` (list of rows) and `evidence` (text evidence key →
    sentence) are validated generically by tw_fin_eval.overlay; `validate` adds the subset's own checks."""

    fields: dict[str, type]  # overlay field → JSON type (besides "id" and an optional "note")
    english: Callable[[SourceItem], dict[str, Any]]  # the English in the overlay's shape (translation-todo)
    pairs: Callable[[SourceItem, dict[str, Any]], list[Pair]]  # (English, zh-TW) strings for the checker
    validate: Callable[[SourceItem, Overlay], None] | None = None  # raise InputError on a bad structure


class OverlayOwner(Protocol):
    """What the overlay functions need of a subset: its name and its `OverlaySpec` (a `SubsetSpec` is one)."""

    name: str
    overlay: OverlaySpec | None


def _spec(spec: OverlayOwner) -> OverlayOwner:
    if spec.overlay is None:
        raise KeyError(f"subset {spec.name!r} has no translation overlays")
    return spec


def overlay_files(translations_dir: Path, subset: OverlayOwner) -> list[Path]:
    folder = translations_dir / _spec(subset).name
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def overlay_error(msg: str, ov: Overlay, field: str | None = None) -> InputError:
    """A structural problem of one overlay line, naming file, line, id and field."""
    return InputError(msg, path=ov.path, line=ov.line, item_id=str(ov.data.get("id")), field=field)


_JSON_TYPES = {str: "a string", list: "a list", dict: "an object"}


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages (a number is not "an empty translation")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return _JSON_TYPES.get(type(value), type(value).__name__).split()[-1]


def _text(ov: Overlay, value: Any, field: str) -> None:
    """One translated string: a string (else "expected a string, got …") that is not blank."""
    if not isinstance(value, str):
        raise overlay_error(f"expected a string, got {json_type(value)}", ov, field)
    if not value.strip():
        raise overlay_error("empty translation", ov, field)


def validate_structure(subset: OverlayOwner, item: SourceItem, ov: Overlay) -> None:
    """Raise InputError when the overlay line cannot be merged onto its English item."""
    spec = _spec(subset)
    fields = spec.overlay.fields
    extra = set(ov.data) - set(fields) - {"id", "note"}
    if extra:
        raise overlay_error(f"unexpected field(s): {', '.join(sorted(extra))}", ov)
    for name, typ in fields.items():
        if name not in ov.data:
            raise overlay_error("missing", ov, name)
        value = ov.data[name]
        if typ is str:
            _text(ov, value, name)
        elif not isinstance(value, typ):
            raise overlay_error(f"expected {_JSON_TYPES.get(typ, typ.__name__)}, got {json_type(value)}", ov, name)
    if "table" in fields:
        zh_table = ov.data["table"]
        for r, row in enumerate(zh_table):
            if not isinstance(row, list):
                raise overlay_error(f"a table row must be a list of strings, got {json_type(row)}", ov, f"table[{r}]")
            for c, cell in enumerate(row):
                if not isinstance(cell, str):
                    raise overlay_error(f"a table cell must be a string, got {json_type(cell)}", ov,
                                        f"table[{r}][{c}]")
        shape = [f for f in table_issues(item.table or [], zh_table) if f.rule == "table_shape"]
        if shape:
            raise overlay_error(shape[0].message, ov, "table")
    if "evidence" in fields:
        want = {e.key for e in item.text_evidence}
        rows = {e.key for e in item.evidence if e.is_table}  # a hand-written row sentence is optional
        got = set(ov.data["evidence"])
        if not want <= got <= want | rows:
            missing, unknown = sorted(want - got), sorted(got - want - rows)
            raise overlay_error(f"evidence keys must be the English text evidence keys plus, optionally, its table "
                                f"evidence keys (missing {missing}, unknown {unknown})", ov, "evidence")
        for k, v in ov.data["evidence"].items():
            _text(ov, v, f"evidence.{k}")
    if spec.overlay.validate is not None:
        spec.overlay.validate(item, ov)


def string_list(ov: Overlay, name: str, n: int, what: str) -> None:
    """A list field holding exactly `n` non-empty strings (ConvFinQA turns, FinanceAgent rubric)."""
    values = ov.data[name]
    if len(values) != n:
        raise overlay_error(f"needs {n} {what} (one per English one), got {len(values)}", ov, name)
    for k, value in enumerate(values):
        _text(ov, value, f"{name}[{k}]")


def load_overlays(subset: OverlayOwner, items: list[SourceItem], translations_dir: Path) -> dict[str, Overlay]:
    """All overlay lines of a subset, validated against the English items, keyed by source id."""
    spec = _spec(subset)
    by_id = {it.source_id: it for it in items}
    out: dict[str, Overlay] = {}
    for path in overlay_files(translations_dir, spec):
        for lineno, obj in iter_jsonl(path):
            ov = Overlay(obj, path, lineno)
            sid = obj.get("id")
            if not isinstance(sid, str):
                raise InputError("overlay line without a string 'id'", path=path, line=lineno)
            if sid not in by_id:
                raise overlay_error(f"unknown {spec.name} source id", ov)
            if sid in out:
                raise overlay_error(f"duplicate id (first at {out[sid].where})", ov)
            validate_structure(spec, by_id[sid], ov)
            out[sid] = ov
    return out


def pairs(subset: OverlayOwner, item: SourceItem, ov: Overlay) -> list[Pair]:
    """Every (English, zh-TW) string pair the rule checker must see for this overlay."""
    return _spec(subset).overlay.pairs(item, ov.data)


def evidence_pairs(item: SourceItem, data: dict[str, Any]) -> list[Pair]:
    """The text evidence sentences of an overlay with their English (tables are checked cell by cell, written
    table row sentences by `written_row_issues`: see `written_rows`)."""
    return [Pair(f"evidence.{e.key}", e.text, data["evidence"][e.key]) for e in item.text_evidence]


def written_rows(item: SourceItem, data: dict[str, Any]) -> list[tuple[str, str, list[str], list[str], list[str], str]]:
    """The hand-written table row sentences of an overlay: (field, English row sentence, translated row, its
    header row, the English row, sentence), for `written_row_issues`."""
    # the row as the record prints it: a dash code (「2014」 for —) the table reads as a dash is 「—」 there, so a
    # sentence may say 「無」 for it; a code the table reads as a number stays one (`dash_codes`)
    table = data.get("table") or []
    shown: list[list[str]] | None = None  # displayed once, and only for an overlay that writes a row
    out = []
    for e in item.evidence:
        if e.is_table and e.key in data["evidence"] and e.row < len(table):
            shown = shown if shown is not None else display_table(table)
            header = table[0] if e.row > 0 and table else []
            en_row = item.table[e.row] if item.table and e.row < len(item.table) else []
            out.append((f"evidence.{e.key}", e.text, shown[e.row], header, en_row, data["evidence"][e.key]))
    return out


def check_overlay(subset: OverlayOwner, item: SourceItem, ov: Overlay) -> list[Issue]:
    """Every rule finding for one overlay line (the table is checked cell by cell by the table rule)."""
    issues = []

    def add(field: str, findings) -> None:
        issues.extend(Issue.of(f, path=ov.path, line=ov.line, item_id=item.source_id, field=field) for f in findings)

    prose = []
    for p in pairs(subset, item, ov):
        add(p.field, check_translation(p.en, p.zh, in_table=p.in_table))
        if not p.in_table:
            prose.append((p.field, p.zh))
    for field, finding in item_scale_issues(prose):
        add(field, [finding])
    if "table" in ov.data and item.table is not None:
        add("table", table_issues(item.table, ov.data["table"]))
    if "evidence" in ov.data:
        for field, en, row, header, en_row, zh in written_rows(item, ov.data):
            add(field, written_row_issues(en, row, zh, header=header, en_row=en_row))
    return issues
