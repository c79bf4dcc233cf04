"""ConvFinQA-TW: the ConvFinQA dev set (421 conversations, 1,490 turns) in Taiwan financial Chinese —
multi-turn numerical conversations over one table. Source adapter: tw_fin_eval/sources/convfinqa.py;
overlays: translations/convfinqa/."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tw_fin_eval import prompts
from tw_fin_eval.answers.match import gold_display
from tw_fin_eval.overlay import Overlay, OverlaySpec, Pair, evidence_pairs, string_list
from tw_fin_eval.records import (
    conversation_parts,
    en_evidence,
    source_of,
    table_unit_caption,
    translation_meta,
    zh_evidence,
    zh_table,
)
from tw_fin_eval.schema import base_record
from tw_fin_eval.sources import amount_scale
from tw_fin_eval.sources import convfinqa as adapter
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets.spec import (
    TRANSLATED,
    CardSpec,
    SubsetSpec,
    counts_text,
    gold_status_lines,
)

NAME = "convfinqa"
DATASET = "ConvFinQA-TW"
ID_FORMAT = "convfinqa_tw-dev-{:04d}"
CITATION = """@inproceedings{chen2022convfinqa,
  title={ConvFinQA: Exploring the Chain of Numerical Reasoning in Conversational Finance Question Answering},
  author={Chen, Zhiyu and Li, Shiyang and Smiley, Charese and Ma, Zhiqiang and Shah, Sameena and Wang, William Yang},
  booktitle={Proceedings of EMNLP 2022},
  year={2022},
  note={arXiv:2210.03849}
}"""


def conversation_type(item: SourceItem) -> str:
    return "雙題組合" if item.fields["conv_type"] == "double" else "單題拆解"


def features() -> dict[str, Any]:
    from datasets import List, Value

    from tw_fin_eval.features import COMMON, CONTEXT, EN_EVIDENCE, F64, STR, TABLE

    return {
        **COMMON,
        # table_unit: the table's unit when the page states it only in the sentence before the table
        "context": {**CONTEXT, "table_unit": STR},
        "turns": List({"question": STR, "answer": STR, "answer_value": F64, "answer_text": STR,
                       "program": STR, "question_en": STR,
                       # gold verification per turn (docs/VERIFICATION.md); original_* = upstream gold
                       "gold_status": STR, "gold_reason": STR, "gold_sweep": STR, "original_answer_value": F64, "original_answer_text": STR,
                       "original_program": STR, "original_answer": STR,
                       # the gold's unit as a power of ten (6: millions); null when unknown
                       "answer_scale": Value("int64")}),
        "system": STR,
        "first_user_prefix": STR,
        "original_en": {"questions": List(STR), "table": TABLE, "evidence": EN_EVIDENCE},
    }


def english(item: SourceItem) -> dict[str, Any]:
    return {"turns": [t["question_en"] for t in item.fields["turns"]], "table": item.table,
            "evidence": {e.key: e.text for e in item.text_evidence}}


def pairs(item: SourceItem, data: dict[str, Any]) -> list[Pair]:
    turns = [Pair(f"turns[{k}]", t["question_en"], zh) for k, (t, zh) in enumerate(zip(item.fields["turns"], data["turns"]))]
    return turns + evidence_pairs(item, data)


def validate(item: SourceItem, ov: Overlay) -> None:
    string_list(ov, "turns", len(item.fields["turns"]), "turn questions")


def make_record(item: SourceItem, ov: Overlay) -> dict[str, Any]:
    table, evidence, unit = zh_table(item, ov), zh_evidence(item, ov), table_unit_caption(item)
    system, prefix = conversation_parts(table, evidence, unit)
    turns = [
        {"question": zh,
         "answer": t["answer"] if t["answer_value"] is None else gold_display(
             t["answer"], t["answer_value"], questions=[zh]),
         "answer_value": t["answer_value"], "answer_text": t["answer_text"],
         "program": t["program"], "question_en": t["question_en"]}
        for zh, t in zip(ov.data["turns"], item.fields["turns"])
    ]
    last = turns[-1]
    return base_record(
        id=ID_FORMAT.format(item.index),
        dataset=DATASET,
        source=source_of("ConvFinQA", adapter, item.source_id),
        category="C_財報數值推理",
        subcategory=conversation_type(item),
        task_type="conversation_numeric",
        question=turns[0]["question"],
        context={"table": table, "evidence": evidence, "setting": item.setting, "table_unit": unit},
        answer=last["answer"],
        answer_value=last["answer_value"],
        answer_text=last["answer_text"],
        program=last["program"],
        extra={"turns": turns, "system": system, "first_user_prefix": prefix},
        messages=prompts.conversation_messages(system, prefix, [turns[0]["question"]], []),
        original_en={"questions": [t["question_en"] for t in turns], "table": item.table,
                     "evidence": en_evidence(item, ov)},
        meta=translation_meta(ov),
    )


def summary_extra(records: list[dict[str, Any]], items: list[SourceItem]) -> dict[str, Any]:
    done = sum(len(r["turns"]) for r in records)
    total = sum(len(it.fields["turns"]) for it in items)
    return {"turns": f"{done:,}/{total:,}"}


def card_details(records: list[dict[str, Any]]) -> list[str]:
    turns = sum(len(r.get("turns") or []) for r in records)
    yes_no = sum(1 for r in records for t in r.get("turns") or [] if t.get("answer_value") is None)
    return [
        f"對話 conversations：{len(records):,}，輪數 turns：{turns:,}",
        f"對話型態 subcategory：{counts_text(Counter(r.get('subcategory') for r in records))}",
        f"是非題輪數 yes/no turns：{yes_no:,}",
        *gold_status_lines([t for r in records for t in r.get("turns") or []]),
    ]


SPEC = SubsetSpec(
    name=NAME,
    dataset=DATASET,
    data_file="convfinqa_tw_dev.jsonl",
    description="ConvFinQA dev set in Taiwan financial Chinese: multi-turn numerical conversations over a table; turn k "
                "is asked with the gold answers of the earlier turns.",
    citation=CITATION,
    kind=TRANSLATED,
    gold_verification=True,
    conversational=True,
    task_types=("conversation_numeric",),
    features=features,
    source="tw_fin_eval.sources.convfinqa",
    id_format=ID_FORMAT,
    overlay=OverlaySpec(fields={"turns": list, "table": list, "evidence": dict}, english=english, pairs=pairs,
                        validate=validate),
    make_record=make_record,
    post_gold=(amount_scale.annotate_turns,),
    units="conversations",
    summary_extra=summary_extra,
    card=CardSpec(
        upstream=("ConvFinQA dev", "https://github.com/czyssrs/ConvFinQA"),
        description="ConvFinQA 開發集的台灣繁中版：針對同一份表格的多輪數值對話，第 k 輪帶入前面各輪的標準答案。"
                    "*ConvFinQA dev set in Taiwan Chinese: multi-turn numerical conversations over one table.*",
        details=card_details,
    ),
    review_stratum=conversation_type,
)
