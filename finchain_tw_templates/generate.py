"""Generate FinChain-TW records (numeric_cot, docs/FORMATS.md §1) from the registered templates.

    python finchain_tw_templates/generate.py --seeds 10 --out data/finchain_tw.jsonl
    python finchain_tw_templates/generate.py --seeds 3 --topics bond_pricing,kyc --out /tmp/x.jsonl
    python finchain_tw_templates/generate.py --seeds 10 --seed-offset 100 --exclude-templates wacc_basic1 ...

Every template runs with `random.Random(f"{template_id}:{seed}")` for seed in
[seed_offset, seed_offset + seeds); templates are ordered by (DOMAINS order, topic, template_id) and ids
of the shipped seeds 0–9 run finchain_tw-0001… in that order; other seeds carry the seed in the id
(finchain_tw-bond_pricing_basic1-s123, see `record_id`). Same code + same arguments → byte-identical output. Coverage
(topics, templates, items per difficulty, numeric vs categorical) goes to stderr.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repo root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    if (Path(__file__).resolve().parent.parent / "code" / "tw_fin_eval").is_dir():  # a release keeps it in code/
        sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "code"))

import finchain_tw_templates.topics  # noqa: E402,F401  (importing registers the templates)
from finchain_tw_templates.core import DIFFICULTIES, DOMAINS, REGISTRY, Problem, TemplateSpec  # noqa: E402

DATASET = "FinChain-TW"
SOURCE = {
    "name": "FinChain",
    "paper": "arXiv 2506.02515",
    "url": "https://arxiv.org/abs/2506.02515",
    "license": "Apache-2.0 (upstream code); templates rewritten by APMIC",
}
from tw_fin_eval import DATA_VERSION  # noqa: E402  (a constant of the main package's stdlib-only __init__)

META = {"translation": "原創在地化模板（非翻譯）", "review_status": "unreviewed", "version": DATA_VERSION}
DEFAULT_SEEDS = 10  # the shipped release: seeds 0–9 of every template
_DOMAIN_ORDER = {d: i for i, d in enumerate(DOMAINS)}


class SelectionError(ValueError):
    """An unknown topic / template name on the command line."""


def ordered_specs(topics_filter: Iterable[str] | None = None,
                  exclude_templates: Iterable[str] | None = None) -> list[TemplateSpec]:
    """Registered templates in release order. `topics_filter` may name topic keys or domain keys."""
    specs = sorted(REGISTRY.values(), key=lambda s: (_DOMAIN_ORDER[s.domain], s.topic, s.template_id))
    if topics_filter is not None:
        wanted = set(topics_filter)
        known = {s.topic for s in specs} | {s.domain for s in specs}
        unknown = sorted(wanted - known)
        if unknown:
            raise SelectionError(f"unknown topic or domain: {', '.join(unknown)} "
                                 f"(known topics: {', '.join(sorted({s.topic for s in specs}))})")
        specs = [s for s in specs if s.topic in wanted or s.domain in wanted]
    if exclude_templates is not None:
        excluded = set(exclude_templates)
        unknown = sorted(excluded - set(REGISTRY))
        if unknown:
            raise SelectionError(f"unknown template id: {', '.join(unknown)}")
        specs = [s for s in specs if s.template_id not in excluded]
    return specs


def run_template(spec: TemplateSpec, seed: int) -> Problem:
    rng = random.Random(f"{spec.template_id}:{seed}")
    try:
        problem = spec.func(rng)
    except Exception as exc:  # name the template and seed: the traceback alone does not say which
        raise RuntimeError(f"template {spec.template_id} failed at seed {seed}: {exc}") from exc
    if not isinstance(problem, Problem):
        raise TypeError(f"template {spec.template_id} returned {type(problem).__name__}, not Problem")
    return problem


def _answer_display(problem: Problem) -> str:
    if problem.answer_display is not None:
        return problem.answer_display
    if problem.answer_type == "numeric":
        raise ValueError("a numeric problem needs its gold display (built by Chain.numeric)")
    return problem.answer_text


def record_id(spec: TemplateSpec, seed: int, ranks: dict[str, int] | None = None) -> str:
    """A stable id for (template, seed), whatever else is selected. The shipped seeds 0–9 keep the release's
    ids 「finchain_tw-0001」… (the template's rank in release order × 10 + seed + 1); any other seed carries
    the template and the seed, 「finchain_tw-bond_pricing_basic1-s123」, so items generated with other seeds
    never collide with the release or with each other."""
    if 0 <= seed < DEFAULT_SEEDS:
        rank = (ranks or release_ranks())[spec.template_id]
        return f"finchain_tw-{rank * DEFAULT_SEEDS + seed + 1:04d}"
    return f"finchain_tw-{spec.template_id}-s{seed}"


def release_ranks() -> dict[str, int]:
    """Each registered template's position in release order (over all templates, not a selection)."""
    return {s.template_id: i for i, s in enumerate(ordered_specs())}


def build_record(spec: TemplateSpec, seed: int, problem: Problem,
                 ranks: dict[str, int] | None = None) -> dict[str, Any]:
    from tw_fin_eval.prompts import finchain_messages  # stdlib-only modules of the main package
    from tw_fin_eval.schema import base_record

    for step in problem.steps:
        if not math.isfinite(step.value):
            raise ValueError(f"template {spec.template_id} seed {seed}: step {step.label!r} is {step.value}")
    return base_record(
        id=record_id(spec, seed, ranks),
        dataset=DATASET,
        source={**SOURCE, "orig_id": f"{spec.template_id}:{seed}"},
        category=DOMAINS[spec.domain],
        subcategory=spec.topic,
        task_type="numeric_cot",
        difficulty=spec.difficulty,
        question=problem.question,
        answer=_answer_display(problem),
        answer_value=problem.answer_value,
        answer_text=problem.answer_text,
        answer_decimals=problem.answer_decimals,
        extra={"solution": problem.solution, "steps": [{"label": s.label, "value": s.value} for s in problem.steps],
               "answer_type": problem.answer_type, "template_id": spec.template_id, "seed": seed},
        messages=finchain_messages(problem.question, problem.answer_type),
        original_en=None,
        meta=dict(META),
    )


def generate_records(seeds: int = 10, topics: Iterable[str] | None = None,
                     exclude_templates: Iterable[str] | None = None, seed_offset: int = 0) -> list[dict[str, Any]]:
    """All records in release order (the in-process entry point used by `tw-fin-eval build`)."""
    if seeds < 1:
        raise SelectionError("--seeds must be at least 1")
    records = []
    ranks = release_ranks()
    for spec in ordered_specs(topics, exclude_templates):
        for seed in range(seed_offset, seed_offset + seeds):
            problem = run_template(spec, seed)
            records.append(build_record(spec, seed, problem, ranks))
    return records


def coverage(records: list[dict[str, Any]]) -> str:
    """A plain-text coverage summary."""
    domains = Counter(r["category"] for r in records)
    topic_set = {(r["category"], r["subcategory"]) for r in records}
    templates = {r["template_id"] for r in records}
    diff = Counter(r["difficulty"] for r in records)
    kinds = Counter(r["answer_type"] for r in records)
    lines = [
        f"FinChain-TW: {len(records)} items, {len(domains)} domains, {len(topic_set)} topics, "
        f"{len(templates)} templates",
        "difficulty: " + ", ".join(f"{d} {diff.get(d, 0)}" for d in DIFFICULTIES),
        f"answer_type: numeric {kinds.get('numeric', 0)}, categorical {kinds.get('categorical', 0)}",
        "per domain: " + ", ".join(f"{d} {n}" for d, n in domains.items()),
    ]
    loaded_domains = {r["category"] for r in records}
    missing = [zh for zh in DOMAINS.values() if zh not in loaded_domains]
    if missing:
        lines.append("domains with no templates: " + ", ".join(missing))
    return "\n".join(lines)


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=10, help="seeds per template (default 10)")
    parser.add_argument("--seed-offset", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--out", required=True, help="output JSONL (written atomically)")
    parser.add_argument("--topics", type=_csv, default=None,
                        help="comma-separated topic or domain keys (default: all)")
    parser.add_argument("--exclude-templates", type=_csv, default=None,
                        help="comma-separated template ids to leave out")
    args = parser.parse_args(argv)

    from tw_fin_eval.jsonl import write_jsonl

    try:
        records = generate_records(args.seeds, args.topics, args.exclude_templates, args.seed_offset)
    except SelectionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not records:
        print("error: no templates selected", file=sys.stderr)
        return 2
    try:
        n = write_jsonl(args.out, records)
    except OSError as exc:  # e.g. the output folder is a file or not writable; nothing half-written
        print(f"error: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(coverage(records), file=sys.stderr)
    print(f"wrote {n} records to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
