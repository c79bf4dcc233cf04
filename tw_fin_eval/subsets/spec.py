"""The declared shape of a subset (lm-evaluation-harness's TaskConfig idea): one frozen `SubsetSpec` per
subset, written in its own module under tw_fin_eval/subsets/ and listed in the registry
(tw_fin_eval/subsets/__init__.py). Generic code — build, overlays, translation todo, check-zh, release,
card, review sample, the `datasets` builder script, CLI choices — reads these fields and never branches
on a subset's name.

Importing a spec is cheap: features are a function (they need `datasets`), sources and converters are
imported only when called."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tw_fin_eval.overlay import Overlay, OverlaySpec
from tw_fin_eval.schema import GOLD_REASONS, GOLD_STATUSES, GOLD_SWEEP_CLASSES

if TYPE_CHECKING:
    from tw_fin_eval.sources.base import SourceItem

Record = dict[str, Any]

# how a subset's data/ file comes to be
TRANSLATED = "translated"  # English source + zh-TW overlays → `tw-fin-eval build`
GENERATED = "generated"    # produced by our own code (FinChain-TW templates) in `tw-fin-eval build`
ORIGINAL = "original"      # upstream records used as they are (not zh-TW) in `tw-fin-eval build`
CONVERTED = "converted"    # written by its own command (FinLLM450's workbook converter), never by build
KINDS = (TRANSLATED, GENERATED, ORIGINAL, CONVERTED)


@dataclass(frozen=True)
class CardSpec:
    """What the dataset card says about a released subset (every number on it is measured)."""

    upstream: tuple[str, str]  # (what it derives from, link)
    description: str  # zh-TW + English, without counts
    details: Callable[[list[Record]], list[str]] | None = None  # measured lines for the card


@dataclass(frozen=True)
class SubsetSpec:
    name: str  # the config name: load_dataset(..., name), data/<name>/ in the release, --subset NAME
    dataset: str  # the `dataset` field of its records (FinQA-TW …)
    data_file: str  # file name under data/
    description: str  # one paragraph (builder config description)
    citation: str  # BibTeX ("" for none)
    kind: str  # one of KINDS
    task_types: tuple[str, ...]  # the task_type values its records carry
    features: Callable[[], dict[str, Any]]  # the typed datasets features (imports `datasets` when called)
    in_release: bool = True  # part of the public Hugging Face release
    optional: bool = False  # the builder script offers it only when its data file exists
    gold_verification: bool = False  # its golds are programs read and checked (verification/, docs/VERIFICATION.md)
    conversational: bool = False  # its records are conversations (`turns`): one gold unit per turn, else per record
    reference_text_gold: bool = False  # its gold `answer` is a translated reference text graded by a rubric, not a value
    # TRANSLATED subsets: the source adapter module (load(root) -> list[SourceItem]), the overlay, the record
    source: str | None = None
    id_format: str = ""  # record id from the item's 1-based official position, e.g. "finqa_tw-test-{:04d}"
    overlay: OverlaySpec | None = None
    make_record: Callable[[SourceItem, Overlay], Record] | None = None
    # GENERATED / ORIGINAL subsets: the records (None when its generator or source is not available here)
    produce: Callable[[Path], list[Record] | None] | None = None
    # record post-processing hooks, applied in order to every built record (e.g. a verification overlay that
    # adds fields): (record, English item or None) → record
    post: tuple[Callable[[Record, SourceItem | None], Record], ...] = ()
    # hooks applied once the gold is final (after the verification overlay): (record, English item) → record
    post_gold: tuple[Callable[[Record, SourceItem], Record], ...] = ()
    # build summary: what an item is called, what happened to it, extra counts from (records, source items)
    units: str = "items"
    verb: str = "translated"
    summary_extra: Callable[[list[Record], list[SourceItem]], dict[str, Any]] | None = None
    card: CardSpec | None = None  # None: never on the card
    # review sample (TRANSLATED subsets): the stratum of an English item (None: not sampled)
    review_stratum: Callable[[SourceItem], str] | None = None
    # the order of a breakdown's groups where it is not alphabetical, e.g. (("difficulty", ("基礎", "中級", "進階")),):
    # reports list the groups so (undeclared values after them, alphabetically)
    group_order: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # reports: a "<dataset>: pass rate and mean score" section (rule-scored MCQ beside judged pass/score), one
    # table per (label, item field), e.g. (("ability", "category"),); () = no such section
    pass_rate_breakdowns: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"subset {self.name!r}: kind {self.kind!r} is not one of {KINDS}")
        if self.kind == TRANSLATED and not (self.source and self.id_format and self.overlay and self.make_record):
            raise ValueError(f"subset {self.name!r}: a translated subset needs source, id_format, overlay and "
                             "make_record")
        if self.kind in (GENERATED, ORIGINAL) and self.produce is None:
            raise ValueError(f"subset {self.name!r}: a {self.kind} subset needs produce")
        if self.in_release and self.card is None:
            raise ValueError(f"subset {self.name!r}: a released subset needs a card")

    def load_source(self, root: Path) -> list[SourceItem]:
        """The English items of a translated subset, in the official order."""
        import importlib

        if self.source is None:
            raise ValueError(f"subset {self.name!r} has no English source")
        return importlib.import_module(self.source).load(root)

    def record_id(self, index: int) -> str:
        """The record id of the item at its 1-based official position (`id_format`; verification verdicts
        are keyed by these ids too)."""
        return self.id_format.format(index)

    def datasets_features(self) -> Any:
        """The declared `datasets.Features` of the subset (imports `datasets`)."""
        import datasets

        return datasets.Features(self.features())

    def finish(self, record: Record, item: SourceItem | None = None) -> Record:
        for hook in self.post:
            record = hook(record, item)
        return record


def gold_status_lines(units: list[dict[str, Any]]) -> list[str]:
    """The card's gold-verification lines, measured from the units' `gold_status` / `gold_reason` (a FinQA record
    or a ConvFinQA turn each): counts per status, then the reasons of the fixed and unanswerable ones."""
    status = Counter(u.get("gold_status") or "not read" for u in units)
    lines = [f"金標答案查核 gold verification（docs/VERIFICATION.md）：{counts_text(status, [*GOLD_STATUSES, 'not read'])}"]
    for st, label in (("fixed", "已更正 fixed"), ("unanswerable", "無法作答 unanswerable")):
        reasons = Counter(u.get("gold_reason") for u in units if u.get("gold_status") == st)
        if reasons:
            lines.append(f"{label} 原因 reasons：{counts_text(reasons, [r for r in GOLD_REASONS if reasons.get(r)])}")
    swept = Counter(u.get("gold_sweep") for u in units if u.get("gold_sweep"))
    if swept:
        lines.append(f"殘餘類別複查 residual-class sweep（verify-screen 標記後逐一重讀）：{sum(swept.values()):,} 個單位 units"
                     f"（{counts_text(swept, [c for c in GOLD_SWEEP_CLASSES if swept.get(c)])}）")
    return lines


def counts_text(counter: Counter, order: list[str] | None = None) -> str:
    """「a 3、b 2」 for the card's measured lines (most common first, or in `order`)."""
    keys = order or [k for k, _ in counter.most_common()]
    return "、".join(f"{k} {counter[k]:,}" for k in keys if counter.get(k))
