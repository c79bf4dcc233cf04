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
Scores multi-turn numeric conversations turn by turn — the `conversation_numeric` scorer of
`tw-fin-eval score`. Each input row is one turn; called with a ConvFinQA-TW split's turns it gives the
score command's verdicts:

    conv_turn_match.compute(predictions=P, references=turn answer_value (answer_text for yes/no),
                            conversation_ids=id, questions=turn question, gold_answers=turn answer,
                            answer_scales=turn answer_scale)

In the paper setting turn k was asked with the gold answers of turns < k in the history (the runner builds
those prompts). Returns the turn accuracy (strict reading: the answer after the last 「答案：」) and the
conversation accuracy (share of conversations whose every turn is right). The matching rules are
numeric_match's (metrics/numeric_match/README.md).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): the model output of each turn.
    references (list of str or float): the gold of each turn (answer_value, or "yes"/"no").
    conversation_ids (list of str): the conversation each turn belongs to.
    questions (list of str, optional): the turn questions.
    gold_answers (list of str, optional): the turns' display strings (`answer`).
    answer_scales (list of int or None, optional): the turns' `answer_scale` (the gold's unit as a power of
        ten), so an amount restated in 億／萬 counts.
    rel_tol, abs_tol (float, optional): tolerances (not given: the scorer's default, rel 0.01 and abs 0.005).
    return_items (bool): also return per-turn results.
Returns:
    turn_accuracy (float), conversation_accuracy (float), flexible_turn_accuracy (float: with the
    \\boxed{} / last-number fallbacks, diagnostic), n_turns (int), n_conversations (int).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/conv_turn_match")
    >>> result = metric.compute(
    ...     predictions=["答案：5829", "答案：5735", "答案：94", "答案：是", "答案：20"],
    ...     references=[5829.0, 5735.0, 94.0, "yes", 21.7],
    ...     conversation_ids=["c1", "c1", "c1", "c2", "c2"])
    >>> result["turn_accuracy"], result["conversation_accuracy"], result["n_conversations"]
    (0.8, 0.5, 2)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ConvTurnMatch(metric_fns.StringReferences, evaluate.Metric):
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

    def _compute(self, predictions, references, conversation_ids, questions=None, gold_answers=None, rel_tol=None,
                 abs_tol=None, return_items=False, answer_scales=None):
        return metric_fns.conv_turn_match(predictions, references, conversation_ids, questions=questions,
                                          gold_answers=gold_answers, rel_tol=rel_tol, abs_tol=abs_tol,
                                          return_items=return_items, answer_scales=answer_scales)
