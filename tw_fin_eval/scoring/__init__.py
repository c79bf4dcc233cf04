"""Scoring: per-task scorers, the engine and the LLM judge, over the answer-reading layer `tw_fin_eval.answers`;
the reports over scored items live in `tw_fin_eval.reports`.

One place for each rule: `answers.numbers` (number parsing), `answers.extract` (where the answer is),
`answers.match` (when it is right), `answers.vocabulary` (every word list), `judge` (LLM judge protocol
and calls), `scorers` (per-task_type scorers behind a registry), `engine` (records + runs → items). The
`evaluate` metrics in `metrics/` and the `score` / `selfcheck` commands are thin shells over these modules.
"""
