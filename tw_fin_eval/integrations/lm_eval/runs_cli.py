"""`tw-fin-eval lm-eval-runs`: lm-eval's logged samples (`--log_samples`) → a runs file, so
`tw-fin-eval score` gives the full report (per category, bare-numeral counts, …) of an lm-eval run."""

from __future__ import annotations

import argparse
import sys

from tw_fin_eval.data_input import expand_globs as expand
from tw_fin_eval.errors import InputError
from tw_fin_eval.integrations.lm_eval.harness import sample_to_run_line
from tw_fin_eval.jsonl import atomic_writer, dumps, iter_jsonl


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("samples", nargs="+", help="samples_tw_fin_eval_*.jsonl written by lm_eval --log_samples "
                                                   "(globs are expanded)")
    parser.add_argument("--model", required=True, help="model name to record in the runs file")
    parser.add_argument("--out", required=True, help="runs file to write (replaced as a whole)")


def main(args: argparse.Namespace) -> int:
    lines: list[dict] = []
    seen: set[tuple] = set()
    for path in expand(args.samples):
        for lineno, sample in iter_jsonl(path):
            try:
                line = sample_to_run_line(sample, model=args.model)
            except InputError as exc:
                raise InputError(exc.message, path=path, line=lineno) from None
            key = (line["id"], line["turn"])
            if key in seen:
                raise InputError(f"a second sample for id {key[0]} turn {key[1]} (lm-eval --repeats is not "
                                 "supported: one generation per request)", path=path, line=lineno)
            seen.add(key)
            lines.append(line)
    with atomic_writer(args.out) as fh:
        for line in lines:
            fh.write(dumps(line) + "\n")
    print(f"wrote {args.out} ({len(lines)} generations)", file=sys.stderr)
    return 0
