"""rubric_judge: an LLM judge over an OpenAI-compatible endpoint (0–10 scoring, rubric checks, conclusions).

A thin `evaluate` shell over `tw_fin_eval.scoring.judge`. Load offline by path from the repository root:
`evaluate.load("metrics/rubric_judge")`. The judge's API key is read from the environment variable named
by `api_key_env` (default JUDGE_API_KEY) and never returned or logged.
"""

import datasets
import evaluate

from tw_fin_eval.scoring import metric_fns

_CITATION = """\
@article{financeagent2025,
  title   = {Finance Agent Benchmark: Benchmarking LLMs on Real-world Financial Research Tasks},
  journal = {arXiv preprint arXiv:2508.00828},
  year    = {2025}
}
"""

_DESCRIPTION = """\
Asks a judge model (use a different model from the one tested) to grade each answer:
- mode "score" (FinLLM450 short_answer / case_study): 0–10 against the reference answer plus whether the
  conclusion is correct; pass = conclusion correct and score ≥ 7;
- mode "rubric" (FinanceAgent-TW): every rubric criterion checked — "correctness" criteria must be present,
  "contradiction" criteria must not be contradicted; pass = every criterion passes; score = share × 10;
- mode "conclusion" (FinChain-TW categorical answers): same conclusion as the reference.
Without an endpoint every item is `pending` (counted, never scored). A verdict that cannot be parsed is
`missing`, never 0. With repeats=2 each item is judged twice and agreement statistics are returned
(share agreeing on pass/fail, Cohen's kappa, mean |score difference|); the first run's verdict counts.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (list of str): model answers.
    references (list of str): reference answers (or reference conclusions).
    questions (list of str): the questions.
    rubrics (list of list of {"operator", "criteria"}, optional): rubric criteria per item (mode "rubric").
    mode (str, optional): "score", "rubric" or "conclusion" (default: "rubric" when rubrics are given, else "score").
    judge_base_url (str, optional), judge_model (str, optional): the judge endpoint; absent → pending.
    api_key_env (str): environment variable with the judge's key (default "JUDGE_API_KEY").
    repeats (int): judge each item this many times (2 → agreement stats).
    concurrency (int), timeout (float), max_retries (int), return_items (bool).
Returns:
    n, scored, passed, pass_rate, mean_score, pending, missing, judge ("configured"/"none"),
    agreement (when repeats ≥ 2), items (when return_items).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/rubric_judge")
    >>> result = metric.compute(predictions=["應於 2 個營業日內申報。"], references=["2 個營業日內向調查局申報。"],
    ...                         questions=["疑似洗錢交易的申報期限？"])
    >>> result["pending"], result["scored"], result["judge"]
    (1, 0, 'none')
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RubricJudge(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({
                    "predictions": datasets.Value("string"),
                    "references": datasets.Value("string"),
                    "questions": datasets.Value("string"),
                }),
                datasets.Features({
                    "predictions": datasets.Value("string"),
                    "references": datasets.Value("string"),
                    "questions": datasets.Value("string"),
                    "rubrics": datasets.List({"operator": datasets.Value("string"),
                                              "criteria": datasets.Value("string")}),
                }),
            ],
            reference_urls=["https://arxiv.org/abs/2508.00828"],
        )

    def _compute(self, predictions, references, questions, rubrics=None, mode=None, judge_base_url=None,
                 judge_model=None, api_key_env="JUDGE_API_KEY", repeats=1, concurrency=4, timeout=120.0,
                 max_retries=2, return_items=False):
        return metric_fns.rubric_judge(predictions, references, questions, rubrics=rubrics, mode=mode,
                                       judge_base_url=judge_base_url, judge_model=judge_model,
                                       api_key_env=api_key_env, repeats=repeats, concurrency=concurrency,
                                       timeout=timeout, max_retries=max_retries, return_items=return_items)
