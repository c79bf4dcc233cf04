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


def test_patterns_count_issue_20_forms(tmp_path, capsys):
    import json

    from tw_fin_eval.zhcheck.patterns import FILES, count_data

    finqa = {"id": "finqa_tw-test-0001", "question": "截至 12/31/12，我們的營收為 5.9 十億美元？", "task_type": "numeric",
             "context": {"table": [["（百萬平方英尺）", "2015"], ["淨營收", "21% ( 21 % )"]],
                         "evidence": ["淨營收（金額（百萬））為 $ 5735。", "營收增加 21% ( 21 % )，稅務部位不變。"]},
             "original_en": {"evidence": [{"key": "table_1"}, {"key": "text_2"}]}}
    clean = {"id": "finqa_tw-test-0002", "question": "截至 2012 年 12 月 31 日，本公司營收為 59 億美元？", "task_type": "numeric",
             "context": {"table": [["（百萬平方英尺）", "2015"], ["淨營收", "21% ( 21 % )"]],
                         "evidence": ["2015 年淨營收為 21%（單位：百萬平方英尺）。", "營收增加 21%。"]},
             "original_en": {"evidence": [{"key": "table_1"}, {"key": "text_2"}]}}
    (tmp_path / FILES["finqa"]).write_text(json.dumps(finqa, ensure_ascii=False) + "\n"
                                           + json.dumps(clean, ensure_ascii=False) + "\n", encoding="utf-8")
    for subset in ("convfinqa", "financeagent"):
        (tmp_path / FILES[subset]).write_text("", encoding="utf-8")
    counts = count_data(tmp_path)["finqa"]
    assert counts["N 十億 (prose)"] == (1, 1)
    assert counts["我們"] == (1, 1)
    assert counts["US dates (questions)"] == (1, 1)
    assert counts["nested brackets (table evidence)"] == (1, 1)
    assert counts["x% ( x % ) (prose)"] == (1, 1)      # the table cell keeps it and is not prose
    assert counts["term 稅務部位"] == (1, 1)
    assert counts["header prefix dropped (table evidence)"] == (1, 1)
    assert main(["patterns", str(tmp_path)]) == 0
    assert "N 十億 (prose)" in capsys.readouterr().out
    assert main(["patterns", str(tmp_path), "--show", "我們", "--subset", "finqa", "--range", "1-5"]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert len(shown) == 1 and "[question]" in shown[0] and "我們的營收" in shown[0]
    assert main(["patterns", str(tmp_path), "--show", "no such pattern"]) == 2
    assert main(["patterns", str(tmp_path), "--show", "我們", "--range", "a-b"]) == 2


def test_patterns_missing_data_is_a_clear_error(tmp_path):
    import pytest

    from tw_fin_eval.errors import InputError
    from tw_fin_eval.zhcheck.patterns import count_data

    with pytest.raises(InputError, match="build"):
        count_data(tmp_path)
