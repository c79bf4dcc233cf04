#!/usr/bin/env python3
"""How long does a model decision take? Two full-size runs (every unit of data/*.jsonl: 6,222 when all subsets are
built), written as the runner writes them (request messages included; gold answers with a seeded share replaced by
wrong ones, different per run), then in fresh processes: `tw-fin-eval score` on each and `tw-fin-eval compare` of
the two reports — all outputs (results.jsonl, details.parquet, summary.csv, report.md/html, results.json,
compare.json/md/html). Goal (issue 18): score + score + compare ≤ 5 s wall on this 2-core machine.

    python benchmarks/reports_speed.py                 # data/*.jsonl as built
    python benchmarks/reports_speed.py --repeat 3 --keep /tmp/reports_speed
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import DEFAULT_DATA, REPO, compile_package, data_files, data_records

from tw_fin_eval.jsonl import dumps
from tw_fin_eval.runner.requests import messages_sha256, record_tasks
from tw_fin_eval.scoring import selfcheck

GOAL_S = 5.0


def write_runs(path: Path, records: list[dict], model: str, wrong_share: float, seed: int) -> int:
    rng = random.Random(seed)
    outputs = selfcheck.build_outputs(records)
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for rec in records:
            for task in record_tasks(rec):
                answer = outputs.get(task.key, "答案：無法判斷")
                if rng.random() < wrong_share:
                    answer = "經計算後\n答案：0.123"
                fh.write(dumps({"id": task.record_id, "turn": task.turn, "dataset": task.dataset, "model": model,
                                "messages_sha256": messages_sha256(task.messages), "messages": task.messages,
                                "response": answer, "reasoning": None, "finish_reason": "stop",
                                "usage": {"prompt_tokens": 900, "completion_tokens": 150},
                                "latency_s": round(rng.uniform(0.5, 4.0), 3), "attempts": 1, "error": None,
                                "created": "2026-01-01T00:00:00Z", "temperature": 0.0, "max_tokens": 2048}) + "\n")
                n += 1
    return n


def timed(cmd: list[str]) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode('utf-8', 'replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", default=DEFAULT_DATA)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="write runs and reports here instead of a temporary folder")
    args = ap.parse_args()
    files = data_files(args.data)
    records = data_records(files)
    compile_package(dict(os.environ))  # as installed (see _common.compile_package)
    with tempfile.TemporaryDirectory(prefix="reports_speed_") as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        runs_a, runs_b = folder / "runs_a.jsonl", folder / "runs_b.jsonl"
        n = write_runs(runs_a, records, "model-a", 0.30, 1)
        write_runs(runs_b, records, "model-b", 0.32, 2)
        py = [sys.executable, "-m", "tw_fin_eval"]
        totals, cpus = [], []
        for _ in range(args.repeat):
            steps = [timed([*py, "score", "--data", *files, "--runs", str(runs_a), "--out", str(folder / "a"),
                            "--quiet"]),
                     timed([*py, "score", "--data", *files, "--runs", str(runs_b), "--out", str(folder / "b"),
                            "--quiet"]),
                     timed([*py, "compare", str(folder / "a"), str(folder / "b"), "--out", str(folder / "cmp"),
                            "--quiet"])]
            totals.append(sum(w for w, _ in steps))
            cpus.append(sum(c for _, c in steps))
            print("score A {:.2f}s, score B {:.2f}s, compare {:.2f}s (wall); total {:.2f}s wall, {:.2f}s CPU".format(
                *(w for w, _ in steps), totals[-1], cpus[-1]), flush=True)
    print(f"units per run: {n:,}; best total {min(totals):.2f}s wall (median {statistics.median(totals):.2f}s), "
          f"CPU {min(cpus):.2f}s; load average {os.getloadavg()[0]:.1f}")
    print(f"goal ≤ {GOAL_S:.0f} s wall: {'met' if min(totals) <= GOAL_S else 'NOT met'} (best run)")
    return 0 if min(totals) <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
