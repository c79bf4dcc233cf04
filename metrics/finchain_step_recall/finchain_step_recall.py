"""finchain_step_recall: FinChain-TW final-answer accuracy and step_recall.

A thin `evaluate` shell over `tw_fin_eval.scoring`. Load offline by path from the repository root:
`evaluate.load("metrics/finchain_step_recall")`.
"""

import datasets
import evaluate

from tw_fin_eval.scoring import metric_fns

_CITATION = """\
@article{finchain2025,
  title   = {FinChain: A Symbolic Benchmark for Verifiable Chain-of-Thought Financial Reasoning},
  journal = {arXiv preprint arXiv:2506.02515},
  year    = {2025}
}
"""

_DESCRIPTION = """\
The `numeric_cot` scorer of `tw-fin-eval score` (FinChain-TW), item by item: final-answer accuracy (strict
reading, the answer after the last 「答案：」) plus step scores, a simplified ChainEval. Called with a
FinChain-TW split's columns it gives the score command's verdicts:

    finchain_step_recall.compute(predictions=P, references=answer_value (answer_text for categorical),
                                 steps=[[s["value"] for s in r["steps"]] …], questions=question,
                                 gold_answers=answer)

Numeric answers are matched with the tolerance the question's stated rounding implies (half a unit in the
asked decimal place: «四捨五入至小數點後第 2 位» → ±0.005, in percentage points for a "%" gold; no stated
rounding → the displayed gold's decimals); the gold display string decides whether the answer is a
percentage. A categorical reference (高風險, 是) is matched as a phrase against the label set of the batch
(all categorical references, plus negated forms); a conclusion that names no single label is pending.
Steps: each gold intermediate value needs its own number computed in the visible output (<think> removed,
「步驟 N：」 labels ignored, numbers copied from the question not counted, one number per step); step_recall
= steps found / steps, step_precision = numbers used / numbers written, step_f1 their harmonic mean — so a
list of guesses does not score 1.0. A refusal scores 0. The original ChainEval needs an English embedding
model, so it is not used. Full rules: metrics/numeric_match/README.md and tw_fin_eval/scoring/README.md.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): model outputs (step-by-step solutions ending with 「答案：…」).
    references (list of str or float): gold final answers (answer_value, or a display string such as
        "NT$11,576.25" / "5.25%", or a categorical label such as "高風險").
    steps (list of list of float): the gold intermediate values of each item.
    questions (list of str, optional): the questions (stated rounding; numbers to discount in steps).
    gold_answers (list of str, optional): the gold display strings (`answer`).
    rel_tol, abs_tol (float, optional): a fixed tolerance instead of the stated rounding.
    return_items (bool): also return per-item results.
Returns:
    accuracy (float, over decided items), flexible_accuracy (float), pending (int), step_recall,
    step_precision, step_f1 (float, means over items with steps), n (int).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/finchain_step_recall")
    >>> out = ("步驟 1：10,000 × 1.05 = NT$10,500\\n步驟 2：10,500 × 1.05 = NT$11,025\\n"
    ...        "步驟 3：11,025 × 1.05 = NT$11,576.25\\n答案：NT$11,576.25")
    >>> result = metric.compute(predictions=[out, "評分 72，答案：中風險", "評分 35，答案：中風險"],
    ...                         references=["NT$11,576.25", "高風險", "中風險"],
    ...                         steps=[[10500.0, 11025.0, 11576.25], [72.0], [35.0]])
    >>> round(result["accuracy"], 3), result["step_recall"], round(result["step_f1"], 3)
    (0.667, 1.0, 0.917)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FinchainStepRecall(metric_fns.StringReferences, evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.Value("string"),
                "steps": datasets.Sequence(datasets.Value("float64")),
            }),
            reference_urls=["https://arxiv.org/abs/2506.02515"],
        )

    def _compute(self, predictions, references, steps, questions=None, gold_answers=None, rel_tol=None,
                 abs_tol=None, return_items=False):
        return metric_fns.finchain_step_recall(predictions, references, steps, questions=questions,
                                               gold_answers=gold_answers, rel_tol=rel_tol, abs_tol=abs_tol,
                                               return_items=return_items)
