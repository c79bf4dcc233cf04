#!/usr/bin/env python3
"""Runner peak memory with replies of the size limit in flight (issue 17: < 300 MB with 8 of them).

The local test server runs in its own process and answers every request with a reply whose body is just
under `--max-response-bytes` (16 MiB by default), after a short latency so all `--concurrency` replies
are in flight together. The runner runs in a child process (stdlib only, `python -S`), which reports
its own peak RSS (`ru_maxrss`) when done.

    python benchmarks/run_memory.py [--items 16] [--concurrency 8] [--limit-bytes 16777216]

Prints one Markdown row: items, concurrency, reply size, wall time, runner peak RSS, the peak RSS of the same
command run again (everything done: it only reads the large runs file), pass/fail vs 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUDGET_MB = 300.0


def child(args: argparse.Namespace) -> int:
    """Run the runner in this process and print {"ok", "failed", "maxrss_mb"} as JSON."""
    sys.path.insert(0, str(REPO))
    from tw_fin_eval.runner.loop import RunConfig, run

    with open(os.devnull, "w") as devnull:
        summary = run(RunConfig(data=[args.data], base_url=args.url, model="bench", out=args.out,
                                concurrency=args.concurrency, progress=False, timeout=120,
                                max_response_bytes=args.limit_bytes), out_stream=devnull)
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    print(json.dumps({"ok": summary.ok, "failed": summary.failed, "maxrss_mb": rss_kb / 1024}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=16)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--limit-bytes", type=int, default=16 * 2**20)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)

    reply_bytes = args.limit_bytes - 4096  # content just under the limit, with room for the JSON around it
    env = dict(os.environ, PYTHONPATH=str(REPO))
    server = subprocess.Popen([sys.executable, "-m", "tw_fin_eval.testing.openai_server", "--port", "0",
                               "--no-record", "--latency", "0.5", "--faults", f"big={args.items}",
                               "--big-bytes", str(reply_bytes)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = server.stdout.readline().strip() if server.stdout else ""
        if not line.startswith("listening on "):
            raise SystemExit(f"server did not start: {line!r}")
        url = line.removeprefix("listening on ")
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "d.jsonl"
            with data.open("w", encoding="utf-8") as fh:
                for i in range(args.items):
                    fh.write(json.dumps({"id": f"mem-{i:04d}", "dataset": "FinQA-TW", "task_type": "numeric",
                                         "messages": [{"role": "user", "content": f"第 {i} 題"}]},
                                        ensure_ascii=False) + "\n")
            out = Path(tmp) / "o.jsonl"
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-S", __file__, "--child", "--url", url, "--data", str(data),
                                   "--out", str(out), "--concurrency", str(args.concurrency),
                                   "--limit-bytes", str(args.limit_bytes)],
                                  capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                                       if k != "PYTHONPATH"})
            wall = time.perf_counter() - t0
            if proc.returncode != 0:
                raise SystemExit(f"runner failed: {proc.stderr[-2000:]}")
            res = json.loads(proc.stdout.strip().splitlines()[-1])
            out_mb = out.stat().st_size / 2**20
            # the same command again: everything is done, so this measures reading the big runs file
            again = subprocess.run(proc.args, capture_output=True, text=True,
                                   env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
            resume_mb = json.loads(again.stdout.strip().splitlines()[-1])["maxrss_mb"]
    finally:
        server.terminate()
        server.wait(timeout=10)
    verdict = "pass" if max(res["maxrss_mb"], resume_mb) < BUDGET_MB and res["ok"] == args.items else "FAIL"
    print(f"runner peak RSS with {args.concurrency} replies of {reply_bytes / 2**20:.2f} MiB in flight "
          f"(limit {args.limit_bytes / 2**20:g} MiB), Python {sys.version.split()[0]}")
    print("| items | concurrency | reply MiB | ok | failed | runs file MiB | wall s | runner peak RSS MB "
          "| resume (all done) peak RSS MB | < 300 MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|")
    print(f"| {args.items} | {args.concurrency} | {reply_bytes / 2**20:.2f} | {res['ok']} | {res['failed']} | "
          f"{out_mb:.0f} | {wall:.1f} | {res['maxrss_mb']:.0f} | {resume_mb:.0f} | {verdict} |")
    return 0 if verdict == "pass" else 1


if __name__ == "__main__":
    sys.exit(main())
