"""FinChain-TW: step-by-step financial calculations generated from our own zh-TW templates
(finchain_tw_templates/, FinChain's taxonomy: 12 domains, 58 topics, 5 templates per topic, 10 seeds)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from tw_fin_eval.subsets.spec import GENERATED, CardSpec, SubsetSpec, counts_text

NAME = "finchain"
DIFFICULTIES = ("基礎", "中級", "進階")  # easiest first: the order of every difficulty breakdown
SEEDS = 10  # seeds per template in the built data
CITATION = """@article{xie2025finchain,
  title={FinChain: A Symbolic Benchmark for Verifiable Chain-of-Thought Financial Reasoning},
  author={Xie, Zhuohan and others},
  journal={arXiv preprint arXiv:2506.02515},
  year={2025}
}"""


def features() -> dict[str, Any]:
    from datasets import List, Value

    from tw_fin_eval.features import COMMON, F64, STR

    return {
        **COMMON,
        "solution": STR,
        "answer_decimals": Value("int64"),  # the rounding the question asks for (issue 15 point 10)
        "steps": List({"label": STR, "value": F64}),
        "answer_type": STR,
        "template_id": STR,
        "seed": Value("int64"),
    }


def produce(sources: Path) -> list[dict[str, Any]] | None:
    """The generated records; None when the templates package is not installed beside the code."""
    try:
        from finchain_tw_templates.generate import generate_records
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("finchain_tw_templates"):
            return None
        raise
    return generate_records(seeds=SEEDS)


def card_details(records: list[dict[str, Any]]) -> list[str]:
    domains = Counter(r.get("category") for r in records)
    topics = {r.get("subcategory") for r in records}
    templates = {r.get("template_id") for r in records}
    seeds = {r.get("seed") for r in records}
    return [
        f"領域 domains：{len(domains)}（{counts_text(domains)}）；主題 topics：{len(topics)}；"
        f"模板 templates：{len(templates)}；種子 seeds：{len(seeds)}",
        f"難度 difficulty：{counts_text(Counter(r.get('difficulty') for r in records), list(DIFFICULTIES))}",
        f"答案類型 answer_type：{counts_text(Counter(r.get('answer_type') for r in records))}",
    ]


SPEC = SubsetSpec(
    name=NAME,
    dataset="FinChain-TW",
    data_file="finchain_tw.jsonl",
    description="FinChain-TW: step-by-step financial calculations from our own zh-TW templates (12 domains, 58 topics, "
                "5 templates per topic, 10 seeds), with machine-readable intermediate steps.",
    citation=CITATION,
    kind=GENERATED,
    task_types=("numeric_cot",),
    features=features,
    produce=produce,
    verb="generated from our templates",
    group_order=(("difficulty", DIFFICULTIES),),
    card=CardSpec(
        upstream=("FinChain (taxonomy; our own templates)", "https://arxiv.org/abs/2506.02515"),
        description="FinChain-TW：依 FinChain 分類自行撰寫的繁中模板產生的逐步財務計算題，附機器可讀的中間步驟數值。"
                    "*Step-by-step financial calculations from our own zh-TW templates, with machine-readable intermediate steps.*",
        details=card_details,
    ),
)
