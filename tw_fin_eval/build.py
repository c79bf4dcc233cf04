"""`tw-fin-eval build`: English sources + zh-TW overlays → data/*.jsonl, with coverage per subset.

Only items whose overlay is complete and passes every rule enter data/. Every file is written through a
temporary file and renamed, and only after every subset was assembled without error, so a failed build
leaves the previous data/ untouched."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval import paths
from tw_fin_eval.configs import CONFIGS
from tw_fin_eval.jsonl import atomic_writer, write_jsonl
from tw_fin_eval.overlay import Issue, check_overlay, load_overlays
from tw_fin_eval.records import RECORD_BUILDERS
from tw_fin_eval.sources import SUBSETS, load_subset
from tw_fin_eval.verification.verdicts import apply_verdicts

MANIFEST = "build_manifest.json"


@dataclass
class SubsetResult:
    subset: str
    dataset: str
    total: int
    records: list[dict[str, Any]] = field(default_factory=list)
    excluded: list[dict[str, str]] = field(default_factory=list)  # ungrounded source items (id, reason)
    failing: list[Issue] = field(default_factory=list)
    failing_ids: list[str] = field(default_factory=list)
    untranslated: int = 0
    units: str = "items"
    verb: str = "translated"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def kept(self) -> int:
        return self.total - len(self.excluded)

    def line(self) -> str:
        text = f"{self.dataset:<16} {len(self.records):>5,}/{self.kept:,} {self.units} {self.verb}"
        if self.verb == "translated":
            text += f", {len(self.failing_ids)} failing, {self.untranslated:,} untranslated"
        if self.excluded:
            text += f", {len(self.excluded)} excluded (see {MANIFEST})"
        for k, v in self.extra.items():
            text += f", {k} {v}"
        return text


def build_subset(subset: str, sources: Path, translations: Path, verification: Path | None = None) -> SubsetResult:
    items = load_subset(subset, sources)
    overlays = load_overlays(subset, items, translations)
    res = SubsetResult(subset, SUBSETS[subset].dataset, len(items))
    make = RECORD_BUILDERS[subset]
    for item in items:
        reason = item.fields.get("ungrounded")
        if reason:
            res.excluded.append({"id": item.source_id, "reason": reason})
            continue
        ov = overlays.get(item.source_id)
        if ov is None:
            res.untranslated += 1
            continue
        issues = check_overlay(subset, item, ov)
        if issues:
            res.failing.extend(issues)
            res.failing_ids.append(item.source_id)
            continue
        res.records.append(make(item, ov))
    # record post-processing: gold verdicts (gold_status, corrected gold); bad verdict files stop the build
    gold = apply_verdicts(subset, items, res.records, verification or paths.VERIFICATION_DIR)
    if gold is not None:
        res.extra["gold"] = gold.line()
    if subset == "convfinqa":
        res.units = "conversations"
        done = sum(len(r["turns"]) for r in res.records)
        total = sum(len(it.fields["turns"]) for it in items)
        res.extra["turns"] = f"{done:,}/{total:,}"
    return res


def build_finchain() -> SubsetResult | None:
    try:
        from finchain_tw_templates.generate import generate_records
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("finchain_tw_templates"):
            return None
        raise
    records = generate_records(seeds=10)
    res = SubsetResult("finchain", "FinChain-TW", len(records), records=records, verb="generated from our templates")
    return res


def build_finsearchcomp(sources: Path) -> SubsetResult | None:
    """FinSearchComp is not translated: its records come straight from the source (optional config,
    never in hf_release/). Skipped when the source folder is absent."""
    if not (sources / "finsearchcomp").is_dir():
        return None
    from tw_fin_eval.sources.finsearchcomp import build_records

    records = build_records(sources)
    return SubsetResult("finsearchcomp", "FinSearchComp", len(records), records=records,
                        verb="loaded (original zh-CN/en; not in the zh-TW release)")


def run_build(sources: Path, translations: Path, out_dir: Path, *, subsets: list[str] | None = None,
              finchain: bool = True, verification: Path | None = None) -> list[SubsetResult]:
    results = [build_subset(s, sources, translations, verification) for s in (subsets or list(SUBSETS))]
    if finchain and subsets is None:
        for extra in (build_finchain(), build_finsearchcomp(sources)):
            if extra is not None:
                results.append(extra)
    # everything assembled: now write (each file atomically)
    files = {name: cfg.data_file for name, cfg in CONFIGS.items()}
    for res in results:
        write_jsonl(out_dir / files[res.subset], res.records)
    manifest = {
        res.subset: {
            "dataset": res.dataset, "total": res.total, "kept": res.kept, "translated": len(res.records),
            "untranslated": res.untranslated, "failing": res.failing_ids, "excluded": res.excluded,
            **res.extra,
        }
        for res in results
    }
    with atomic_writer(out_dir / MANIFEST) as fh:
        json.dump(manifest, fh, ensure_ascii=False, indent=1)
    return results


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", help=f"English source folder (default: ${paths.SOURCES_ENV} or ../shared/sources)")
    parser.add_argument("--translations", default=str(paths.TRANSLATIONS_DIR), help="overlay folder (default: %(default)s)")
    parser.add_argument("--verification", default=str(paths.VERIFICATION_DIR),
                        help="gold verdict folder (default: %(default)s)")
    parser.add_argument("--out", default=str(paths.DATA_DIR), help="output folder (default: %(default)s)")
    parser.add_argument("--subset", action="append", choices=list(SUBSETS),
                        help="build only these subsets (repeatable; FinChain is skipped then)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when any overlay fails a rule")
    parser.add_argument("--show-failures", type=int, default=20, metavar="N",
                        help="print the first N rule findings (default: %(default)s)")


def main(args: argparse.Namespace) -> int:
    sources = paths.sources_dir(args.sources)
    results = run_build(sources, Path(args.translations), Path(args.out), subsets=args.subset,
                        verification=Path(args.verification))
    for res in results:
        print(res.line())
    failing = [i for r in results for i in r.failing]
    for issue in failing[: args.show_failures]:
        print("  " + issue.format(), file=sys.stderr)
    if len(failing) > args.show_failures:
        print(f"  … {len(failing) - args.show_failures} more findings (tw-fin-eval check-zh translations/)", file=sys.stderr)
    print(f"wrote {Path(args.out)}/ ({sum(len(r.records) for r in results):,} records)")
    return 1 if (args.strict and failing) else 0
