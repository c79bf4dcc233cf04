"""Scoring: the LLM judge, per-task scorers and reports, over the answer-reading layer `tw_fin_eval.answers`.

One place for each rule: `answers.numbers` (number parsing), `answers.extract` (where the answer is),
`answers.match` (when it is right), `answers.vocabulary` (every word list), `judge` (LLM judge protocol
and calls), `tasks` (per-task_type scorers behind a registry), `report` (results.jsonl / summary.csv / report.md). The `evaluate` metrics in `metrics/` and the `score` /
`selfcheck` commands are thin shells over these modules.
"""
