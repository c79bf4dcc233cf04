"""The measurement helpers behind the numbers in the glossary and the report."""

from __future__ import annotations

from tw_fin_eval.zhcheck.measure import Pair, allowlist_report, big5_characters, main, mutation_rates


def test_big5_allowlist_measurement():
    assert len(big5_characters()) > 13000
    rows = {ch: (tw, allowed) for ch, tw, allowed, _ in allowlist_report()}
    assert rows["台"] == ("臺", True) and rows["游"] == ("遊", True)
    assert rows["后"] == ("後", False) and rows["于"] == ("於", False)
    assert "臺" not in rows and "著" not in rows  # Taiwan-standard characters s2tw leaves alone


def test_mutation_rates_on_synthetic_pairs():
    pairs = [
        Pair("cash used in financing activities was $ 334 million in 2015",
             "2015 年籌資活動之現金流出為 $ 334 百萬", False),
        Pair("the long-term debt at december 31 , 2014 was $ 1,234 million",
             "2014 年 12 月 31 日的長期債務為 $ 1,234 百萬", False),
        Pair("net revenue", "淨營收 net revenue", False),  # not clean: excluded from the mutations
    ]
    total, clean, rates = mutation_rates(pairs)
    assert (total, clean) == (3, 2)
    for name in ("simplified (t2s)", "百萬 → million", "PRC term swapped in", "English left untranslated"):
        mutated, caught = rates[name]
        assert mutated >= 1 and caught == mutated, name
    assert rates["長期債務 → 長期負債"] == (1, 1)
    assert rates["date spacing removed"] == (1, 1)


def test_speed_command(capsys):
    assert main(["speed", "--mb", "0.05"]) == 0
    assert "check_zh: 50,000 characters in" in capsys.readouterr().out
