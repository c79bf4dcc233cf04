"""numeric_match: is the number a model answered (after the last 「答案：」) the gold number?

A thin `evaluate` shell over `tw_fin_eval.scoring` (extraction in `answers/extract.py`, matching rules in
`answers/match.py`). Load it offline by path from the repository root: `evaluate.load("metrics/numeric_match")`.
"""

import datasets
import evaluate

from tw_fin_eval.scoring import metric_fns

_CITATION = """\
@misc{tw_fin_eval_basic,
  title  = {tw_fin_eval_basic: Taiwan financial LLM evaluation set, basic abilities, v0.2.0},
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
Numeric (and yes/no) answer accuracy for zh-TW financial questions — the `numeric` scorer of
`tw-fin-eval score`, item by item. Called with a FinQA-TW split's columns it gives the score command's
verdicts:

    numeric_match.compute(predictions=P, references=answer_value (answer_text for yes/no rows),
                          questions=question, gold_answers=answer, answer_scales=answer_scale)

The headline `accuracy` is the strict reading: the answer after the last 「答案：」/「答案:」/"Answer:"
(<think>…</think> removed first). `flexible_accuracy` also accepts the last \\boxed{} or the last number
(a diagnostic column). The full rules are in metrics/numeric_match/README.md and tw_fin_eval/scoring/README.md.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): raw model outputs.
    references (list of str or float): the gold — a number (answer_value), "yes"/"no" (answer_text of a
        yes/no row, also 是/否), or a display string ("94", "14.1%", "1.2億").
    questions (list of str, optional): the questions (what the question asks decides percent questions,
        basis points, the question's unit such as 「（百萬美元）」, and direction words such as 「減少了多少」).
    gold_answers (list of str, optional): the gold display strings (the dataset's `answer` column).
    answer_scales (list of int or None, optional): the unit each gold is counted in, as a power of ten (the
        dataset's `answer_scale` column: 6 = millions), so 「7.72 億美元」 counts for the gold 772.
    rel_tol, abs_tol (float, optional): the tolerances (not given: the scorer's default, rel 0.01 and abs 0.005).
    return_items (bool, default False): also return per-item results.
Returns:
    accuracy (float): share right by the strict reading (the headline).
    flexible_accuracy (float): share right with the \\boxed{} / last-number fallbacks (diagnostic).
    refusals (int): answers that decline («無法判斷», "cannot determine"): wrong.
    bare_numeral_decided (int): items accepted only through the bare numeral of a unit word.
    n (int): number of items; items (list of dict: correct, flexible_correct, extracted, mode, path,
        refused) when return_items is true.
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/numeric_match")
    >>> preds = ["計算後\\n答案：14.5%", "答案：0.1446", "\\\\boxed{747}", "答案：減少 35", "答案：無法判斷"]
    >>> refs = [0.14464, 0.14464, 747.0, -35.0, "no"]
    >>> qs = ["占多少百分比？", "占多少百分比？", "總額是多少？", "變動是多少？", "是否高於？"]
    >>> result = metric.compute(predictions=preds, references=refs, questions=qs,
    ...                         gold_answers=["14.5%", "14.5%", "747", "-35", "no"])
    >>> result["accuracy"], result["flexible_accuracy"], result["refusals"]
    (0.6, 0.8, 1)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class NumericMatch(metric_fns.StringReferences, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            # one string column: a split's references mix numbers (answer_value) and "yes"/"no"
            # (answer_text); numbers arrive as their repr and are read back exactly
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Value("string")}),
            reference_urls=["https://arxiv.org/abs/2109.00122"],
        )

    def _compute(self, predictions, references, questions=None, gold_answers=None, rel_tol=None, abs_tol=None,
                 return_items=False, answer_scales=None):
        return metric_fns.numeric_match(predictions, references, questions=questions, gold_answers=gold_answers,
                                        rel_tol=rel_tol, abs_tol=abs_tol, return_items=return_items,
                                        answer_scales=answer_scales)
