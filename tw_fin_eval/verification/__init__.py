"""Gold verification (issue 21): every FinQA item and ConvFinQA turn gets a reader's verdict.

- `program`: parse and execute FinQA/ConvFinQA programs (the one executor of the package).
- `locate`: find every program operand in the table / text, for readers (`tw-fin-eval verify-locate`).
- `verdicts`: the committed verdict files `verification/<subset>/*.jsonl`, their validation, and the build
  step that writes `gold_status` and the corrected gold into the records (`tw-fin-eval verify-check`).
"""
