"""Scoring: answer extraction, matching, the LLM judge, per-task scorers and reports.

One place for each rule: `numbers` (number parsing), `extract` (where the answer is), `match` (when it is
right), `judge` (LLM judge protocol and calls), `tasks` (per-task_type scorers behind a registry),
`report` (results.jsonl / summary.csv / report.md). The `evaluate` metrics in `metrics/` and the `score` /
`selfcheck` commands are thin shells over these modules.
"""
