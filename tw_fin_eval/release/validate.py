"""Schema validation of unified records against the declared features, with messages that name the
file, line, id and field. `project()` would silently turn a wrong-typed or missing value into a null
(or let Arrow fail with a message naming no record), so the release, the builder and the push check
every record here first."""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import datasets
from datasets import List, Value

from tw_fin_eval.errors import InputError, not_a_file
from tw_fin_eval.jsonl import iter_jsonl
from tw_fin_eval.subsets import features_for
from tw_fin_eval.subsets.spec import SubsetSpec

# Fields that must hold a value in every record (the rest may be null). Prompts and ids are what the
# runner and scorer key on: a null here would only fail much later.
REQUIRED = ("id", "dataset", "task_type", "lang", "question", "messages")
EXPECTED_LANG = "zh-TW"


def value_errors(value: Any, feature: Any, where: str) -> list[str]:
    """Type problems of `value` against `feature` (nulls are allowed anywhere; missing keys are not)."""
    if value is None:
        return []
    if isinstance(feature, dict | datasets.Features):
        if not isinstance(value, dict):
            return [f"{where}: expected an object, got {type(value).__name__}"]
        out: list[str] = []
        for key, sub in feature.items():
            path = f"{where}.{key}" if where else key
            if key not in value:
                out.append(f"{path}: missing")
            else:
                out.extend(value_errors(value[key], sub, path))
        return out
    if isinstance(feature, List):
        if not isinstance(value, list):
            return [f"{where}: expected a list, got {type(value).__name__}"]
        out = []
        for i, v in enumerate(value):
            out.extend(value_errors(v, feature.feature, f"{where}[{i}]"))
        return out
    if isinstance(feature, Value):
        dtype = feature.dtype
        if dtype == "string":
            ok = isinstance(value, str)
        elif dtype == "bool":
            ok = isinstance(value, bool)
        elif dtype.startswith("int"):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif dtype.startswith("float"):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            if ok and not math.isfinite(value):
                return [f"{where}: not a finite number ({value!r})"]
        else:  # a dtype we do not declare today: let Arrow judge it
            ok = True
        return [] if ok else [f"{where}: expected {dtype}, got {type(value).__name__} {value!r:.40}"]
    return []


def record_errors(record: dict[str, Any], config: SubsetSpec, features: datasets.Features) -> list[str]:
    errors = value_errors(record, features, "")
    for key in REQUIRED:
        if key in record and record[key] in (None, "", []):
            errors.append(f"{key}: empty")
    if record.get("dataset") not in (None, config.dataset):
        errors.append(f"dataset: {record['dataset']!r} in the {config.name} file (expected {config.dataset!r})")
    if record.get("lang") not in (None, EXPECTED_LANG) and config.in_release:
        errors.append(f"lang: {record['lang']!r} (expected {EXPECTED_LANG!r})")
    return errors


def undeclared_fields(records: Iterable[dict[str, Any]], features: datasets.Features) -> list[str]:
    """Top-level keys holding a value in the records but not in the features (the release drops them;
    a key that is null everywhere, like FinChain's original_en, loses nothing)."""
    seen: set[str] = set()
    for r in records:
        seen.update(k for k, v in r.items() if v is not None)
    return sorted(seen - set(features))


def load_records(data_dir: Path, config: SubsetSpec) -> list[dict[str, Any]]:
    """Read and validate one config's data file. Missing or empty file, bad JSON, a wrong type, a
    duplicate id: InputError naming the file and line (the CLI exits 2, nothing is written)."""
    path = Path(data_dir) / config.data_file
    if not path.is_file():
        raise not_a_file(path, f"data file of config {config.name!r} is missing (run `tw-fin-eval build` first)",
                         "data file")
    features = features_for(config.name)
    records: list[dict[str, Any]] = []
    first_line: dict[str, int] = {}
    for lineno, rec in iter_jsonl(path):
        rid = rec.get("id") if isinstance(rec.get("id"), str) else None
        errors = record_errors(rec, config, features)
        if errors:
            more = f" (+{len(errors) - 3} more)" if len(errors) > 3 else ""
            raise InputError("; ".join(errors[:3]) + more, path=path, line=lineno, item_id=rid)
        if rid in first_line:
            raise InputError(f"duplicate id (first at line {first_line[rid]})", path=path, line=lineno, item_id=rid)
        first_line[rid] = lineno
        records.append(rec)
    if not records:
        raise InputError(f"data file of config {config.name!r} is empty (nothing translated or built yet?)", path=path)
    return records

