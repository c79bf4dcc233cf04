"""The measurement helpers behind the numbers in the glossary and the report."""

from __future__ import annotations

import pytest

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


def _conv(evidence: str, *turns: tuple[str, str, float | None, str]) -> dict:
    """A ConvFinQA-shaped record: turns are (question, program, answer_value, answer display)."""
    return {"id": "convfinqa_tw-dev-0001", "task_type": "conversation_numeric",
            "context": {"table": [["（單位：百萬美元）", "2014"], ["營收", "2.3"]], "evidence": [evidence]},
            "original_en": {"evidence": [{"key": "text_0"}]},
            "turns": [{"question": q, "program": p, "answer_value": v, "answer": a, "gold_status": "verified"}
                      for q, p, v, a in turns]}


_SENTENCE = "2014 年及 2013 年的費用分別為 2.4 十億美元及 2.3 十億美元。"


def test_billions_kept_only_where_a_gold_needs_the_source_scale():
    """Glossary §1.3 (b): 「N 十億」 in prose is right only when an amount gold computes with it and its
    question states no unit; elsewhere it is counted (the Taiwan form is 24 億美元)."""
    from tw_fin_eval.zhcheck.patterns import billions_not_kept_for_gold as flagged

    # kept on purpose (not counted): a bare amount turn uses 2.3; the other amount shares the sentence
    assert flagged(_conv(_SENTENCE, ("2013 年的費用是多少？", "2.3", 2.3, "2.3"))) == 0
    assert flagged(_conv(_SENTENCE, ("差額是多少？", "subtract(2.4, 2.3)", 0.1, ".1"))) == 0
    # the conversation itself multiplies / divides the displayed figure
    assert flagged(_conv(_SENTENCE, ("2014 年的費用乘以 1000 是多少？", "multiply(2.4, const_1000)", 2400, "2400"))) == 0
    assert flagged(_conv(_SENTENCE, ("2014 年的費用除以 100 是多少？", "divide(2.4, const_100)", 0.024, "0.024"),
                         ("再減去 2013 年的費用呢？", "divide(2.4, const_100), subtract(#0, 2.3)", -2.276, "-2.276"))) == 0
    # counted: no gold needs it
    assert flagged(_conv(_SENTENCE, ("變動百分比是多少？", "subtract(2.4, 2.3), divide(#0, 2.3)", 0.0435, "4.35%"))) == 2
    # a percent asked for is one in any unit, also when its gold is written as a fraction
    assert flagged(_conv(_SENTENCE, ("變動百分比是多少？", "subtract(2.4, 2.3), divide(#0, 2.3)", 0.0435, "0.0435"))) == 2
    assert flagged(_conv(_SENTENCE, ("差額占 2013 年的比例是多少？", "subtract(2.4, 2.3), divide(#0, 2.3)", 0.0435, "0.0435"))) == 2
    assert flagged(_conv(_SENTENCE, ("差額除以 2013 年的費用是多少？", "subtract(2.4, 2.3), divide(#0, 2.3)", 0.0435, "0.0435"))) == 0
    assert flagged(_conv(_SENTENCE, ("2013 年的費用是多少（以十億美元計）？", "2.3", 2.3, "2.3"))) == 2
    assert flagged(_conv(_SENTENCE, ("2014 年的費用是多少百萬美元？", "multiply(2.4, const_1000)", 2400, "2400"))) == 2
    assert flagged(_conv(_SENTENCE, ("2014 年的費用是多少？", "multiply(2.4, const_1000)", 2400, "2400"))) == 2
    assert flagged(_conv(_SENTENCE, ("差額是多少？", "subtract(2.3, 2.3)", 0, "0"))) == 2
    assert flagged(_conv(_SENTENCE, ("營收是多少？", "2.3", None, "yes"))) == 2
    unanswerable = _conv(_SENTENCE, ("2013 年的費用是多少？", "2.3", 2.3, "2.3"))
    unanswerable["turns"][0]["gold_status"] = "unanswerable"
    assert flagged(unanswerable) == 2
    assert flagged(_conv("費用分別為 24 億美元及 23 億美元。", ("2013 年的費用是多少？", "2.3", 2.3, "2.3"))) == 0
    # a FinQA record is its own unit; table cells are not prose
    finqa = {"id": "finqa_tw-test-0001", "question": "2004 年至 2006 年的合計是多少？", "task_type": "numeric",
             "program": "add(1.5, 1.4)", "answer_value": 2.9, "answer": "2.9",
             "context": {"table": [["", "2006"], ["銷貨", "1.5 十億"]], "evidence": ["銷貨淨額為 1.5 十億美元及 1.4 十億美元。"]},
             "original_en": {"evidence": [{"key": "text_0"}]}}
    assert flagged(finqa) == 0
    assert flagged({**finqa, "program": "add(1.7, 1.6)"}) == 2
    # a FinanceAgent answer and rubric keep the unit their question asks for; other prose does not
    agent = {"id": "financeagent_tw-0001", "task_type": "open_rubric_agent",
             "question": "最大一項調整的金額是多少（以十億美元為單位）？", "answer": "股份基礎給付費用：1.935 十億美元",
             "rubric": [{"operator": "correctness", "criteria": "股份基礎給付費用：1.935 十億美元"}]}
    assert flagged(agent) == 0
    assert flagged({**agent, "question": "最大一項調整的金額是多少？"}) == 2


