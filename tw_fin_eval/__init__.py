"""tw_fin_eval_basic: the Taiwan (Traditional Chinese) financial LLM evaluation set.

Pipeline: sources → source adapters (English records) → zh-TW translation overlays + rule checker
→ unified zh-TW records (data/*.jsonl) → builder / hf_release.  Evaluation: records → runner →
generations JSONL → scorer / `evaluate` metrics → per-item results + summary CSV + Markdown report.
"""

# One release number: the README title, the dataset card and `tw-fin-eval --version` all show __version__;
# DATA_VERSION (records' meta.version, the card's changelog) is stated beside it, never instead of it.
__version__ = "0.2.0"
DATA_VERSION = "0.6"
