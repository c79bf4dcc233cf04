"""numeric_match: is the number a model answered (after the last 「答案：」) the gold number?

A thin `evaluate` shell over `tw_fin_eval.scoring` (extraction in `extract.py`, matching rules in
`match.py`). Load it offline by path from the repository root: `evaluate.load("metrics/numeric_match")`.
"""

import datasets
import evaluate

from tw_fin_eval.scoring import metric_fns

_CITATION = """\
@misc{tw_fin_eval_basic,
  title  = {tw_fin_eval_basic: Taiwan financial LLM evaluation set, basic abilities, v0.1},
  author = {APMIC},
  year   = {2026}
}
@inproceedings{chen2021finqa,
  title     = {FinQA: A Dataset of Numerical Reasoning over Financial Data},
  author    = {Chen, Zhiyu and others},
  booktitle = {EMNLP},
  year      = {2021}
}
"""

_DESCRIPTION = """\
Numeric answer accuracy for zh-TW financial questions (FinQA-TW and similar). The answer is read after the
last 「答案：」/「答案:」/"Answer:" (strict), else from the last \\boxed{} or the last number (flexible; both
reported). <think>…</think> is removed first. Numbers may carry thousands separators, full-width digits,
−/- or (1,234) negatives, %, bps, currency marks (NT$, US$, $, 元, 美元) and Chinese units 千/萬/百萬/千萬/
億/十億/兆. Correct when the relative error ≤ 1% or the absolute error ≤ 0.005 (both configurable).

Percent rule. A question is a percent question when the gold string ends with "%", or (unless the
gold string carries a currency or unit: $, 元, 倍, 萬, 億 …) the question asks for a percentage (百分比,
比率, 成長率, 報酬率, 利率, 「以 % 表示」, "percent", "portion", …; not when it asks for a multiple,
以倍數表示/（倍）, or for basis points; a "%" only in the set-up does not count). In a percent question
everything is compared in percentage points: with f the gold as a fraction (the gold value, or value/100
when the gold string ends with "%" and its numeral equals the value), the numeral x as written matches
when x ≈ 100·f or 100·x ≈ 100·f, with or without a "%". So gold 0.141 accepts 0.141, 14.1 and 14.1%,
and the absolute tolerance means 0.005 of a point (gold 2.59%: 2.85% is wrong). In other questions a
prediction written with "%" is read as x/100 (127.5% matches 1.275).

Unit words. 「94 百萬美元」 against gold 94: accepted when the value with its multiplier OR the bare
numeral matches; the bare-numeral path is counted (bare_numeral_decided) so scale mistakes stay visible.
yes/no references (yes/no/是/否) are matched as text.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): raw model outputs.
    references (list of str or float): gold answers — a number as a value or a display string
        ("94", "14.1%", "1.2億"), or "yes"/"no" (是/否).
    questions (list of str, optional): the questions, used to recognise percent and basis-point questions.
    rel_tol (float, default 0.01) and abs_tol (float, default 0.005): the tolerances.
    return_items (bool, default False): also return per-item results.
Returns:
    accuracy (float): share correct (strict extraction with the flexible fallbacks).
    strict_accuracy (float): share correct with the answer read after 「答案：」.
    flexible_accuracy (float): same as accuracy.
    bare_numeral_decided (int): items accepted only through the bare numeral of a unit word.
    n (int): number of items; items (list of dict) when return_items is true.
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/numeric_match")
    >>> preds = ["計算後\\n答案：14.1%", "答案：0.141", "\\\\boxed{94}", "答案：940", "答案：94 百萬美元", "答案：否"]
    >>> refs = ["14.1%", "14.1%", "94", "94", "94", "no"]
    >>> result = metric.compute(predictions=preds, references=refs)
    >>> round(result["accuracy"], 3), round(result["strict_accuracy"], 3), result["bare_numeral_decided"]
    (0.833, 0.667, 1)
    >>> metric.compute(predictions=["答案：14.1"], references=[0.141], questions=["營收成長率為何？"])["accuracy"]
    1.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class NumericMatch(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("string")}),
                datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("float64")}),
            ],
            reference_urls=["https://arxiv.org/abs/2109.00122"],
        )

    def _compute(self, predictions, references, questions=None, rel_tol=0.01, abs_tol=0.005, return_items=False):
        return metric_fns.numeric_match(predictions, references, questions=questions, rel_tol=rel_tol,
                                        abs_tol=abs_tol, return_items=return_items)
