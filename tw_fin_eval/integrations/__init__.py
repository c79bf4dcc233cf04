"""Adapters to the harnesses people already run: `lm_eval/` holds lm-evaluation-harness tasks
(`lm_eval --include_path "$(tw-fin-eval lm-eval-path)" --tasks tw_fin_eval_basic …`)."""
