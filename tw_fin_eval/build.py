"""`tw-fin-eval build`: English sources + zh-TW overlays → data/*.jsonl, with coverage per subset.

Only items whose overlay is complete and passes every rule enter data/. Nothing is written until every
subset is assembled and every check passed; then all data files and the manifest are written to
temporaries, fsynced and renamed into place together, so a failed or refused build (bad input, a full
disk) leaves the previous data/ exactly as it was.

Refusals: no overlays at all for a translated subset (a missing translations folder, a --translations
typo) stops the build (exit 2) unless --allow-empty. With --strict, a rule finding or a build that would
drop items the current data/ holds (--allow-shrink accepts that) exits 1 before anything is written."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tw_fin_eval import paths
from tw_fin_eval import subsets as registry
from tw_fin_eval.errors import InputError
from tw_fin_eval.finding import Issue
from tw_fin_eval.jsonl import AtomicFiles, dumps, iter_jsonl, output_error
from tw_fin_eval.overlay import check_overlay, load_overlays, overlay_files
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
    if spec.post_gold:
        by_id = {spec.id_format.format(item.index): item for item in items}
        for k, rec in enumerate(res.records):
            for hook in spec.post_gold:
                rec = hook(rec, by_id[rec["id"]])
            res.records[k] = rec
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


def _chosen(subsets: list[str] | None, finchain: bool) -> list[SubsetSpec]:
    if subsets is None:
        return [s for s in registry.built() if finchain or s.kind == TRANSLATED]
    return [registry.get_spec(n) for n in subsets]


def check_translations_present(specs: list[SubsetSpec], translations: Path) -> None:
    """Refuse to build a translated subset from no overlays at all: that is a missing folder or a typo, and
    it would replace the subset's data file by an empty one."""
    wanted = [s for s in specs if s.kind == TRANSLATED]
    if not wanted:
        return
    if not translations.is_dir():
        what = "is not a folder" if translations.exists() else "not found"
        raise InputError(f"translations folder {what} (a --translations typo?); pass --allow-empty to build "
                         "the translated subsets without overlays", path=translations)
    empty = [s.name for s in wanted if not overlay_files(translations, s)]
    if empty:
        raise InputError(f"no overlay files for {', '.join(empty)} (expected {translations}/<subset>/*.jsonl); "
                         "pass --allow-empty to build them without overlays", path=translations)


def assemble(sources: Path, translations: Path, *, subsets: list[str] | None = None, finchain: bool = True,
             verification: Path | None = None, allow_empty: bool = False) -> list[SubsetResult]:
    """Every subset (or only the named translated ones) in memory; nothing is written.
    `finchain=False` skips the subsets that need no overlays (generated and original ones)."""
    chosen = _chosen(subsets, finchain)
    if not allow_empty:
        check_translations_present(chosen, translations)
    results = []
    for spec in chosen:
        res = (build_subset(spec, sources, translations, verification) if spec.kind == TRANSLATED
               else produce_subset(spec, sources))
        if res is not None:
            results.append(res)
    return results


def dropped_items(results: list[SubsetResult], out_dir: Path) -> dict[str, list[str]]:
    """Per subset, the record ids its current data file holds that this build would not write."""
    out: dict[str, list[str]] = {}
    for res in results:
        path = out_dir / registry.get_spec(res.subset).data_file
        if not path.is_file():
            continue
        try:
            before = [rec.get("id") for _, rec in iter_jsonl(path)]
        except InputError as exc:  # an unreadable old file is replaced, never a reason to keep it
            print(f"build: note: the current {path.name} is unreadable ({exc.message}); not compared",
                  file=sys.stderr)
            continue
        now = {r["id"] for r in res.records}
        gone = [str(i) for i in before if i not in now]
        if gone:
            out[res.subset] = gone
    return out


