#!/usr/bin/env python3
"""Score a runs file: per-item results, summary CSV and a Markdown report (same as `tw-fin-eval score`).

    python tools/score.py --data data/*.jsonl --runs runs/my_model.jsonl --out reports/my_model \
        --judge-base-url http://judge-host:8080/v1 --judge-model judge-model

Works from a checkout without installing: the repository root is put on sys.path.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tw_fin_eval.scoring.cli import run_path  # noqa: E402

if __name__ == "__main__":
    sys.exit(run_path())
