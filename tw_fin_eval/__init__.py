"""tw_fin_eval_basic: the Taiwan (Traditional Chinese) financial LLM evaluation set.

Pipeline: sources → source adapters (English records) → zh-TW translation overlays + rule checker
→ unified zh-TW records (data/*.jsonl) → builder / hf_release.  Evaluation: records → runner →
generations JSONL → scorer / `evaluate` metrics → per-item results + summary CSV + Markdown report.
"""

__version__ = "0.1.0"
DATA_VERSION = "0.2"
