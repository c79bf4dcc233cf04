#!/usr/bin/env python3
"""Check zh-TW text for Simplified characters, PRC terms, lost numerals, table shape and English residue.

Usage: python tools/check_zh.py translations/ data/finqa_tw_test.jsonl runs/my_model.jsonl notes.txt
Exit status: 0 clean, 1 findings, 2 unreadable input. Same as `tw-fin-eval check-zh`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tw_fin_eval.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["check-zh", *sys.argv[1:]]))
