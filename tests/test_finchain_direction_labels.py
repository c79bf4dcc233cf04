"""A FinChain-TW solution step that names a direction (「高於法定最低比率的幅度」) must not print a value of the
other sign (v43: finchain_tw-2858 「實際排放高於路徑的量 = … = -39,660」). Steps that can take either sign say the
subtraction instead (「資本適足率減法定最低比率」)."""

from __future__ import annotations

import json
import re

import pytest

from tw_fin_eval.paths import DATA_DIR

# 「超額報酬」 (excess return, alpha) and 「預期短缺」 (expected shortfall) are names, not directions
_DIRECTION = re.compile(r"高於|超過|超出|多出|低於|少於|不足")
_NAMES = re.compile(r"超額報酬|預期短缺")


def _steps():
    path = DATA_DIR / "finchain_tw.jsonl"
    if not path.exists():
        pytest.skip("data/ not built")
    for line in path.open(encoding="utf-8"):
        rec = json.loads(line)
        for step in rec.get("steps") or []:
            yield rec["id"], rec["template_id"], step


def test_a_step_named_by_a_direction_never_has_the_other_sign():
    named = [(i, t, s) for i, t, s in _steps() if _DIRECTION.search(_NAMES.sub("", s["label"]))]
    assert named, "no directional step labels left to check: the pattern no longer matches the templates"
    wrong = [(i, t, s["label"], s["value"]) for i, t, s in named if s["value"] is not None and s["value"] < 0]
    assert not wrong, wrong[:5]


def test_the_signed_gaps_say_the_subtraction():
    labels = {s["label"] for _, t, s in _steps() if t in {"sustainability_reporting_adv1", "regulatory_compliance_inter1",
                                                          "risk_appetite_basic2", "irr_inter2"}}
    assert {"實際排放減線性路徑排放量", "資本適足率減法定最低比率", "風險值占權益比率減上限", "內部報酬率減門檻報酬率"} <= labels
