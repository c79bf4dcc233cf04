"""FinanceAgent-TW: the Finance Agent Benchmark public set (50 open questions with a reference answer and
a rubric) in Taiwan financial Chinese, evaluated closed-book. Source adapter:
tw_fin_eval/sources/financeagent.py; overlays: translations/financeagent/."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tw_fin_eval import prompts
from tw_fin_eval.overlay import Overlay, OverlaySpec, Pair, string_list
from tw_fin_eval.records import source_of, translation_meta
from tw_fin_eval.schema import base_record
from tw_fin_eval.sources import financeagent as adapter
from tw_fin_eval.sources.base import SourceItem
from tw_fin_eval.subsets.spec import TRANSLATED, CardSpec, SubsetSpec, counts_text

NAME = "financeagent"
DATASET = "FinanceAgent-TW"
ID_FORMAT = "financeagent_tw-{:04d}"
CITATION = """@article{bigeard2025financeagent,
  title={Finance Agent Benchmark: Benchmarking LLMs on Real-world Financial Research Tasks},
  author={Bigeard, Antoine and others},
  journal={arXiv preprint arXiv:2508.00828},
  year={2025}
}"""


def question_type(item: SourceItem) -> str:
    return adapter.QUESTION_TYPES[item.fields["question_type"]]


def features() -> dict[str, Any]:
    from datasets import Value

    from tw_fin_eval.features import COMMON, RUBRIC, STR

    return {
        **COMMON,
        "rubric": RUBRIC,
        "requires_tools": Value("bool"),
        "original_en": {"question": STR, "answer": STR, "rubric": RUBRIC, "question_type": STR},
    }


def english(item: SourceItem) -> dict[str, Any]:
    return {"question": item.question, "answer": item.fields["answer"],
            "rubric": [r["criteria"] for r in item.fields["rubric"]]}


def pairs(item: SourceItem, data: dict[str, Any]) -> list[Pair]:
    out = [Pair("question", item.question, data["question"]), Pair("answer", item.fields["answer"], data["answer"])]
    out += [Pair(f"rubric[{k}]", r["criteria"], zh) for k, (r, zh) in enumerate(zip(item.fields["rubric"], data["rubric"]))]
    return out


def validate(item: SourceItem, ov: Overlay) -> None:
    string_list(ov, "rubric", len(item.fields["rubric"]), "rubric criteria")


def make_record(item: SourceItem, ov: Overlay) -> dict[str, Any]:
    f = item.fields
    question = ov.data["question"]
    return base_record(
        id=ID_FORMAT.format(item.index),
        dataset=DATASET,
        source=source_of("Finance Agent Benchmark", adapter, item.source_id),
        category="G_工具與Agent",
        subcategory=question_type(item),
        task_type="open_rubric_agent",
        question=question,
        answer=ov.data["answer"],
        extra={"rubric": [{"operator": r["operator"], "criteria": zh} for r, zh in zip(f["rubric"], ov.data["rubric"])],
               "requires_tools": True},
        messages=prompts.open_messages(question),
        original_en={"question": item.question, "answer": f["answer"], "rubric": f["rubric"],
                     "question_type": f["question_type"]},
        meta=translation_meta(ov),
    )


def card_details(records: list[dict[str, Any]]) -> list[str]:
    crit = Counter(c.get("operator") for r in records for c in r.get("rubric") or [])
    return [f"題型 question types：{counts_text(Counter(r.get('subcategory') for r in records))}",
            f"評分要點 rubric criteria：{counts_text(crit)}"]


SPEC = SubsetSpec(
    name=NAME,
    dataset=DATASET,
    data_file="financeagent_tw.jsonl",
    description="Finance Agent Benchmark public set in Taiwan financial Chinese: open questions about U.S. filings with a "
                "reference answer and rubric; evaluated closed-book here (the original benchmark gives tools).",
    citation=CITATION,
    kind=TRANSLATED,
    task_types=("open_rubric_agent",),
    reference_text_gold=True,
    features=features,
    source="tw_fin_eval.sources.financeagent",
    id_format=ID_FORMAT,
    overlay=OverlaySpec(fields={"question": str, "answer": str, "rubric": list}, english=english, pairs=pairs,
                        validate=validate),
    make_record=make_record,
    card=CardSpec(
        upstream=("Finance Agent Benchmark v1 public", "https://github.com/vals-ai/finance-agent"),
        description="Finance Agent Benchmark 公開集的台灣繁中版：關於美國公司申報文件的開放題，附參考答案與評分要點；"
                    "此處以 closed-book 評測。*Open questions about U.S. filings with a reference answer and rubric; closed-book here.*",
        details=card_details,
    ),
    review_stratum=question_type,
)
