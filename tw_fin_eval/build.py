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
from tw_fin_eval import subsets as registry
from tw_fin_eval.finding import Issue
from tw_fin_eval.jsonl import atomic_writer, write_jsonl
from tw_fin_eval.overlay import check_overlay, load_overlays
from tw_fin_eval.subsets.spec import TRANSLATED, SubsetSpec
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


def build_subset(subset: str | SubsetSpec, sources: Path, translations: Path,
                 verification: Path | None = None) -> SubsetResult:
    """A translated subset: English items + overlays → the items whose overlay is complete and rule-clean."""
    spec = registry.get_spec(subset) if isinstance(subset, str) else subset
    items = spec.load_source(sources)
    overlays = load_overlays(spec, items, translations)
    res = SubsetResult(spec.name, spec.dataset, len(items), units=spec.units, verb=spec.verb)
    for item in items:
        reason = item.fields.get("ungrounded")
        if reason:
            res.excluded.append({"id": item.source_id, "reason": reason})
            continue
        ov = overlays.get(item.source_id)
        if ov is None:
            res.untranslated += 1
            continue
        issues = check_overlay(spec, item, ov)
        if issues:
            res.failing.extend(issues)
            res.failing_ids.append(item.source_id)
            continue
        res.records.append(spec.finish(spec.make_record(item, ov), item))
    # record post-processing: gold verdicts (gold_status, corrected gold); bad verdict files stop the build
    gold = apply_verdicts(spec.name, items, res.records, verification or paths.VERIFICATION_DIR)
    if gold is not None:
        res.extra["gold"] = gold.line()
    if spec.summary_extra is not None:
        res.extra.update(spec.summary_extra(res.records, items))
    return res


def produce_subset(spec: SubsetSpec, sources: Path) -> SubsetResult | None:
    """A generated or original subset (no overlays); None when its generator or source is absent here."""
    records = spec.produce(sources)
    if records is None:
        return None
    records = [spec.finish(r) for r in records]
    return SubsetResult(spec.name, spec.dataset, len(records), records=records, units=spec.units, verb=spec.verb)


def run_build(sources: Path, translations: Path, out_dir: Path, *, subsets: list[str] | None = None,
              finchain: bool = True, verification: Path | None = None) -> list[SubsetResult]:
    """Assemble every subset (or only the named translated ones), then write data/ and the manifest.
    `finchain=False` skips the subsets that need no overlays (generated and original ones)."""
    if subsets is None:
        chosen = [s for s in registry.built() if finchain or s.kind == TRANSLATED]
    else:
        chosen = [registry.get_spec(n) for n in subsets]
    results = []
    for spec in chosen:
        res = (build_subset(spec, sources, translations, verification) if spec.kind == TRANSLATED
               else produce_subset(spec, sources))
        if res is not None:
            results.append(res)
    # everything assembled: now write (each file atomically)
    for res in results:
        write_jsonl(out_dir / registry.get_spec(res.subset).data_file, res.records)
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
    parser.add_argument("--subset", action="append", choices=[s.name for s in registry.translated()],
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
