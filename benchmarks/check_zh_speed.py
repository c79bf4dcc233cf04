#!/usr/bin/env python3
"""Benchmark: `check_zh` throughput on N MB of Taiwan text (goal: 10 MB in seconds on the 2-core CI machine).

Usage: python benchmarks/check_zh_speed.py [--mb 10]"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tw_fin_eval.zhcheck.measure import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["speed", *sys.argv[1:]]))
