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

from tw_fin_eval import DATA_VERSION
from tw_fin_eval.configs import ConfigInfo

TEMPLATE_PATH = Path(__file__).with_name("card_template.md")
DEFAULT_REPO_ID = "APMIC/tw_fin_eval_basic"
DEFAULT_CONFIG = "finqa"
SPLIT = "test"
PARQUET_NAME = "test-00000-of-00001.parquet"
PRETTY_NAME = "tw_fin_eval_basic：台灣金融評測集基礎能力版"
# The Hub validates `language` against ISO 639 codes, so zh-TW goes to language_details (BCP 47) and tags.
LANGUAGE = ["zh", "en"]
LANGUAGE_DETAILS = ["zh-TW", "en-US"]
TAGS = ["finance", "taiwan", "traditional-chinese", "zh-TW", "evaluation", "benchmark", "numerical-reasoning"]
LICENSE_NAME = "tw-fin-eval-basic-derivative"
LICENSE_LINK = "LICENSES.md"
UPSTREAM = {
    "finqa": ("FinQA test", "https://github.com/czyssrs/FinQA"),
    "convfinqa": ("ConvFinQA dev", "https://github.com/czyssrs/ConvFinQA"),
    "finchain": ("FinChain (taxonomy; our own templates)", "https://arxiv.org/abs/2506.02515"),
    "financeagent": ("Finance Agent Benchmark v1 public", "https://github.com/vals-ai/finance-agent"),
}
# Short descriptions without counts: every number on the card is measured, never typed in.
DESCRIPTIONS = {
    "finqa": "FinQA 測試集的台灣繁中版：根據財報表格與證據句做數值推理（單題）。"
             "*FinQA test set in Taiwan Chinese: numerical reasoning over a financial table and evidence sentences.*",
    "convfinqa": "ConvFinQA 開發集的台灣繁中版：針對同一份表格的多輪數值對話，第 k 輪帶入前面各輪的標準答案。"
                 "*ConvFinQA dev set in Taiwan Chinese: multi-turn numerical conversations over one table.*",
    "finchain": "FinChain-TW：依 FinChain 分類自行撰寫的繁中模板產生的逐步財務計算題，附機器可讀的中間步驟數值。"
                "*Step-by-step financial calculations from our own zh-TW templates, with machine-readable intermediate steps.*",
    "financeagent": "Finance Agent Benchmark 公開集的台灣繁中版：關於美國公司申報文件的開放題，附參考答案與評分要點；"
                    "此處以 closed-book 評測。*Open questions about U.S. filings with a reference answer and rubric; closed-book here.*",
}
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


@dataclass
class ConfigStats:
    """What the card says about one config, all measured from its records."""

    config: ConfigInfo
    items: int
    upstream: int | None = None  # source items (from data/build_manifest.json), when known
    task_types: Counter = field(default_factory=Counter)
    details: list[str] = field(default_factory=list)
    num_bytes: int = 0
    parquet_bytes: int = 0

    @property
    def path_pattern(self) -> str:
        return f"data/{self.config.name}/{SPLIT}-*"


def _counts(counter: Counter, order: list[str] | None = None) -> str:
    keys = order or [k for k, _ in counter.most_common()]
    return "、".join(f"{k} {counter[k]:,}" for k in keys if counter.get(k))


def measure(config: ConfigInfo, records: list[dict[str, Any]], manifest: dict[str, Any] | None) -> ConfigStats:
    stats = ConfigStats(config, len(records), task_types=Counter(r.get("task_type") for r in records))
    entry = (manifest or {}).get(config.name) or {}
    if isinstance(entry.get("kept"), int):
        stats.upstream = entry["kept"]
    d = stats.details
    if config.name == "finqa":
        d.append(f"證據設定 evidence setting：{_counts(Counter((r.get('context') or {}).get('setting') for r in records))}")
        d.append(f"計算類型 subcategory：{_counts(Counter(r.get('subcategory') for r in records))}")
        yes_no = sum(1 for r in records if r.get("answer_value") is None)
        d.append(f"是非題 yes/no items（answer_value = null）：{yes_no:,}")
    elif config.name == "convfinqa":
        turns = sum(len(r.get("turns") or []) for r in records)
        d.append(f"對話 conversations：{len(records):,}，輪數 turns：{turns:,}")
        d.append(f"對話型態 subcategory：{_counts(Counter(r.get('subcategory') for r in records))}")
        yes_no = sum(1 for r in records for t in r.get("turns") or [] if t.get("answer_value") is None)
        d.append(f"是非題輪數 yes/no turns：{yes_no:,}")
    elif config.name == "finchain":
        domains = Counter(r.get("category") for r in records)
        topics = {r.get("subcategory") for r in records}
        templates = {r.get("template_id") for r in records}
        seeds = {r.get("seed") for r in records}
        d.append(f"領域 domains：{len(domains)}（{_counts(domains)}）；主題 topics：{len(topics)}；"
                 f"模板 templates：{len(templates)}；種子 seeds：{len(seeds)}")
        d.append(f"難度 difficulty：{_counts(Counter(r.get('difficulty') for r in records), ['基礎', '中級', '進階'])}")
        d.append(f"答案類型 answer_type：{_counts(Counter(r.get('answer_type') for r in records))}")
    elif config.name == "financeagent":
        d.append(f"題型 question types：{_counts(Counter(r.get('subcategory') for r in records))}")
        crit = Counter(c.get("operator") for r in records for c in r.get("rubric") or [])
        d.append(f"評分要點 rubric criteria：{_counts(crit)}")
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
        src, url = UPSTREAM.get(s.config.name, (s.config.dataset, ""))
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
        details.append(f"**{s.config.dataset}**（`{s.config.name}`）：{DESCRIPTIONS.get(s.config.name, s.config.description)}\n")
        details.extend(f"- {line}" for line in s.details)
        details.append("")
    citations = "\n\n".join(f"```bibtex\n{s.config.citation}\n```" for s in stats if s.config.citation)
    values = {
        "version": DATA_VERSION,
        "generated": generated,
        "subset_rows": "\n".join(rows),
        "total_items": f"{sum(s.items for s in stats):,}",
        "coverage_note": coverage,
        "subset_details": "\n".join(details).rstrip(),
        "repo_id": repo_id,
        "config_list": ", ".join(s.config.name for s in stats),
        "citations": citations,
    }

    def fill(m: re.Match[str]) -> str:
        if m.group(1) not in values:
            raise KeyError(f"card template: unknown placeholder {{{{{m.group(1)}}}}}")
        return values[m.group(1)]

    return _PLACEHOLDER.sub(fill, text)


def render_card(stats: list[ConfigStats], features: dict[str, datasets.Features], *, repo_id: str,
                generated: str) -> DatasetCard:
    data = card_data(stats, features)
    body = render_body(stats, repo_id=repo_id, generated=generated)
    return DatasetCard(f"---\n{data.to_yaml()}\n---\n\n{body}")