def test_millions_kept_only_for_golds_money_only_and_quoted_amounts_are_no_unit():
    from tw_fin_eval.zhcheck.patterns import millions_not_kept_for_gold as flagged

    sentence = "股利總額於 2007 年為 40.6 百萬美元、2006 年為 $ 41 百萬。"
    assert flagged(_conv(sentence, ("2006 年的股利總額是多少？", "41", 41.0, "41"))) == 0
    assert flagged(_conv(sentence, ("2006 年的股利總額是多少（百萬美元）？", "41", 41.0, "41"))) == 2
    # an amount the question quotes (「$ 375 百萬」) is not a unit the question asks in: the evidence keeps its
    # 百萬, and so does the question's quoted 375 — one style per item (issue 30 d)
    assert flagged(_conv(sentence, ("與 $ 375 百萬相比，2006 年的股利總額是多少？", "41", 41.0, "41"))) == 0
    # where no gold needs the source scale, every such amount of the item is counted, the quoted one too
    assert flagged(_conv(sentence, ("與 $ 375 百萬相比，2006 年的股利總額是多少百萬美元？", "41", 41.0, "41"))) == 3
    # 百萬桶油當量 is a unit name, not a money amount in the source's scale
    assert flagged(_conv("儲量增加 28 百萬桶油當量。", ("比率是多少？", "divide(28, 56)", 0.5, "50%"))) == 0
    # one style per item: a needed 十億 amount keeps the 百萬 amount beside it
    assert flagged(_conv("營收 1.2 十億美元，費用 411 百萬美元。", ("營收是多少？", "1.2", 1.2, "1.2"))) == 0


