#!/usr/bin/env python3
"""How fast is scoring end to end? Every gold answer of every subset, written as a model output, scored by
`python -m tw_fin_eval score` in a fresh process (interpreter start, imports, reading, scoring, writing the
three reports) — the wall time a user waits. Goal: ≤ 2 s for the whole set on a 2-core machine.

    python benchmarks/score_speed.py                 # data/*.jsonl as built
    python benchmarks/score_speed.py --full-size     # records replicated to the release's sizes
                                                     # (FinQA 1,147; ConvFinQA 421 conv./1,490 turns;
                                                     #  FinChain 2,890; FinanceAgent 50)
    python benchmarks/score_speed.py --data some/*.jsonl --repeat 5
    python benchmarks/score_speed.py --cold-bytecode   # also compile every module from source in each run

The package's modules are byte-compiled once beforehand (`python -m compileall tw_fin_eval`, into the
git-ignored __pycache__ folders), as `pip install` does and as any second run finds them: this machine sets
PYTHONDONTWRITEBYTECODE=1, so without that step every fresh process recompiles the package from source
(≈ 0.12 s) — a cost an installed user does not pay. `--cold-bytecode` measures that case instead.
"""

from __future__ import annotations

import argparse
import copy
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from _common import DEFAULT_DATA, REPO, compile_package, data_files, data_records

from tw_fin_eval.jsonl import write_jsonl
from tw_fin_eval.scoring import samples, selfcheck

FULL_SIZE = {"FinQA-TW": 1147, "ConvFinQA-TW": 421, "FinChain-TW": 2890, "FinanceAgent-TW": 50}


def replicate(records: list[dict], target: int) -> list[dict]:
    out = []
    for i in range(target):
        rec = copy.deepcopy(records[i % len(records)])
        if i >= len(records):
            rec["id"] = f"{rec['id']}-r{i // len(records)}"
        out.append(rec)
    return out


def full_size(records: list[dict]) -> list[dict]:
    by_ds: dict[str, list[dict]] = {}
    for r in records:
        by_ds.setdefault(r["dataset"], []).append(r)
    for r in samples.sample_records():  # subsets not built yet are stood in for by the synthetic samples
        if r["dataset"] in FULL_SIZE and r["dataset"] not in by_ds:
            by_ds.setdefault(r["dataset"] + "*", []).append(r)
    out = []
    for ds, recs in by_ds.items():
        target = FULL_SIZE.get(ds.rstrip("*"))
        out.extend(replicate(recs, target) if target else recs)
    if not any(r["dataset"] == "ConvFinQA-TW" for r in records):  # 421 conversations of ~3.5 turns
        convs = [r for r in out if r["dataset"] == "ConvFinQA-TW"]
        for r in convs:
            r["turns"] = (r["turns"] * 2)[:3 + zlib.crc32(r["id"].encode()) % 2]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", default=DEFAULT_DATA)
    ap.add_argument("--full-size", action="store_true", help="replicate records to the release's sizes")
    ap.add_argument("--repeat", type=int, default=5, help="runs; the best is the figure (default 5)")
    ap.add_argument("--cold-bytecode", action="store_true",
                    help="no byte-compiled cache: each run compiles the package from source")
    args = ap.parse_args()
    records = data_records(data_files(args.data))
    if args.full_size:
        records = full_size(records)
    with tempfile.TemporaryDirectory(prefix="score_speed_") as tmp:
        data = Path(tmp) / "data.jsonl"
        runs = Path(tmp) / "runs.jsonl"
        write_jsonl(data, records)
        outputs = selfcheck.build_outputs(records)
        write_jsonl(runs, ({"id": k[0], "turn": k[1], "model": "gold", "response": v, "error": None}
                           for k, v in outputs.items()))
        cmd = [sys.executable, "-m", "tw_fin_eval", "score", "--data", str(data), "--runs", str(runs),
               "--out", str(Path(tmp) / "out"), "--quiet"]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        if not args.cold_bytecode:  # as installed: the package's bytecode exists
            compile_package(env)
        times, cpus = [], []
        for _ in range(args.repeat):
            if args.cold_bytecode:  # the package's cached bytecode removed: this run compiles it from source
                for cache in (REPO / "tw_fin_eval").rglob("__pycache__"):
                    shutil.rmtree(cache, ignore_errors=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
            if proc.returncode != 0:
                print(proc.stderr, file=sys.stderr)
                return 1
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import tw_fin_eval.scoring.cli"], cwd=REPO, env=env, check=True)
        import_only = time.perf_counter() - start
    dataset_of = {r["id"]: r["dataset"] for r in records}
    per_ds: dict[str, int] = {}
    for rid, _turn in outputs:
        per_ds[dataset_of[rid]] = per_ds.get(dataset_of[rid], 0) + 1
    n = len(outputs)
    best, med = min(times), statistics.median(times)
    print(f"records: {len(records)}; scored units (items + conversation turns): {n}")
    print("units per dataset: " + ", ".join(f"{k} {v}" for k, v in sorted(per_ds.items())))
    print("bytecode: " + ("compiled in every run (--cold-bytecode)" if args.cold_bytecode else
                          "compiled beforehand, as installed (--cold-bytecode to include compiling)"))
    print(f"wall time of `tw-fin-eval score` (fresh process, {args.repeat} runs): best {best:.2f}s, "
          f"median {med:.2f}s; interpreter + imports alone {import_only:.2f}s")
    print(f"CPU time (user+sys) of the scoring process: best {min(cpus):.2f}s, median {statistics.median(cpus):.2f}s "
          f"(wall time stretches beyond CPU time when other work shares the 2 cores; load average now "
          f"{os.getloadavg()[0]:.1f})")
    print(f"throughput: {n / best:,.0f} units/s (best wall), {n / med:,.0f} units/s (median wall)")
    print(f"goal ≤ 2 s wall: {'met' if best <= 2.0 else 'NOT met'} (best run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
