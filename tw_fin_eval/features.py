"""Typed `datasets.Features`: the shared building blocks (the common fields of tw_fin_eval.schema) and
`features_for(config)`, which each subset's spec completes with its own fields. The builder script, the
hf_release writer and the tests all use these. Without declared features Arrow infers types and drifts silently
(all-null columns lose their type, float columns become int64)."""

from __future__ import annotations

from typing import Any

import datasets
from datasets import List, Value

STR = Value("string")
F64 = Value("float64")

SOURCE = {"name": STR, "paper": STR, "orig_id": STR, "url": STR, "license": STR}
TABLE = List(List(STR))
CONTEXT = {"table": TABLE, "evidence": List(STR), "setting": STR}
MESSAGES = List({"role": STR, "content": STR})
META = {"translation": STR, "review_status": STR, "version": STR}
EN_EVIDENCE = List({"key": STR, "text": STR})
RUBRIC = List({"operator": STR, "criteria": STR})

COMMON: dict[str, Any] = {
    "id": STR,
    "dataset": STR,
    "source": SOURCE,
    "category": STR,
    "subcategory": STR,
    "task_type": STR,
    "difficulty": STR,
    "lang": STR,
    "question": STR,
    "context": CONTEXT,
    "answer": STR,
    "answer_value": F64,
    "answer_text": STR,
    "program": STR,
    "messages": MESSAGES,
    "meta": META,
}

def project(value: Any, feature: Any) -> Any:
    """Shape one record to its declared features: keep declared keys (missing → None), drop the rest."""
    if value is None:
        return None
    if isinstance(feature, dict):
        return {k: project(value.get(k) if isinstance(value, dict) else None, f) for k, f in feature.items()}
    if isinstance(feature, datasets.Features):
        return {k: project(value.get(k), f) for k, f in feature.items()}
    if isinstance(feature, List):
        return [project(v, feature.feature) for v in value]
    if isinstance(feature, Value) and feature.dtype == "float64" and isinstance(value, int | float):
        return float(value)
    return value
