#!/usr/bin/env python3
"""Does scoring stream? FinChain-TW generated with many seeds per template (1,000 seeds → 290,000 units), a runs
file of the same size written as the runner writes it (request messages included), then in fresh processes:
`tw-fin-eval score` over it, and `tw-fin-eval run` resuming it (every line done, so nothing is sent). Reports wall
time and peak RSS of each process; run two sizes to see that time grows linearly and memory does not.
Goals (issue 18): peak RSS ≤ 600 MB for both at 290,000 units.

    python benchmarks/score_stream_memory.py                      # 100 and 1,000 seeds
    python benchmarks/score_stream_memory.py --seeds 1000 --keep /tmp/fc   # keep the files
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from finchain_tw_templates.generate import build_record, ordered_specs, release_ranks, run_template  # noqa: E402
from tw_fin_eval.jsonl import dumps  # noqa: E402
from tw_fin_eval.runner.requests import messages_sha256  # noqa: E402
from tw_fin_eval.scoring import selfcheck  # noqa: E402

GOAL_MB = 600


def write_inputs(folder: Path, seeds: int) -> tuple[Path, Path, int]:
    """Records and gold-answer runs lines, streamed to disk (this process never holds them all)."""
    data, runs = folder / f"finchain_{seeds}.jsonl", folder / f"runs_{seeds}.jsonl"
    ranks, n = release_ranks(), 0
    with data.open("w", encoding="utf-8") as fd, runs.open("w", encoding="utf-8") as fr:
        for spec in ordered_specs():
            for seed in range(seeds):
                rec = build_record(spec, seed, run_template(spec, seed), ranks)
                fd.write(dumps(rec) + "\n")
                (key, answer), = selfcheck.build_outputs([rec]).items()
                fr.write(dumps({"id": key[0], "turn": key[1], "dataset": rec["dataset"], "model": "gold",
                                "messages_sha256": messages_sha256(rec["messages"]), "messages": rec["messages"],
                                "response": answer, "reasoning": None, "finish_reason": "stop",
                                "usage": {"prompt_tokens": 300, "completion_tokens": 80}, "latency_s": 1.0,
                                "attempts": 1, "error": None, "created": "2026-01-01T00:00:00Z"}) + "\n")
                n += 1
    return data, runs, n


def measure(cmd: list[str]) -> tuple[float, float, int]:
    """(wall seconds, peak RSS in MB, exit code) of one fresh process."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(err[-2000:], file=sys.stderr)
    return wall, usage.ru_maxrss / 1024, code  # ru_maxrss is in KiB on Linux


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, nargs="+", default=[100, 1000], help="seeds per template (one run each)")
    ap.add_argument("--keep", help="write the inputs and reports here instead of a temporary folder")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="stream_mem_") as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for seeds in args.seeds:
            t0 = time.perf_counter()
            data, runs, n = write_inputs(folder, seeds)
            gen = time.perf_counter() - t0
            mb = (data.stat().st_size + runs.stat().st_size) / 1e6
            score = measure([sys.executable, "-m", "tw_fin_eval", "score", "--data", str(data), "--runs", str(runs),
                             "--out", str(folder / f"report_{seeds}"), "--quiet"])
            resume = measure([sys.executable, "-m", "tw_fin_eval", "run", "--data", str(data), "--base-url",
                              "http://127.0.0.1:9/v1", "--model", "gold", "--out", str(runs)])
            rows.append((seeds, n, mb, gen, score, resume))
            print(f"{n:,} units ({seeds} seeds/template; inputs {mb:,.0f} MB, written in {gen:.0f}s): "
                  f"score {score[0]:.1f}s, peak RSS {score[1]:.0f} MB (exit {score[2]}); "
                  f"resume {resume[0]:.1f}s, peak RSS {resume[1]:.0f} MB (exit {resume[2]})", flush=True)
    if len(rows) > 1:
        (_, n0, _, _, sc0, rs0), (_, n1, _, _, sc1, rs1) = rows[0], rows[-1]
        print(f"time per 1,000 units: score {1000 * sc0[0] / n0:.2f}s → {1000 * sc1[0] / n1:.2f}s, "
              f"resume {1000 * rs0[0] / n0:.2f}s → {1000 * rs1[0] / n1:.2f}s (linear if about equal)")
    big = rows[-1]
    ok = big[4][1] <= GOAL_MB and big[5][1] <= GOAL_MB and big[4][2] == 0 and big[5][2] == 0
    print(f"goal peak RSS ≤ {GOAL_MB} MB at {big[1]:,} units: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
