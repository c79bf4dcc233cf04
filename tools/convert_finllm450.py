#!/usr/bin/env python3
"""Convert the FinLLM 450 Excel workbook to data/finllm450.jsonl and FinLLM450_資料問題清單.csv.

Usage: python tools/convert_finllm450.py --xlsx "FinLLM 450 評測訓練題.xlsx" [--sheet NAME]
           [--out data/finllm450.jsonl] [--issues FinLLM450_資料問題清單.csv]
Needs openpyxl (pip install openpyxl). Exit status: 0 written, 2 bad input (nothing written).
Same as `tw-fin-eval convert-finllm450`; see tw_fin_eval/sources/finllm450/ for the accepted headers."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tw_fin_eval.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["convert-finllm450", *sys.argv[1:]]))
