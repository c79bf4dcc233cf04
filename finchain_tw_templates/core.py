"""The FinChain-TW template framework: a template is a function of a `random.Random` that returns a
`Problem`; `@template(...)` puts it in the registry. Standard library only (this folder ships in the
Hugging Face release and must run anywhere)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

DIFFICULTIES = ("基礎", "中級", "進階")


@dataclass(frozen=True)
class Step:
    label: str  # zh-TW name of the intermediate quantity, e.g. 「稅後淨利」
    value: float  # its exact value (unrounded), used by step_recall


@dataclass(frozen=True)
class Problem:
    question: str
    solution: str  # zh-TW, lines 「步驟 1：…」
    steps: tuple[Step, ...]
    answer_type: str  # "numeric" or "categorical"
    answer_value: float | None = None
    answer_text: str | None = None
    # The record's `answer` display string (「14.12%」, 「NT$1,234.56」, 「高」). None: the generator
    # formats answer_value / uses answer_text.
    answer_display: str | None = None
    # Numeric problems: the decimals the question asks the answer to be rounded to (in percentage points
    # when the display ends with %); the record's machine-readable `answer_decimals`.
    answer_decimals: int | None = None
    # The template's inputs by name, so tests can recompute the answer with an independent oracle.
    # Kept out of the released record (the question text holds the same numbers).
    params: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.answer_type == "numeric":
            if self.answer_value is None or self.answer_text is not None:
                raise ValueError("numeric problems carry answer_value only")
        elif self.answer_type == "categorical":
            if not self.answer_text or self.answer_value is not None:
                raise ValueError("categorical problems carry answer_text only")
        else:
            raise ValueError(f"unknown answer_type {self.answer_type!r}")


@dataclass(frozen=True)
class TemplateSpec:
    domain: str  # English key, e.g. "accounting"
    topic: str  # English key, e.g. "balance_sheets"
    template_id: str  # unique, e.g. "balance_sheets_basic1"
    difficulty: str  # one of DIFFICULTIES
    func: Callable[[random.Random], Problem] = field(compare=False)


# domain key -> zh-TW domain name (the record's category)
DOMAINS: dict[str, str] = {
    "accounting": "會計與財務報導",
    "corporate_finance": "公司理財",
    "crypto": "加密資產",
    "regulation": "金融法規",
    "markets": "金融市場",
    "ratios": "財務比率",
    "fintech": "金融科技",
    "investment": "投資分析",
    "mergers_acquisitions": "併購",
    "personal_finance": "個人理財",
    "risk_management": "風險管理",
    "sustainable_finance": "永續金融",
}

REGISTRY: dict[str, TemplateSpec] = {}


def template(domain: str, topic: str, template_id: str, difficulty: str):
    """Register a template function under (domain, topic, template_id, difficulty)."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}")

    def register(func: Callable[[random.Random], Problem]) -> Callable[[random.Random], Problem]:
        if template_id in REGISTRY:
            raise ValueError(f"duplicate template id {template_id!r}")
        REGISTRY[template_id] = TemplateSpec(domain, topic, template_id, difficulty, func)
        return func

    return register
