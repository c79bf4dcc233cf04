"""FinLLM450 (APMIC × bank consortium, internal only): multiple-choice, short-answer and case questions on
Taiwan regulation and practice, converted from the consortium's Excel workbook by
`tw-fin-eval convert-finllm450` (tw_fin_eval/sources/finllm450/). Never built by `tw-fin-eval build`,
never released."""

from __future__ import annotations

from typing import Any

from tw_fin_eval.sources.finllm450 import converter as adapter
from tw_fin_eval.subsets.spec import CONVERTED, SubsetSpec

NAME = "finllm450"


def features() -> dict[str, Any]:
    # `answer` is the list of option codes (null for short/case); `source.orig_qid` is the workbook's 題號
    # (not unique), `source.orig_id` its 序號
    from datasets import List

    from tw_fin_eval.features import COMMON, META, SOURCE, STR

    return {
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
    }


SPEC = SubsetSpec(
    name=NAME,
    dataset=adapter.DATASET,
    data_file=adapter.DATA_FILE,
    description="FinLLM 450 (APMIC × bank consortium): multiple-choice, short-answer and case questions on Taiwan "
                "regulation and practice. Internal only.",
    citation="",
    kind=CONVERTED,
    task_types=("mcq", "short_answer", "case_study"),
    features=features,
    in_release=False,
    pass_rate_breakdowns=(("ability", "category"), ("question type", "task_type")),
    optional=True,
)
