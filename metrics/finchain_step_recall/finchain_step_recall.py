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
Final-answer accuracy plus step_recall, a simplified ChainEval: the share of the gold intermediate step
values that appear among the numbers of the model's visible output (<think> removed, 「步驟 N：」 labels
ignored). Step matching is scale-aware (a number counts by its value with unit — 「1.2 億」, 「5.25%」 → 0.0525 —
or by its bare numeral) and sign-aware (a negative gold value needs a negative number, or its magnitude
after a word that carries the sign: 減少, 下降, 虧損, 流出 …). Tolerance as numeric_match. Numeric final
answers use numeric_match's rules; a non-numeric reference is a categorical conclusion (e.g. 高風險, 是)
matched by keyword: the conclusion must name the gold label and no other label of the batch's label set
(all categorical references given, plus negated forms 不/未/無須…). The original ChainEval needs an English
embedding model, so it is not used.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): model outputs (step-by-step solutions ending with 「答案：…」).
    references (list of str): gold final answers ("NT$11,576.25", "5.25%", "高風險").
    steps (list of list of float): the gold intermediate values of each item.
    questions (list of str, optional), rel_tol, abs_tol, return_items: as numeric_match.
Returns:
    accuracy (float), strict_accuracy (float), step_recall (float, mean over items), n (int).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/finchain_step_recall")
    >>> out = ("步驟 1：10,000 × 1.05 = NT$10,500\\n步驟 2：10,500 × 1.05 = NT$11,025\\n"
    ...        "步驟 3：11,025 × 1.05 = NT$11,576.25\\n答案：NT$11,576.25")
    >>> result = metric.compute(predictions=[out, "評分 72，答案：中風險"],
    ...                         references=["NT$11,576.25", "高風險"],
    ...                         steps=[[10500.0, 11025.0, 11576.25], [72.0]])
    >>> result["accuracy"], result["step_recall"]
    (0.5, 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FinchainStepRecall(evaluate.Metric):
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

    def _compute(self, predictions, references, steps, questions=None, rel_tol=0.01, abs_tol=0.005,
                 return_items=False):
        return metric_fns.finchain_step_recall(predictions, references, steps, questions=questions,
                                               rel_tol=rel_tol, abs_tol=abs_tol, return_items=return_items)