def test_a_gold_in_the_source_scale_under_prose_in_yi_needs_its_unit_asked():
    """Review 3046 (convfinqa 0357 t0, 0404 t0): the English says $ 1.3 billion, the zh prose 13 億美元, the gold
    0.1 is in billions and no question so far asks a unit — a reader answers 1. Counted until the question asks
    the unit; a rate, a ratio, a multiple or an unanswerable unit the reader still sees are treated alike."""
    from tw_fin_eval.zhcheck.patterns import scaled_gold_unit_unasked as flagged

    def rec(prose, *turns, en="rd&e was $ 1.3 billion in 2013 and $ 1.2 billion in 2012 ."):
        r = _conv(prose, *turns)
        r["original_en"]["evidence"][0]["text"] = en
        return r
    yi = "研發支出 2013 年為 13 億美元，2012 年為 12 億美元。"
    change = ("研發支出的變動是多少？", "subtract(1.3, 1.2)", 0.1, "0.1")
    assert flagged(rec(yi, change)) == 1
    unanswerable = rec(yi, change)
    unanswerable["turns"][0]["gold_status"] = "unanswerable"
    assert flagged(unanswerable) == 1  # a reader sees the turn all the same
    assert flagged(rec(yi, ("研發支出的變動是多少（以十億美元計）？", "subtract(1.3, 1.2)", 0.1, "0.1"))) == 0
    # the unit asked in an earlier turn carries to the follow-up
    assert flagged(rec(yi, ("2013 年研發支出是多少十億美元？", "1.3", 1.3, "1.3"), change)) == 0
    # prose that keeps the source scale needs no unit asked (that is `billions_not_kept_for_gold`'s case)
    assert flagged(rec("研發支出 2013 年為 1.3 十億美元，2012 年為 1.2 十億美元。", change)) == 0
    # a rate, a ratio or a multiple is the same in any unit
    assert flagged(rec(yi, ("研發支出的成長率是多少？", "subtract(1.3, 1.2), divide(#0, 1.2)", 0.083, "0.083"))) == 0
    assert flagged(rec(yi, ("2013 年是 2012 年的幾倍？", "divide(1.3, 1.2)", 1.083, "1.083"))) == 0
    # a gold that does not compute with the prose amount is not its reader's problem
    assert flagged(rec(yi, ("營收是多少？", "2.3", 2.3, "2.3"))) == 0
    # millions said in 萬, and an English amount written without its leading zero (「$ .3 billion」)
    assert flagged(rec("費用為 5,400 萬美元及 4,700 萬美元。", ("差額是多少？", "subtract(54, 47)", 7, "7"),
                       en="expenses were $ 54 million and $ 47 million .")) == 1
    assert flagged(rec("備抵分別為 3 億美元及 9 億美元。", ("淨變動是多少？", "subtract(.3, .9)", -0.6, "-.6"),
                       en="the alll was $ .3 billion and $ .9 billion , respectively .")) == 1


def test_a_rate_gold_is_asked_as_a_rate():
    """Reviews 3047/3050/3055: 「增加了多少？」 over a growth-rate gold is counted; 「增加的百分比」 is not, nor is a plain
    difference, nor a change over an index base of 100 (points and percent agree)."""
    from tw_fin_eval.zhcheck.patterns import amount_asked_rate_gold as flagged

    rate = "subtract(195237, 177947), divide(#0, 177947)"
    assert flagged(_conv("", ("負債增加了多少？", rate, 0.0972, "0.09716"))) == 1
    assert flagged(_conv("", ("負債增加的百分比是多少？", rate, 0.0972, "0.09716"))) == 0
    assert flagged(_conv("", ("負債的成長率是多少？", rate, 0.0972, "0.09716"))) == 0
    assert flagged(_conv("", ("負債增加了多少？", "subtract(195237, 177947)", 17290, "17290"))) == 0
    assert flagged(_conv("", ("累積總報酬變動多少？", "subtract(204, 100), divide(#0, 100)", 1.04, "104%"))) == 0
    assert flagged(_conv("", ("2018 年是多少？", "91.8", 91.8, "91.8"), ("那減少了多少？", rate, -0.1, "-0.1"))) == 1


def test_built_data_keeps_billions_only_for_golds():
    """Issue 20 on the built data: no 「N 十億」/「N 百萬」 money amount in prose that a gold does not need
    (glossary §1.3 (b)); the 十億 that remain ≤ 40."""
    import pytest

    from tw_fin_eval import paths
    from tw_fin_eval.zhcheck.patterns import FILES, count_data

    if not all((paths.DATA_DIR / name).is_file() for name in FILES.values()):
        pytest.skip("data/ not built (run `python -m tw_fin_eval build`)")
    counts = count_data(paths.DATA_DIR)
    for row in ("N 十億 (prose, no gold needs it)", "N 百萬 (prose, no gold needs it)", "scaled gold, no unit asked (questions)",
                "amount asked, rate gold (questions)"):
        assert {s: c[row] for s, c in counts.items()} == {s: (0, 0) for s in counts}, row
    assert sum(c["N 十億 (prose)"][0] for c in counts.values()) <= 40


