"""English item + zh-TW overlay → unified zh-TW record (docs/FORMATS.md §1). One builder per subset,
registered in RECORD_BUILDERS; the rendering of table evidence in zh-TW lives here once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tw_fin_eval import DATA_VERSION, evidence_zh, prompts
from tw_fin_eval.overlay import Overlay
from tw_fin_eval.schema import gold_display
from tw_fin_eval.sources import convfinqa, financeagent, finqa
from tw_fin_eval.sources.base import SourceItem

TRANSLATION_NOTE = "機器翻譯（Claude，依術語表），已通過規則檢查；尚未人工全面審閱"

# FinQA: the last operation of the gold program names the kind of calculation
PROGRAM_KINDS = {
    "subtract": "增減計算",
    "divide": "比率計算",
    "add": "加總計算",
    "multiply": "乘積計算",
    "greater": "比較判斷",
    "exp": "指數計算",
    "table_sum": "表格彙總",
    "table_average": "表格彙總",
    "table_max": "表格彙總",
    "table_min": "表格彙總",
}


# record ids from the 1-based official position (verification verdicts are keyed by these ids too)
RECORD_IDS = {"finqa": "finqa_tw-test-{:04d}", "convfinqa": "convfinqa_tw-dev-{:04d}",
              "financeagent": "financeagent_tw-{:04d}"}


def record_id(subset: str, index: int) -> str:
    return RECORD_IDS[subset].format(index)


def program_kind(program: str) -> str:
    ops = re.findall(r"(\w+)\(", program or "")
    return PROGRAM_KINDS.get(ops[-1], "其他") if ops else "其他"


def render_table_evidence(table: list[list[str]], row: int) -> str:
    """zh-TW sentence for table row evidence, rendered from the *translated* table so it always agrees
    with it: 「2015 年淨營收為 $ 5829（單位：百萬美元）。」 (the wording lives in evidence_zh.render_row)."""
    return evidence_zh.render_row(table, row)


def _evidence_zh(item: SourceItem, ov: Overlay) -> list[str]:
    zh_table = ov.data.get("table") or []
    out = []
    for e in item.evidence:
        out.append(render_table_evidence(zh_table, e.row) if e.is_table else ov.data["evidence"][e.key])
    return out


def _meta(ov: Overlay) -> dict[str, str]:
    return {"translation": f"{TRANSLATION_NOTE}；{ov.path.parent.name}/{ov.path.name}",
            "review_status": "unreviewed", "version": DATA_VERSION}


def _source(name: str, module: Any, orig_id: str) -> dict[str, str]:
    return {"name": name, "paper": module.PAPER, "orig_id": orig_id, "url": module.URL, "license": module.LICENSE}


def _en_evidence(item: SourceItem) -> list[dict[str, str]]:
    return [{"key": e.key, "text": e.text} for e in item.evidence]


def finqa_record(item: SourceItem, ov: Overlay) -> dict[str, Any]:
    f = item.fields
    table, evidence, question = ov.data["table"], _evidence_zh(item, ov), ov.data["question"]
    return {
        "id": record_id("finqa", item.index),
        "dataset": "FinQA-TW",
        "source": _source("FinQA", finqa, item.source_id),
        "category": "C_財報數值推理",
        "subcategory": program_kind(f["program"]),
        "task_type": "numeric",
        "difficulty": None,
        "lang": "zh-TW",
        "question": question,
        "context": {"table": table, "evidence": evidence, "setting": item.setting},
        "answer": f["answer"] if f["answer_value"] is None else gold_display(
            f["answer"], f["answer_value"], questions=[question, item.question]),
        "answer_value": f["answer_value"],
        "answer_text": f["answer_text"],
        "program": f["program"],
        "messages": prompts.numeric_messages(question, table, evidence, yes_no=f["answer_text"] is not None),
        "original_en": {"question": item.question, "table": item.table, "evidence": _en_evidence(item),
                        "answer": f["answer_original"]},
        "meta": _meta(ov),
    }


def convfinqa_record(item: SourceItem, ov: Overlay) -> dict[str, Any]:
    table, evidence = ov.data["table"], _evidence_zh(item, ov)
    system, prefix = prompts.conversation_parts(table, evidence)
    turns = [
        {"question": zh, "answer": t["answer"] if t["answer_value"] is None else gold_display(
            t["answer"], t["answer_value"], questions=[zh, t["question_en"]]), "answer_value": t["answer_value"], "answer_text": t["answer_text"],
         "program": t["program"], "question_en": t["question_en"]}
        for zh, t in zip(ov.data["turns"], item.fields["turns"])
    ]
    last = turns[-1]
    return {
        "id": record_id("convfinqa", item.index),
        "dataset": "ConvFinQA-TW",
        "source": _source("ConvFinQA", convfinqa, item.source_id),
        "category": "C_財報數值推理",
        "subcategory": "雙題組合" if item.fields["conv_type"] == "double" else "單題拆解",
        "task_type": "conversation_numeric",
        "difficulty": None,
        "lang": "zh-TW",
        "question": turns[0]["question"],
        "context": {"table": table, "evidence": evidence, "setting": item.setting},
        "answer": last["answer"],
        "answer_value": last["answer_value"],
        "answer_text": last["answer_text"],
        "program": last["program"],
        "turns": turns,
        "system": system,
        "first_user_prefix": prefix,
        "messages": prompts.conversation_messages(system, prefix, [turns[0]["question"]], []),
        "original_en": {"questions": [t["question_en"] for t in turns], "table": item.table,
                        "evidence": _en_evidence(item)},
        "meta": _meta(ov),
    }


def financeagent_record(item: SourceItem, ov: Overlay) -> dict[str, Any]:
    f = item.fields
    question = ov.data["question"]
    return {
        "id": record_id("financeagent", item.index),
        "dataset": "FinanceAgent-TW",
        "source": _source("Finance Agent Benchmark", financeagent, item.source_id),
        "category": "G_工具與Agent",
        "subcategory": financeagent.QUESTION_TYPES[f["question_type"]],
        "task_type": "open_rubric_agent",
        "difficulty": None,
        "lang": "zh-TW",
        "question": question,
        "context": {"table": None, "evidence": [], "setting": None},
        "answer": ov.data["answer"],
        "answer_value": None,
        "answer_text": None,
        "program": None,
        "rubric": [{"operator": r["operator"], "criteria": zh} for r, zh in zip(f["rubric"], ov.data["rubric"])],
        "requires_tools": True,
        "messages": prompts.open_messages(question),
        "original_en": {"question": item.question, "answer": f["answer"], "rubric": f["rubric"],
                        "question_type": f["question_type"]},
        "meta": _meta(ov),
    }


RECORD_BUILDERS: dict[str, Callable[[SourceItem, Overlay], dict[str, Any]]] = {
    "finqa": finqa_record,
    "convfinqa": convfinqa_record,
    "financeagent": financeagent_record,
}
