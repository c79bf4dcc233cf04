#!/usr/bin/env python3
"""Cold and warm `datasets.load_dataset` time per config of hf_release/ (goal: ≤ 1 s cold per config).

    python benchmarks/load_speed.py [--release hf_release] [--repeat 3] [--config finqa ...]

cold  = load into a fresh, empty cache folder (parquet → Arrow conversion included);
warm  = load again from that cache;
stream = streaming=True, time to the first row.
Each figure is the median of --repeat runs. The library's one-time import and lazy initialisation are
paid by an untimed warm-up load first, and reported on their own line, so the first config is not
charged for them. Runs offline (HF_HUB_OFFLINE=1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parent.parent


def _load(release: Path, name: str, **kw):
    import datasets

    t = time.perf_counter()
    ds = datasets.load_dataset(str(release), name, split="test", **kw)
    if kw.get("streaming"):
        rows = iter(ds)
        next(rows)  # time to the first row
        seconds = time.perf_counter() - t
        # drain (untimed): a parquet reader left suspended, even after close(), can abort the interpreter
        # at exit ("terminate called without an active exception", measured with datasets 5.2)
        for _ in rows:
            pass
        return ds, seconds
    return ds, time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default=str(REPO / "hf_release"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--config", action="append", help="only these configs (default: all in the card)")
    args = parser.parse_args(argv)
    release = Path(args.release)
    if not (release / "README.md").is_file():
        print(f"{release}/README.md not found: run `tw-fin-eval release` first", file=sys.stderr)
        return 2

    t0 = time.perf_counter()
    import datasets

    import_s = time.perf_counter() - t0
    datasets.disable_progress_bars()
    names = args.config or datasets.get_dataset_config_names(str(release))
    with tempfile.TemporaryDirectory() as warmup:  # one-time lazy initialisation, not charged to a config
        init_s = _load(release, names[0], cache_dir=warmup)[1]
    print(f"datasets {datasets.__version__}: import {import_s:.2f} s, first load (untimed warm-up) {init_s:.2f} s")
    print(f"{'config':<14} {'rows':>6} {'cold s':>8} {'warm s':>8} {'stream s':>9}")
    worst = 0.0
    for name in names:
        cold, warm, stream = [], [], []
        rows = 0
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(_load(release, name, cache_dir=cache)[1])
                ds, seconds = _load(release, name, cache_dir=cache)
                warm.append(seconds)
                rows = len(ds)
            stream.append(_load(release, name, streaming=True)[1])
        c, w, s = statistics.median(cold), statistics.median(warm), statistics.median(stream)
        worst = max(worst, c)
        print(f"{name:<14} {rows:>6} {c:>8.3f} {w:>8.3f} {s:>9.3f}")
    print(f"slowest cold load: {worst:.3f} s ({'meets' if worst <= 1.0 else 'misses'} the ≤ 1 s goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