def test_s2tw_table_command_reports_drift(tmp_path, monkeypatch, capsys):
    import json

    from tw_fin_eval.zhcheck import rules

    assert main(["s2tw-table"]) == 0
    assert "differing entries: 0" in capsys.readouterr().out
    stale = json.loads(rules.S2TW_TABLE.read_text(encoding="utf-8"))
    del stale["changes"]["这"]
    path = tmp_path / "s2tw_chars.json"
    path.write_text(json.dumps(stale, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(rules, "S2TW_TABLE", path)
    rules._s2tw_changes.cache_clear()
    try:
        assert main(["s2tw-table"]) == 1
        assert "这 → 這 (OpenCC only)" in capsys.readouterr().out
        assert main(["s2tw-table", "--write"]) == 0
        assert json.loads(path.read_text(encoding="utf-8"))["changes"]["这"] == "這"
    finally:
        rules._s2tw_changes.cache_clear()


def test_dash_code_pattern_counts_rendered_2014_values_only():
    from tw_fin_eval.zhcheck.patterns import PATTERNS

    dash = next(p for p in PATTERNS if p.name == "dash code as a value (table evidence)")
    assert dash.count("未攤銷折價為 $ 2014，帳面金額為 $ 1000。") == 1
    assert dash.count("2011 年為 ( 2013 )。") == 1
    assert dash.count("營收為 $ 2014.5。") == 0 and dash.count("2014 年營收為 $ 5。") == 0
    # the periods of a 「分別為」 sentence are years, its values are not
    assert dash.count("營收於 2014、2013 及 2012 年分別為 $ 5、$ 4 及 $ 3。") == 0
    assert dash.count("營收於 2015 及 2014 年分別為 $ 5 及 $ 2014。") == 1
    # a hand-written row may open its list of periods right after the label (「Masco 2013、2014 及 2015 年分別為」)
    assert dash.count("Masco 2013、2014、2015 及 2016 年分別為 $ 1、$ 2、$ 3 及 $ 4。") == 0
    assert dash.count("股數 2014、2013 及 2012 年分別為 322.4、326.5 及 328.4。") == 0
    assert dash.count("現金流入為 2014、其他為 5。") == 1  # a dash code in a list of values is still one


@pytest.mark.parametrize("text, flagged", [
    ("合約義務「長期債務」：依期間劃分之應付款項 1 年以內為 $ 38480，依期間劃分之應付款項 1-3 年為 $ 109436，"
     "依期間劃分之應付款項合計為 $ 147916。", 1),
    ("美國：截至 2012 年 12 月 31 日止年度為 $ 1，截至 2011 年 12 月 31 日止年度為 $ 2，截至 2010 年 12 月 31 日止年度為 $ 3。", 1),
    ("合約義務「長期債務」：依期間劃分之應付款項 1 年以內 $ 38,480、1–3 年 $ 109,436、合計 $ 147,916。", 0),
    ("美國：2012 年度 $ 1、2011 年度 $ 2、2010 年度 $ 3。", 0),
    # three years, a unit bracket with a colon, a roll-forward's own repeated 「其他」 are no repeated lead
    ("公司「JCB」：支付交易額 55（單位：十億）、總交易額 61（單位：十億）、交易總筆數 0.6（單位：十億）。", 0),
    ("員工離職：2006 年費用 $ 1、其他 $ 2、2007 年費用 $ 3、其他 $ 4、2008 年費用 $ 5、其他 $ 6。", 0),
])
def test_repeated_lead_counts_a_header_said_in_every_clause(text, flagged):
    from tw_fin_eval.zhcheck.patterns import repeated_lead

    assert repeated_lead(text) == flagged


def test_page_furniture_and_quarter_rows_count_what_the_review_saw():
    """r30b classes 6 and 7: a running head, a caption ending at 「如下：」 and 「截至 … 12 月 31 日止季度」 are
    counted in text evidence / prose; the rewritten forms are not, and a caption followed by its content is prose."""
    from tw_fin_eval.zhcheck.patterns import PATTERNS

    rows = {p.name: p for p in PATTERNS}
    head, caption = rows["running head （續） (evidence prose)"], rows["caption ending 如下： (evidence prose)"]
    quarter = rows["quarter ended december 31 (prose)"]
    assert head.count("合併財務報表附註—（續）其他無形資產之攤銷費用約為 7,500 萬美元。") == 1
    assert head.count("其他無形資產之攤銷費用約為 7,500 萬美元。") == 0
    assert caption.count("截至 2012 年 12 月 31 日的債務到期情形如下（百萬美元）：") == 1
    assert caption.count("基本與稀釋加權平均流通在外股數之調節如下：。") == 1
    assert caption.count("截至 2012 年 12 月 31 日之債務到期情形見上表（單位：百萬美元）。") == 0
    assert caption.count("到期情形如下：2007 年—2,300 萬美元；2008 年—1,900 萬美元。") == 0
    assert quarter.count("截至 2010 年 12 月 31 日止季度，本公司買回 100 股") == 1
    assert quarter.count("截至 12 月 31 日止季度：最高 37.28") == 1
    assert quarter.count("2010 年第 4 季，本公司買回 100 股") == 0
    assert quarter.count("截至 2010 年 12 月 31 日止年度") == 0
    assert {head.kinds, caption.kinds} == {frozenset({"evidence_text"})}


def test_half_width_footnote_mark_row_counts_marks_not_names_or_negatives():
    """r31b C1 measure row: 「購買義務 ( a )」, 「( 1 )」 after a word or a figure count; the printed 「（a）」,
    「（註 1）」, a negative 「( 14 )」, 「$ ( 26 )」 and the plan name 「401 ( k )」 do not."""
    from tw_fin_eval.zhcheck.patterns import PATTERNS

    count = next(p for p in PATTERNS if p.name == "half-width footnote mark ( a ) / ( 1 )").count
    assert count("購買義務 ( a )") == 1 and count("買回股份總數 ( 1 ) ( 2 )") == 2 and count("18322320 ( 1 )") == 1
    assert count("Visa Inc. ( 1 )") == 1 and count("（重編後）( 1 )") == 1
    assert count("購買義務（a）") == 0 and count("買回股份總數（註 1）") == 0
    assert count("( 14 )") == 0 and count("$ ( 26 )") == 0 and count("401 ( k ) 相對提撥") == 0


def test_question_word_order_rows_count_the_calques_only():
    """Issue 30 round 4: 「相較（於）」, 「相對於」, a pre-posed 「對於／關於」 and 「截至…止年度」 are counted in questions
    (not in evidence, where the filing's period stays), a quarter ended in any field; the rewritten forms are not."""
    from tw_fin_eval.zhcheck.patterns import PATTERNS, QUESTION

    rows = {p.name: p for p in PATTERNS}
    compared, relative = rows["「相較」 (questions)"], rows["「相對於」 (questions)"]
    about, year_end = rows["「對於／關於」 (questions)"], rows["「截至…止年度」 (questions)"]
    quarter = rows["quarter ended (all fields)"]
    assert compared.count("2013 年收到的股利相較於 2012 年的成長率是多少？") == 1
    assert compared.count("2013 年收到的股利較 2012 年的成長率為多少？") == 0
    assert relative.count("2011 年相對於 2010 年的比率是多少？") == 1
    assert relative.count("2011 年與 2010 年的比率為多少？") == 0
    assert about.count("關於德州證券化債券，發行總額為多少？") == 1 and about.count("對於已消滅的債務，…？") == 1
    assert about.count("2011 年相對於 2010 年的比率是多少？") == 0
    assert year_end.count("截至 2015 年 12 月 31 日止年度的股數是多少？") == 1
    assert year_end.count("截至 2019 年 6 月 30 日止會計年度，相差多少？") == 1
    assert year_end.count("2015 年度的股數為多少？") == 0
    assert quarter.count("截至 3 月 31 日止季度") == 1 and quarter.count("2010 年，截至 12 月 31 日止季度：最高") == 1
    assert quarter.count("2010 年第 4 季：最高 53.14") == 0
    assert {compared.kinds, relative.kinds, about.kinds, year_end.kinds} == {frozenset({QUESTION})}
    assert "table" in quarter.kinds


def test_footnote_mark_columns_are_counted_only_when_numbered_in_sequence():
    from tw_fin_eval.zhcheck.patterns import footnote_marks_as_negatives

    def rec(col: list[str]) -> dict:
        return {"context": {"table": [["名稱 " + str(k), "1", x] for k, x in enumerate(col)]}}

    assert footnote_marks_as_negatives(rec(["-2", "-3", "-4"])) == 1
    assert footnote_marks_as_negatives(rec(["（註 2）", "（註 3）", "（註 4）"])) == 0
    assert footnote_marks_as_negatives(rec(["-2", "-7", "-3"])) == 0


def test_corner_header_count_finds_sentences_that_open_with_it():
    from tw_fin_eval.zhcheck.patterns import corner_opens_evidence, header_prefix_dropped

    def rec(corner: str, sentence: str) -> dict:
        return {"context": {"table": [[corner, "2008"], ["第二類資本總額", "48616"]], "evidence": [sentence]},
                "original_en": {"evidence": [{"key": "table_1"}]}}

    assert corner_opens_evidence(rec("12 月 31 日（百萬美元）", "12 月 31 日，第二類資本總額：2008 年為 48,616（單位：百萬美元）。")) == 1
    assert corner_opens_evidence(rec("幣別", "幣別「歐元」：2008 年為 35。")) == 1
    assert corner_opens_evidence(rec("12 月 31 日（百萬美元）", "第二類資本總額：2008 年 12 月 31 日為 48,616（單位：百萬美元）。")) == 0
    assert corner_opens_evidence(rec("幣別", "歐元：2008 年為 35。")) == 0
    # the unit of the corner is still required; its category words are not
    assert header_prefix_dropped(rec("幣別（百萬美元）", "歐元：2008 年為 35。")) == 1
    assert header_prefix_dropped(rec("幣別（百萬美元）", "歐元：2008 年為 35（單位：百萬美元）。")) == 0


def test_bare_note_number_count_reads_the_english_label():
    from tw_fin_eval.zhcheck.patterns import bare_note_numbers

    def rec(en: str, zh: str) -> dict:
        return {"context": {"table": [["", "2015"], [zh, "1"]]}, "original_en": {"table": [["", "2015"], [en, "1"]]}}

    assert bare_note_numbers(rec("securities borrowed2", "借入證券 2")) == 1
    assert bare_note_numbers(rec("securities borrowed2", "借入證券（註 2）")) == 0
    assert bare_note_numbers(rec("tier 1", "第一類 1")) == 0


def test_evidence_prose_rows_count_header_years_bare_amounts_and_bullets():
    """r31b C2/C3 measure rows: a caption ending in the header's years, a 5+-digit amount without separators
    before a unit or after 「$」, an inline 「•」; years inside a sentence, grouped amounts and ids do not count."""
    from tw_fin_eval.zhcheck.patterns import PATTERNS

    rows = {p.name: p.count for p in PATTERNS}
    years = rows["header years left at the end (evidence prose)"]
    bare = rows["5+-digit amount without separators (evidence prose)"]
    assert years("下表為調節：截至 12 月 31 日止年度（金額單位：百萬美元） 2012 2011 2010。") == 1
    assert years("下表為 2012 年、2011 年及 2010 年度之調節（百萬美元）。") == 0
    assert bare("股數分別為 113941 股、130085 股") == 2 and bare("支付 $ 5583333；") == 1
    assert bare("股數為 113,941 股，支付 $ 5,583,333") == 0 and bare("於 2017 年發行 1000 台") == 0
    assert rows["inline • bullet (evidence prose)"]("如下：• 甲；• 乙") == 2


def test_filing_term_rows_count_the_literal_forms_and_financeagent_third_person():
    """r32a (issue 30 point 3): the term rows count the word-by-word filing terms and not the Taiwan forms; a
    FinanceAgent reference answer or criterion saying 「本公司」 is counted, its question and FinQA prose are not."""
    from tw_fin_eval.zhcheck.patterns import ANSWER, PATTERNS, QUESTION, RUBRIC

    rows = {p.name: p for p in PATTERNS}
    term = {t: rows[f"term {t}"].count for t in ("合併盈餘表", "減損費用", "最低承諾", "美國鐵塔事業部", "負債對權益比",
                                                "百萬（每股金額除外）", "提供（使用）之現金")}
    assert term["合併盈餘表"]("列於合併盈餘表的「造市」項下") == 1 and term["合併盈餘表"]("列於合併損益表") == 0
    assert term["減損費用"]("稅前減損費用") == 1 and term["減損費用"]("稅前減損損失") == 0
    assert term["最低承諾"]("未來最低承諾總額") == 1 and term["最低承諾"]("未來最低租賃給付總額") == 0
    assert term["美國鐵塔事業部"]("美國鐵塔事業部總部") == 1 and term["美國鐵塔事業部"]("美國鐵塔部門總部") == 0
    assert term["負債對權益比"]("負債對權益比率") == 1 and term["負債對權益比"]("負債權益比") == 0
    assert term["百萬（每股金額除外）"]("百萬（每股金額除外）") == 1
    assert term["百萬（每股金額除外）"]("（單位：百萬，每股金額除外）") == 0
    assert term["提供（使用）之現金"]("投資活動提供（使用）之現金流量") == 1
    assert term["提供（使用）之現金"]("投資活動之現金流入（流出）") == 0
    company = rows["「本公司」 (FinanceAgent answers, rubric)"]
    assert company.count("本公司認為，該供應商備有適當的備援系統") == 1
    assert company.count("Shift4 認為，該供應商備有適當的備援系統") == 0
    assert company.kinds == frozenset({ANSWER, RUBRIC}) and QUESTION not in company.kinds


def test_question_length_and_stacked_de_rows_count_the_english_order_only():
    """Issue 30 point 1 (w33): a question sentence with three or more particle 「的」 (not the 的 of 「目的」)
    and a question of more than 60 characters (spaces not counted) are counted; the Taiwan-order forms are not."""
    from tw_fin_eval.zhcheck.patterns import PATTERNS, QUESTION

    rows = {p.name: p for p in PATTERNS}
    de, long = rows["three 的 in a question"], rows["question over 60 characters"]
    assert de.count("在本公司的衍生工具組合中，對保險業的暴險是否高於對不動產業的暴險？") == 1
    assert de.count("本公司衍生工具組合中，對保險業的暴險是否高於不動產業？") == 0
    assert de.count("假設每一洲的目的地數量相同，每一洲大約有多少個目的地？") == 0
    assert long.count("截至 2013 年 12 月 31 日止五年期間，高盛集團（The Goldman Sachs Group, Inc.）與標普 500 指數的"
                      "累積總報酬率（百分比）相差多少？") == 1
    assert long.count("截至 2013 年 12 月 31 日止五年間，高盛集團與標普 500 指數的累積總報酬率相差多少百分比？") == 0
    assert {de.kinds, long.kinds} == {frozenset({QUESTION})}


def test_year_ended_december_31_row_counts_evidence_prose_only():
    """Issue 30 (v37 class 5): 「截至 2017 年 12 月 31 日止年度」 in text evidence is counted; 「2017 年度」 and a
    non-calendar fiscal year 「截至 2017 年 9 月 30 日止年度」 are not."""
    from tw_fin_eval.zhcheck.patterns import EVIDENCE_TEXT, PATTERNS

    row = {p.name: p for p in PATTERNS}["「截至…12 月 31 日止年度」 (evidence prose)"]
    assert row.count("截至 2017、2016 及 2015 年 12 月 31 日止年度，本公司淨利為 $ 5 百萬。") == 1
    assert row.count("截至 2011 年及 2010 年 12 月 31 日止之年度，營收增加。") == 1
    assert row.count("2017、2016 及 2015 年度，本公司淨利為 $ 5 百萬。") == 0
    assert row.count("截至 2017 年 9 月 30 日止年度，營收增加。") == 0
    assert row.kinds == frozenset({EVIDENCE_TEXT})
