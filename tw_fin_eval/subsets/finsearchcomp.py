"""FinSearchComp (ByteDance Seed, CC BY 4.0): 635 financial search questions in their original zh-CN/en,
judged by their own judge prompts. Supported for running and scoring; never in the zh-TW release.
Source adapter: tw_fin_eval/sources/finsearchcomp.py; judge protocol: tw_fin_eval/scoring/finsearchcomp.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tw_fin_eval.sources import finsearchcomp as adapter
from tw_fin_eval.subsets.spec import ORIGINAL, SubsetSpec

NAME = "finsearchcomp"
CITATION = """@article{hu2025finsearchcomp,
  title={FinSearchComp: Towards a Realistic, Expert-Level Evaluation of Financial Search and Reasoning},
  author={Hu, Liang and others},
  journal={arXiv preprint arXiv:2509.13160},
  year={2025}
}"""


def features() -> dict[str, Any]:
    # the common fields (`answer` = the reference the judge sees) plus every upstream field under its
    # upstream name; see tw_fin_eval/sources/finsearchcomp.py
    from datasets import Value

    from tw_fin_eval.features import COMMON, STR

    return {
        **COMMON,
        "task": STR,
        "region": STR,
        "requires_tools": Value("bool"),
        **{name: STR for name in (
            "prompt_id", "prompt", "label", "response_reference", "response_reference_translate",
            "judge_prompt_template", "judge_system_prompt", "ground_truth", "time",
            "wind_ticker", "akshare_ticker", "yfinance_ticker")},
    }


def produce(sources: Path) -> list[dict[str, Any]] | None:
    """The upstream rows as records; None (skipped) when the source folder is absent."""
    if not (sources / adapter.FOLDER).is_dir():
        return None
    return adapter.build_records(sources)


SPEC = SubsetSpec(
    name=NAME,
    dataset=adapter.DATASET,
    data_file="finsearchcomp.jsonl",
    description="FinSearchComp (ByteDance Seed, CC BY 4.0): financial search questions judged by their own judge prompts. "
                "Supported for running and scoring; not part of the zh-TW release.",
    citation=CITATION,
    kind=ORIGINAL,
    task_types=("open_judge",),
    features=features,
    in_release=False,
    optional=True,
    produce=produce,
    verb="loaded (original zh-CN/en; not in the zh-TW release)",
)