def manifest_of(results: list[SubsetResult]) -> dict[str, Any]:
    return {
        res.subset: {
            "dataset": res.dataset, "total": res.total, "kept": res.kept, "translated": len(res.records),
            "untranslated": res.untranslated, "failing": res.failing_ids, "excluded": res.excluded,
            **res.extra,
        }
        for res in results
    }


def write_outputs(results: list[SubsetResult], out_dir: Path) -> None:
    """Every data file and the manifest, all or nothing (temporaries, fsync, then renamed together).
    An OSError (full disk, read-only folder) becomes a clear InputError; data/ is then unchanged."""
    try:
        with AtomicFiles() as files:
            for res in results:
                files.write_lines(out_dir / registry.get_spec(res.subset).data_file,
                                  (dumps(r) + "\n" for r in res.records))
            files.write_text(out_dir / MANIFEST, json.dumps(manifest_of(results), ensure_ascii=False, indent=1))
    except OSError as exc:
        raise output_error(exc, "build output") from None


def run_build(sources: Path, translations: Path, out_dir: Path, *, subsets: list[str] | None = None,
              finchain: bool = True, verification: Path | None = None,
              allow_empty: bool = False) -> list[SubsetResult]:
    """Assemble every subset (or only the named translated ones), then write data/ and the manifest."""
    results = assemble(sources, translations, subsets=subsets, finchain=finchain, verification=verification,
                       allow_empty=allow_empty)
    write_outputs(results, out_dir)
    return results


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", help=f"English source folder (default: ${paths.SOURCES_ENV} or ../shared/sources)")
    parser.add_argument("--translations", default=str(paths.TRANSLATIONS_DIR), help="overlay folder (default: %(default)s)")
    parser.add_argument("--verification", default=str(paths.VERIFICATION_DIR),
                        help="gold verdict folder (default: %(default)s)")
    parser.add_argument("--out", default=str(paths.DATA_DIR), help="output folder (default: %(default)s)")
    parser.add_argument("--subset", action="append", choices=[s.name for s in registry.translated()],
                        help="build only these subsets (repeatable; FinChain is skipped then)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1, writing nothing, when any overlay fails a rule or the build would drop items "
                             "that data/ holds now (CI mode)")
    parser.add_argument("--allow-shrink", action="store_true",
                        help="with --strict: accept a build that drops items data/ holds now")
    parser.add_argument("--allow-empty", action="store_true",
                        help="build translated subsets that have no overlay files (writes them empty)")
    parser.add_argument("--show-failures", type=int, default=20, metavar="N",
                        help="print the first N rule findings (default: %(default)s)")


def main(args: argparse.Namespace) -> int:
    sources = paths.sources_dir(args.sources)
    out = Path(args.out)
    results = assemble(sources, Path(args.translations), subsets=args.subset, verification=Path(args.verification),
                       allow_empty=args.allow_empty)
    for res in results:
        print(res.line())
    failing = [i for r in results for i in r.failing]
    for issue in failing[: args.show_failures]:
        print("  " + issue.format(), file=sys.stderr)
    if len(failing) > args.show_failures:
        print(f"  … {len(failing) - args.show_failures} more findings (tw-fin-eval check-zh translations/)", file=sys.stderr)
    dropped = dropped_items(results, out)
    for name, ids in dropped.items():
        file = registry.get_spec(name).data_file
        print(f"build: {'' if args.strict and not args.allow_shrink else 'note: '}this build drops {len(ids):,} "
              f"item(s) that {out / file} holds now (e.g. {', '.join(ids[:3])})", file=sys.stderr)
    if args.strict and failing:
        print(f"build: --strict: {len(failing)} rule finding(s); nothing written", file=sys.stderr)
        return 1
    if args.strict and dropped and not args.allow_shrink:
        print("build: --strict: the build would shrink data/ (pass --allow-shrink if that is intended); "
              "nothing written", file=sys.stderr)
        return 1
    write_outputs(results, out)
    print(f"wrote {out}/ ({sum(len(r.records) for r in results):,} records)")
    return 0
