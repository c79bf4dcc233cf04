"""zh-TW rule checker: Simplified characters, PRC terms, numerals, tables, English residue, conventions.

The primitives live in `tw_fin_eval.zhcheck.rules` (pure functions, glossary loaded once); the
command line (`python -m tw_fin_eval check-zh`, `tools/check_zh.py`) is in `cli.py`.
"""

from tw_fin_eval.zhcheck.rules import (
    RULES,
    Finding,
    check_translation,
    check_zh,
    convention_issues,
    find_english_residue,
    find_prc_terms,
    find_simplified,
    missing_numerals,
    table_issues,
    written_row_issues,
)

__all__ = [
    "RULES",
    "Finding",
    "check_translation",
    "check_zh",
    "convention_issues",
    "find_english_residue",
    "find_prc_terms",
    "find_simplified",
    "missing_numerals",
    "table_issues",
    "written_row_issues",
]
