"""The committed translations cover every kept item and pass every rule (issues: FinQA-TW, ConvFinQA-TW,
FinanceAgent-TW translation). The gold-answer self-check on the built records is in test_scoring_selfcheck.py."""

import pytest

from tw_fin_eval.build import build_subset
from tw_fin_eval.paths import TRANSLATIONS_DIR


@pytest.mark.parametrize("subset, kept", [("finqa", 1147), ("convfinqa", 421), ("financeagent", 50)])
def test_every_item_translated_and_rule_clean(sources_root, subset, kept):
    res = build_subset(subset, sources_root, TRANSLATIONS_DIR)
    assert res.excluded == []
    assert res.failing == [], "\n".join(i.format() for i in res.failing[:10])
    assert res.untranslated == 0
    assert len(res.records) == res.kept == kept
    if subset == "convfinqa":
        assert sum(len(r["turns"]) for r in res.records) == 1490

