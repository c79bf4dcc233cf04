"""FinQA-TW: the FinQA test set (1,147 items) in Taiwan financial Chinese — numerical reasoning over a
table and evidence sentences. Source adapter: tw_fin_eval/sources/finqa.py; overlays: translations/finqa/."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tw_fin_eval.answers.match import gold_display
from tw_fin_eval.overlay import Overlay, OverlaySpec, Pair, evidence_pairs
from tw_fin_eval.records import (
    en_evidence,
    numeric_messages,
    program_kind,
    source_of,
    table_unit_caption,
    translation_meta,
    zh_evidence,
    zh_table,
)
from tw_fin_eval.schema import base_record
from tw_fin_eval.sources import amount_scale
from tw_fin_eval.sources import finqa as adapter
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets.spec import (
    TRANSLATED,
    CardSpec,
    SubsetSpec,
    counts_text,
    gold_status_lines,
)

NAME = "finqa"
DATASET = "FinQA-TW"
ID_FORMAT = "finqa_tw-test-{:04d}"
CITATION = """@inproceedings{chen2021finqa,
  title={FinQA: A Dataset of Numerical Reasoning over Financial Data},
  author={Chen, Zhiyu and Chen, Wenhu and Smiley, Charese and Shah, Sameena and Borova, Iana and Langdon, Dylan and Moussa, Reema and Beane, Matt and Huang, Ting-Hao and Routledge, Bryan and Wang, William Yang},
  booktitle={Proceedings of EMNLP 2021},
  year={2021},
  note={arXiv:2109.00122}
}"""

def features() -> dict[str, Any]:
    from datasets import Value

    from tw_fin_eval.features import COMMON, CONTEXT, EN_EVIDENCE, F64, STR, TABLE

    return {
        **COMMON,
        # table_unit: the table's unit when the page states it only in the sentence before the table
        "context": {**CONTEXT, "table_unit": STR},
        # gold verification (docs/VERIFICATION.md): status/reason null until read; original_en keeps the
        # upstream answer_value/program (equal to the top-level ones unless the unit is `fixed`)
        "gold_status": STR,
        "gold_reason": STR,
        # the residual-class sweep that re-read the unit (unit/program/missing_fact/sign/unanswerable), null if none
        "gold_sweep": STR,
        # the gold's unit as a power of ten (6: millions), from where the operands stand; null when unknown
        "answer_scale": Value("int64"),
        "original_en": {"question": STR, "table": TABLE, "evidence": EN_EVIDENCE, "answer": STR,
                        "answer_value": F64, "answer_text": STR, "program": STR},
    }


def english(item: SourceItem) -> dict[str, Any]:
    return {"question": item.question, "table": item.table, "evidence": {e.key: e.text for e in item.text_evidence}}


def pairs(item: SourceItem, data: dict[str, Any]) -> list[Pair]:
    return [Pair("question", item.question, data["question"]), *evidence_pairs(item, data)]


def make_record(item: SourceItem, ov: Overlay) -> dict[str, Any]:
    f = item.fields
    table, evidence, question = zh_table(item, ov), zh_evidence(item, ov), ov.data["question"]
    unit = table_unit_caption(item)
    return base_record(
        id=ID_FORMAT.format(item.index),
        dataset=DATASET,
        source=source_of("FinQA", adapter, item.source_id),
        category="C_財報數值推理",
        subcategory=program_kind(f["program"]),
        task_type="numeric",
        question=question,
        context={"table": table, "evidence": evidence, "setting": item.setting, "table_unit": unit},
        answer=f["answer"] if f["answer_value"] is None else gold_display(
            f["answer"], f["answer_value"], questions=[question]),
        answer_value=f["answer_value"],
        answer_text=f["answer_text"],
        program=f["program"],
        messages=numeric_messages(question, table, evidence, yes_no=f["answer_text"] is not None, table_unit=unit),
        original_en={"question": item.question, "table": item.table, "evidence": en_evidence(item, ov),
                     "answer": f["answer_original"]},
        meta=translation_meta(ov),
    )


def card_details(records: list[dict[str, Any]]) -> list[str]:
    yes_no = sum(1 for r in records if r.get("answer_value") is None)
    return [
        f"證據設定 evidence setting：{counts_text(Counter((r.get('context') or {}).get('setting') for r in records))}",
        f"計算類型 subcategory：{counts_text(Counter(r.get('subcategory') for r in records))}",
        f"是非題 yes/no items（answer_value = null）：{yes_no:,}",
        *gold_status_lines(records),
    ]


SPEC = SubsetSpec(
    name=NAME,
    dataset=DATASET,
    data_file="finqa_tw_test.jsonl",
    description="FinQA test set in Taiwan financial Chinese: numerical reasoning over a financial table and evidence "
                "sentences (gold evidence where FinQA's gold_inds survive, silver evidence otherwise).",
    citation=CITATION,
    kind=TRANSLATED,
    gold_verification=True,
    task_types=("numeric",),
    features=features,
    source="tw_fin_eval.sources.finqa",
    id_format=ID_FORMAT,
    overlay=OverlaySpec(fields={"question": str, "table": list, "evidence": dict}, english=english, pairs=pairs),
    make_record=make_record,
    post_gold=(amount_scale.annotate_record,),
    card=CardSpec(
        upstream=("FinQA test", "https://github.com/czyssrs/FinQA"),
        description="FinQA 測試集的台灣繁中版：根據財報表格與證據句做數值推理（單題）。"
                    "*FinQA test set in Taiwan Chinese: numerical reasoning over a financial table and evidence sentences.*",
        details=card_details,
    ),
    review_stratum=lambda item: program_kind(item.fields["program"]),
)
