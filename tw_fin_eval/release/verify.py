"""Checks of a written hf_release/ folder, run by `tw-fin-eval push` before anything leaves the machine:
the card's YAML parses and declares exactly the release configs with the declared features, every parquet
file has those features and the stated row count, every row passes the schema validation, nothing
internal is in the folder, and the zh-TW rule checker finds nothing in the released records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import datasets
import pyarrow.parquet as pq
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard

from tw_fin_eval import subsets
from tw_fin_eval.release.card import SPLIT
from tw_fin_eval.release.validate import record_errors
from tw_fin_eval.release.writer import LICENSES, forbidden_files
from tw_fin_eval.subsets import features_for


def _parquet_files(root: Path, pattern: str) -> list[Path]:
    return sorted(p for p in root.glob(pattern) if p.suffix == ".parquet")


def card_configs(root: Path) -> tuple[MetadataConfigs, DatasetInfosDict]:
    card = DatasetCard.load(root / "README.md")
    return MetadataConfigs.from_dataset_card_data(card.data), DatasetInfosDict.from_dataset_card_data(card.data)


def release_rows(root: Path, config: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for p in _parquet_files(root, f"data/{config}/{SPLIT}-*"):
        rows.extend(pq.read_table(p).to_pylist())
    return rows


def verify_release(root: Path, *, allow_partial: bool = False) -> list[str]:
    """Every problem found (empty list = fit to publish, apart from the zh-TW check)."""
    root = Path(root)
    if not root.is_dir():
        return [f"{root}: no release folder (run `tw-fin-eval release`)"]
    problems: list[str] = []
    if not (root / "README.md").is_file():
        return [f"{root}/README.md: missing (run `tw-fin-eval release`)"]
    try:
        metadata, infos = card_configs(root)
    except Exception as exc:  # any parse failure of the card is a refusal, with its reason
        return [f"{root}/README.md: card YAML does not parse: {exc}"]
    if not (root / LICENSES).is_file():
        problems.append(f"{root}/{LICENSES}: missing")
    problems.extend(f"{root}/{bad}" for bad in forbidden_files(root))

    wanted = {c.name for c in subsets.released()}
    present = set(metadata)
    for name in sorted(present - wanted):
        why = "never public" if name in subsets.SUBSETS else "unknown config"
        problems.append(f"README.md: config {name!r} declared ({why})")
    missing = sorted(wanted - present)
    if missing and not allow_partial:
        problems.append(f"README.md: release configs missing: {', '.join(missing)} (a partial release; "
                        f"pass --allow-partial to publish it anyway)")
    for name in sorted(present & wanted):
        declared = features_for(name)
        info = infos.get(name)
        if info is None or info.features != declared:
            problems.append(f"README.md: dataset_info features of {name!r} differ from the declared features")
        patterns: list[str] = []
        for df in metadata[name].get("data_files", []):
            if isinstance(df, dict) and df.get("split") == SPLIT:
                patterns.extend([df["path"]] if isinstance(df["path"], str) else df["path"])
        files = [f for pattern in patterns for f in _parquet_files(root, pattern)]
        if not files:
            problems.append(f"{name}: no parquet file matches {patterns}")
            continue
        rows = 0
        for f in files:
            schema = pq.read_schema(f)
            if datasets.Features.from_arrow_schema(schema) != declared:
                problems.append(f"{f.relative_to(root)}: parquet features differ from the declared features")
            rows += pq.read_metadata(f).num_rows
        expected = info.splits[SPLIT].num_examples if info and info.splits and SPLIT in info.splits else None
        if expected != rows:
            problems.append(f"{name}: the card says {expected} rows, the parquet files hold {rows}")
        seen: set[str] = set()
        for i, row in enumerate(release_rows(root, name)):
            errs = record_errors(row, subsets.SUBSETS[name], declared)
            if row.get("id") in seen:
                errs.append("duplicate id")
            seen.add(row.get("id"))
            if errs:
                problems.append(f"{name} row {i} id={row.get('id')}: {'; '.join(errs[:3])}")
                if len(problems) > 50:
                    return problems
    return problems


def zh_findings(root: Path) -> list[str]:
    """check-zh over every released record (the same rules as `tw-fin-eval check-zh data/`)."""
    from tw_fin_eval.zhcheck.records import check_records

    out: list[str] = []
    for c in subsets.released():
        for issue in check_records(release_rows(Path(root), c.name)):
            out.append(f"{c.name} id={issue.item_id} field={issue.field} [{issue.rule}] {issue.message}: {issue.text!r}")
    return out
