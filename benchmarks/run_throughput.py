#!/usr/bin/env python3
"""Runner throughput against the zero-latency local OpenAI-compatible server.

The server runs in its own process (python -m tw_fin_eval.testing.openai_server), so the runner's
numbers are not flattered by sharing a GIL with it — nor hurt by it. Each row is a full runner run:
read the records, send every request through ChatClient, append and fsync the runs file.

    python benchmarks/run_throughput.py [--n 2000] [--concurrency 1 8 32 64]

Prints a Markdown table: requests/s, wall time per request (at concurrency 1 the whole round trip:
runner + HTTP + server) and the runner process's CPU time per request (its own overhead, independent
of how busy the machine is).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tw_fin_eval.runner.loop import RunConfig, run  # noqa: E402


def start_server() -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "tw_fin_eval.testing.openai_server", "--port", "0", "--no-record"],
                            stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline().strip() if proc.stdout else ""
    if not line.startswith("listening on "):
        proc.kill()
        raise SystemExit(f"server did not start: {line!r}")
    return proc, line.removeprefix("listening on ")


def write_records(path: Path, n: int, tag: str) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            rec = {"id": f"bench-{tag}-{i:06d}", "dataset": "FinQA-TW", "task_type": "numeric",
                   "messages": [{"role": "system", "content": "你是一位嚴謹的台灣財務分析師。"},
                                {"role": "user", "content": f"表格：…\n\n問題：第 {i} 題的營收成長率是多少？"}]}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="requests per concurrency level (default 2000)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32, 64])
    parser.add_argument("--warmup", type=int, default=200)
    args = parser.parse_args(argv)

    server, url = start_server()
    rows = []
    devnull = open(os.devnull, "w")  # the runner's summary line; the table is what we print
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmpdir = Path(tmp)
            warm = tmpdir / "warm.jsonl"
            write_records(warm, args.warmup, "warm")
            run(RunConfig(data=[str(warm)], base_url=url, model="bench", out=str(tmpdir / "warm.out.jsonl"),
                          concurrency=8, progress=False), out_stream=devnull)
            for conc in args.concurrency:
                data = tmpdir / f"c{conc}.jsonl"
                out = tmpdir / f"c{conc}.out.jsonl"
                write_records(data, args.n, f"c{conc}")
                t0 = time.perf_counter()
                cpu0 = time.process_time()
                summary = run(RunConfig(data=[str(data)], base_url=url, model="bench", out=str(out),
                                        concurrency=conc, progress=False, timeout=30),
                              out_stream=devnull)
                wall = time.perf_counter() - t0
                cpu = time.process_time() - cpu0  # this process only: the runner's own cost
                lines = out.read_text(encoding="utf-8").splitlines()
                lat = sorted(json.loads(x)["latency_s"] for x in lines)
                if summary.ok != args.n or summary.failed:
                    print(f"warning: concurrency {conc}: {summary.ok} ok, {summary.failed} failed", file=sys.stderr)
                rows.append((conc, args.n, wall, args.n / wall, 1000 * wall / args.n, 1000 * cpu / args.n,
                             1000 * lat[len(lat) // 2], 1000 * lat[int(len(lat) * 0.99) - 1]))
    finally:
        server.terminate()
        server.wait(timeout=10)
        devnull.close()

    print(f"runner throughput vs local zero-latency server (separate process), {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}")
    try:
        load = f" · load average {os.getloadavg()[0]:.2f}"
    except OSError:
        load = ""
    print(f"(runner CPU ms/req = CPU time of the runner process per request: its own overhead{load})")
    print("| concurrency | requests | wall s | req/s | wall ms/req | runner CPU ms/req | p50 latency ms | p99 latency ms |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for conc, n, wall, rps, ms, cpu_ms, p50, p99 in rows:
        print(f"| {conc} | {n} | {wall:.2f} | {rps:.0f} | {ms:.2f} | {cpu_ms:.2f} | {p50:.2f} | {p99:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
