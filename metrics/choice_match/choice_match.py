"""choice_match: multiple-choice accuracy (FinLLM450 MCQ), exact set match.

A thin `evaluate` shell over `tw_fin_eval.scoring`. Load offline by path from the repository root:
`evaluate.load("metrics/choice_match")`.
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
"""

_DESCRIPTION = """\
The option(s) a model chose, read after the last 「答案：」 (strict), else from the last \\boxed{}, else from
a last line holding only option codes; letters (A–D, full-width too) or numbers (1–4), written as
「B」, 「(2)」, 「A、C」, 「選項 B：…」. The predicted set must equal the gold set exactly (a multi-answer
question needs every option and nothing else). A number answer to a letter question (or the reverse)
is mapped 1↔A … 4↔D and counted in cross_format.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): model outputs.
    references (list of list of str): the gold option codes of each question (["B"], ["1", "3"]).
    option_formats (list of str, optional): "letter" or "number" per question (inferred from the gold
        codes when absent).
    return_items (bool): also return per-item results.
Returns:
    accuracy (float: the strict reading, codes after the last 「答案：」), flexible_accuracy (float: also the
    last \\boxed{} or a last line of codes; diagnostic), cross_format (int), n (int).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/choice_match")
    >>> result = metric.compute(predictions=["答案：B", "答案：(1)、(3)", "答案：A", "所以選 \\\\boxed{D}"],
    ...                         references=[["B"], ["1", "3"], ["A", "C"], ["D"]])
    >>> result["accuracy"], result["flexible_accuracy"]
    (0.5, 0.75)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ChoiceMatch(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.Sequence(datasets.Value("string")),
            }),
            reference_urls=[],
        )

    def _compute(self, predictions, references, option_formats=None, return_items=False):
        return metric_fns.choice_match(predictions, references, option_formats=option_formats,
                                       return_items=return_items)
