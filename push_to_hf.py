#!/usr/bin/env python3
"""Upload hf_release/ to the Hugging Face Hub as a **private** dataset repo (same as `tw-fin-eval push`).

    python -m tw_fin_eval build && python -m tw_fin_eval release   # writes hf_release/
    python push_to_hf.py --dry-run                                  # planned files (path, size, sha256); no network
    HF_TOKEN=... python push_to_hf.py --repo-id APMIC/tw_fin_eval_basic
    HF_TOKEN=... python push_to_hf.py --repo-id APMIC/tw_fin_eval_basic --public   # only when meant

Refuses (exit 2) when the release fails its schema checks or `check-zh` finds anything in its records.
The token is read from $HF_TOKEN only and never printed.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tw_fin_eval.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["push", *sys.argv[1:]]))
