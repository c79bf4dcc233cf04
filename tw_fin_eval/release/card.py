"""The dataset card (hf_release/README.md): YAML generated with `MetadataConfigs` and `DatasetInfosDict`
(never hand-written), a body rendered from card_template.md with counts measured from the data."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

from tw_fin_eval import DATA_VERSION, __version__, paths
from tw_fin_eval.subsets import DEFAULT_SUBSET
from tw_fin_eval.subsets.spec import SubsetSpec
from tw_fin_eval.verification import audit

TEMPLATE_PATH = Path(__file__).with_name("card_template.md")
DEFAULT_REPO_ID = "APMIC/tw_fin_eval_basic"
DEFAULT_CONFIG = DEFAULT_SUBSET
SPLIT = "test"
PARQUET_NAME = "test-00000-of-00001.parquet"
PRETTY_NAME = "tw_fin_eval_basic：台灣金融評測集基礎能力版"
# The Hub validates `language` against ISO 639 codes, so zh-TW goes to language_details (BCP 47) and tags.
LANGUAGE = ["zh", "en"]
LANGUAGE_DETAILS = ["zh-TW", "en-US"]
TAGS = ["finance", "taiwan", "traditional-chinese", "zh-TW", "evaluation", "benchmark", "numerical-reasoning"]
LICENSE_NAME = "tw-fin-eval-basic-derivative"
LICENSE_LINK = "LICENSES.md"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


@dataclass
class ConfigStats:
    """What the card says about one config, all measured from its records."""

    config: SubsetSpec
    items: int
    upstream: int | None = None  # source items (from data/build_manifest.json), when known
    task_types: Counter = field(default_factory=Counter)
    details: list[str] = field(default_factory=list)
    num_bytes: int = 0
    parquet_bytes: int = 0

    @property
    def path_pattern(self) -> str:
        return f"data/{self.config.name}/{SPLIT}-*"


def measure(config: SubsetSpec, records: list[dict[str, Any]], manifest: dict[str, Any] | None) -> ConfigStats:
    stats = ConfigStats(config, len(records), task_types=Counter(r.get("task_type") for r in records))
    entry = (manifest or {}).get(config.name) or {}
    if isinstance(entry.get("kept"), int):
        stats.upstream = entry["kept"]
    if config.card is not None and config.card.details is not None:
        stats.details.extend(config.card.details(records))
    return stats


def size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "1M<n<10M"


def card_data(stats: list[ConfigStats], features: dict[str, datasets.Features]) -> DatasetCardData:
    total = sum(s.items for s in stats)
    data = DatasetCardData(
        language=LANGUAGE,
        license="other",
        license_name=LICENSE_NAME,
        license_link=LICENSE_LINK,
        language_details=LANGUAGE_DETAILS,
        pretty_name=PRETTY_NAME,
        task_categories=["question-answering", "text-generation"],
        size_categories=[size_category(total)],
        multilinguality=["translation"],
        language_creators=["machine-generated", "found"],
        annotations_creators=["found"],
        tags=TAGS,
    )
    MetadataConfigs({
        s.config.name: {
            "data_files": [{"split": SPLIT, "path": s.path_pattern}],
            **({"default": True} if s.config.name == DEFAULT_CONFIG else {}),
        }
        for s in stats
    }).to_dataset_card_data(data)
    DatasetInfosDict({
        s.config.name: DatasetInfo(
            features=features[s.config.name],
            splits=datasets.SplitDict({SPLIT: datasets.SplitInfo(SPLIT, num_bytes=s.num_bytes, num_examples=s.items)}),
            download_size=s.parquet_bytes,
            dataset_size=s.num_bytes,
        )
        for s in stats
    }).to_dataset_card_data(data)
    return data


def render_body(stats: list[ConfigStats], *, repo_id: str, generated: str, template: str | None = None) -> str:
    text = template if template is not None else TEMPLATE_PATH.read_text(encoding="utf-8")
    rows = []
    for s in stats:
        src, url = s.config.card.upstream if s.config.card else (s.config.dataset, "")
        upstream = f"{s.upstream:,}" if s.upstream is not None else "—"
        rows.append(f"| `{s.config.name}` | {s.config.dataset} | {s.items:,} | {upstream} | "
                    f"{', '.join(f'`{t}`' for t in s.task_types)} | [{src}]({url}) |")
    partial = [s for s in stats if s.upstream is not None and s.items < s.upstream]
    coverage = ""
    if partial:
        coverage = ("部分子集仍在翻譯中，本版只收錄已完成並通過規則檢查的題目："
                    + "、".join(f"{s.config.dataset} {s.items:,}/{s.upstream:,}" for s in partial)
                    + "。*Some subsets are still being translated; only finished, rule-checked items are included.*")
    details = []
    for s in stats:
        details.append(f"**{s.config.dataset}**（`{s.config.name}`）：{s.config.card.description if s.config.card else s.config.description}\n")
        details.extend(f"- {line}" for line in s.details)
        details.append("")
    citations = "\n\n".join(f"```bibtex\n{s.config.citation}\n```" for s in stats if s.config.citation)
    values = {
        "version": DATA_VERSION,
        "release_version": __version__,
        "generated": generated,
        "subset_rows": "\n".join(rows),
        "total_items": f"{sum(s.items for s in stats):,}",
        "coverage_note": coverage,
        "subset_details": "\n".join(details).rstrip(),
        "repo_id": repo_id,
        "config_list": ", ".join(s.config.name for s in stats),
        "citations": citations,
        "gold_audit": _audit_note(stats),
    }

    def fill(m: re.Match[str]) -> str:
        if m.group(1) not in values:
            raise KeyError(f"card template: unknown placeholder {{{{{m.group(1)}}}}}")
        return values[m.group(1)]

    return _PLACEHOLDER.sub(fill, text)


def _audit_note(stats: list[ConfigStats]) -> str:
    """The measured residual error rate of the verified gold (the latest verification/audit_<seed>.jsonl), when a
    gold-verified subset is in the release."""
    if not any(s.config.gold_verification for s in stats):
        return ""
    line = audit.card_line(paths.VERIFICATION_DIR)
    return f"{line}（docs/VERIFICATION.md）。\n" if line else ""


def render_card(stats: list[ConfigStats], features: dict[str, datasets.Features], *, repo_id: str,
                generated: str) -> DatasetCard:
    data = card_data(stats, features)
    body = render_body(stats, repo_id=repo_id, generated=generated)
    return DatasetCard(f"---\n{data.to_yaml()}\n---\n\n{body}")
