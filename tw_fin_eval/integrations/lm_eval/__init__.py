"""lm-evaluation-harness tasks for tw_fin_eval_basic, scored by our scorer.

    pip install "tw-fin-eval-basic[lm-eval]"          # lm_eval; no torch needed for API models
    lm_eval --include_path "$(tw-fin-eval lm-eval-path)" --tasks tw_fin_eval_basic \\
        --model local-chat-completions --apply_chat_template \\
        --model_args model=my-model,base_url=http://localhost:8000/v1/chat/completions \\
        --metadata '{"release": "hf_release"}' --log_samples --output_path lm_eval_out

Tasks: the group `tw_fin_eval_basic` (macro average) of `tw_fin_eval_finqa`, `tw_fin_eval_convfinqa`
(one document per turn, gold history) and `tw_fin_eval_finchain`. The YAML files here are the task
configs; `utils.py` is what they name with `!function`; the logic lives in `harness.py` (no lm-eval
import) and `task.py` (the lm-eval Task class)."""

from __future__ import annotations

from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent


def include_path() -> Path:
    """The folder to pass to `lm_eval --include_path`."""
    return TASKS_DIR
