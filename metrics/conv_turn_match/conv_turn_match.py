"""conv_turn_match: ConvFinQA-TW turn accuracy and conversation accuracy (every turn right).

A thin `evaluate` shell over `tw_fin_eval.scoring` (the same extraction and matching as numeric_match).
Load offline by path from the repository root: `evaluate.load("metrics/conv_turn_match")`.
"""

import datasets
import evaluate

from tw_fin_eval.scoring import metric_fns

_CITATION = """\
@inproceedings{chen2022convfinqa,
  title     = {ConvFinQA: Exploring the Chain of Numerical Reasoning in Conversational Finance Question Answering},
  author    = {Chen, Zhiyu and others},
  booktitle = {EMNLP},
  year      = {2022}
}
"""

_DESCRIPTION = """\
Scores multi-turn numeric conversations turn by turn. Each input row is one turn: the model's output for
that turn, the turn's gold answer, and the id of the conversation it belongs to. In the paper setting turn
k was asked with the gold answers of turns < k in the history (the runner builds those prompts). Returns
the turn accuracy and the conversation accuracy (share of conversations whose every turn is right).
Matching rules are numeric_match's (tolerance rel ≤ 1% or abs ≤ 0.005, percent questions, units, yes/no).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): the model output of each turn.
    references (list of str): the gold answer of each turn ("5829", "1.6%", "yes").
    conversation_ids (list of str): the conversation each turn belongs to.
    questions (list of str, optional): the turn questions (percent-question detection).
    rel_tol, abs_tol (float): tolerances (defaults 0.01 and 0.005).
    return_items (bool): also return per-turn results.
Returns:
    turn_accuracy (float), conversation_accuracy (float), strict_turn_accuracy (float),
    n_turns (int), n_conversations (int).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/conv_turn_match")
    >>> result = metric.compute(
    ...     predictions=["答案：5829", "答案：5735", "答案：94", "答案：是", "答案：20"],
    ...     references=["5829", "5735", "94", "yes", "21.7"],
    ...     conversation_ids=["c1", "c1", "c1", "c2", "c2"])
    >>> result["turn_accuracy"], result["conversation_accuracy"], result["n_conversations"]
    (0.8, 0.5, 2)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ConvTurnMatch(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.Value("string"),
                "conversation_ids": datasets.Value("string"),
            }),
            reference_urls=["https://arxiv.org/abs/2210.03849"],
        )

    def _compute(self, predictions, references, conversation_ids, questions=None, rel_tol=0.01, abs_tol=0.005,
                 return_items=False):
        return metric_fns.conv_turn_match(predictions, references, conversation_ids, questions=questions,
                                          rel_tol=rel_tol, abs_tol=abs_tol, return_items=return_items)
