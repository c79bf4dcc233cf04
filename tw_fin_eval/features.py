"""Typed `datasets.Features` for every config, declared once: the builder script, the hf_release writer
and the tests all use these. Without declared features Arrow infers types and drifts silently
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

CONFIG_FEATURES: dict[str, dict[str, Any]] = {
    "finqa": {
        **COMMON,
        # gold verification (docs/VERIFICATION.md): status/reason null until read; original_en keeps the
        # upstream answer_value/program (equal to the top-level ones unless the unit is `fixed`)
        "gold_status": STR,
        "gold_reason": STR,
        "original_en": {"question": STR, "table": TABLE, "evidence": EN_EVIDENCE, "answer": STR,
                        "answer_value": F64, "program": STR},
    },
    "convfinqa": {
        **COMMON,
        "turns": List({"question": STR, "answer": STR, "answer_value": F64, "answer_text": STR,
                       "program": STR, "question_en": STR,
                       # gold verification per turn (docs/VERIFICATION.md); original_* = upstream gold
                       "gold_status": STR, "gold_reason": STR, "original_answer_value": F64,
                       "original_program": STR, "original_answer": STR}),
        "system": STR,
        "first_user_prefix": STR,
        "original_en": {"questions": List(STR), "table": TABLE, "evidence": EN_EVIDENCE},
    },
    "finchain": {
        **COMMON,
        "solution": STR,
        "answer_decimals": Value("int64"),  # the rounding the question asks for (h-finchain, issue 15 point 10)
        "steps": List({"label": STR, "value": F64}),
        "answer_type": STR,
        "template_id": STR,
        "seed": Value("int64"),
    },
    "financeagent": {
        **COMMON,
        "rubric": RUBRIC,
        "requires_tools": Value("bool"),
        "original_en": {"question": STR, "answer": STR, "rubric": RUBRIC, "question_type": STR},
    },
    # FinLLM450 (tw_fin_eval/finllm450.py): `answer` is the list of option codes (null for short/case);
    # `source.orig_qid` is the workbook's 題號 (not unique), `source.orig_id` its 序號.
    "finllm450": {
        **COMMON,
        "source": {**SOURCE, "orig_qid": STR},
        "answer": List(STR),
        "options": List(STR),
        "option_format": STR,
        "reference_answer": STR,
        "reference": {"apmic_reply": STR, "training_cot": STR},
        "scoring_points": STR,
        "ability_original": STR,
        "meta": {**META, "review_comment": STR},
    },
    # FinSearchComp (not zh-TW, not released): the common fields (`answer` = the reference the judge sees)
    # plus every upstream field under its upstream name; see tw_fin_eval/sources/finsearchcomp.py.
    "finsearchcomp": {
        **COMMON,
        "task": STR,
        "region": STR,
        "requires_tools": Value("bool"),
        **{name: STR for name in (
            "prompt_id", "prompt", "label", "response_reference", "response_reference_translate",
            "judge_prompt_template", "judge_system_prompt", "ground_truth", "time",
            "wind_ticker", "akshare_ticker", "yfinance_ticker")},
    },
}


def features_for(config: str) -> datasets.Features:
    try:
        return datasets.Features(CONFIG_FEATURES[config])
    except KeyError:
        raise KeyError(f"unknown config {config!r}; known: {', '.join(CONFIG_FEATURES)}") from None


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
