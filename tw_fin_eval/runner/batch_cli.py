"""`tw-fin-eval batch export|import`: run a model through the OpenAI Batch API or `vllm run-batch` (the
fastest and cheapest way for a whole set) and score the result like a live run.

    tw-fin-eval batch export --data data/finqa_tw_test.jsonl --model my-model --out batch_input.jsonl
    vllm run-batch -i batch_input.jsonl -o batch_output.jsonl --model my-model
    tw-fin-eval batch import batch_output.jsonl --requests batch_input.jsonl --out runs/my_model.jsonl
    tw-fin-eval score --data data/finqa_tw_test.jsonl --runs runs/my_model.jsonl --out reports/my_model
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tw_fin_eval.errors import InputError
from tw_fin_eval.runner import batch
from tw_fin_eval.runner.cli import add_data_arguments, add_generation_arguments, data_specs, extra_from_json
from tw_fin_eval.runner.requests import HISTORY_MODES, RESERVED_BODY_KEYS, RequestSettings, load_tasks


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = __doc__.split("\n\n", 1)[1]
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    exp = sub.add_parser("export", help="write the batch input JSONL (one line per request the runner would send)")
    add_data_arguments(exp)
    exp.add_argument("--model", required=True, help="model name put in every request body")
    add_generation_arguments(exp)
    exp.add_argument("--history", choices=HISTORY_MODES, default="gold",
                     help="ConvFinQA history: gold (default; every turn exported); self is refused")
    exp.add_argument("--out", required=True, help="batch input file to write (replaced as a whole)")
    imp = sub.add_parser("import", help="turn batch output into a runs file for `score`")
    imp.add_argument("outputs", nargs="+", metavar="OUTPUT",
                     help="batch output file(s): the output file and, from the OpenAI Batch API, the error file")
    imp.add_argument("--requests", required=True, metavar="INPUT", help="the batch input file that was submitted")
    imp.add_argument("--out", required=True, help="runs file to write")
    imp.add_argument("--force", action="store_true", help="replace --out if it exists")


def _export(args: argparse.Namespace) -> int:
    extra = extra_from_json(args.extra)
    for name in RESERVED_BODY_KEYS:
        if name in extra:
            raise InputError(f"--extra must not set {name!r} (use --model / the data files)", field="extra")
    if extra.get("stream"):
        raise InputError("--extra must not turn on streaming: batch outputs hold whole responses", field="extra")
    settings = RequestSettings(model=args.model, temperature=args.temperature, max_tokens=args.max_tokens,
                               extra=extra, history=args.history, seed=args.seed)
    if args.history != "gold":  # refuse before reading any data
        list(batch.export_lines([], settings))
    tasks = load_tasks(data_specs(args), configs=args.config, limit=args.limit, sample=args.sample,
                       seed=args.sample_seed, history=args.history, allocation=args.sample_allocation)
    per_dataset = batch.write_export(args.out, tasks, settings)
    parts = ", ".join(f"{k} {v}" for k, v in sorted(per_dataset.items()))
    print(f"wrote {args.out}: {len(tasks)} requests ({parts}) for model {args.model}")
    if len(tasks) > 50_000:
        print("note: the OpenAI Batch API takes at most 50,000 requests per file; split it (vllm run-batch has "
              "no such limit)", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and out.stat().st_size > 0 and not args.force:
        raise InputError("exists; choose another --out or pass --force to replace it", path=out)
    s = batch.import_batch(args.outputs, args.requests, out)
    why = ", ".join(f"{k} ×{v}" for k, v in s.error_kinds.most_common())
    print(f"wrote {out}: {s.ok + s.errors} of {s.requests} requests ({s.ok} ok, {s.errors} error lines"
          + (f": {why}" if why else "") + ")")
    if s.missing:
        print(f"batch import: {len(s.missing)} requests have no output line (not run; a live `tw-fin-eval run` "
              f"with the same settings asks them): {', '.join(s.missing[:5])}" + (" …" if len(s.missing) > 5 else ""),
              file=sys.stderr)
    return 0 if not (s.missing or s.errors) else 1


def main(args: argparse.Namespace) -> int:
    return _export(args) if args.action == "export" else _import(args)
