#!/usr/bin/env python3
"""Run the questions against an OpenAI-compatible server (vLLM, llama.cpp server, any gateway).

Standard library only: copy the repository to a bare GPU box and run it by path, no install needed.

    python tools/run.py --data data/finqa_tw_test.jsonl data/convfinqa_tw_dev.jsonl \\
        --base-url http://localhost:8000/v1 --model my-model --out runs/my_model.jsonl --limit 100

Re-run the same command after an interruption: finished items are skipped, failed ones retried.
Same as `python -m tw_fin_eval run ...`.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tw_fin_eval.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["run", *sys.argv[1:]]))
