"""The classes a blind adversarial probe (tests/fixtures/adversarial_outputs_2.jsonl) found, each with accepts
and rejects: scientific notation, 「減少了百分之多少」, a unit the question names without brackets, golds in
percentage points, the options a FinChain question lists, and bracketed asides in a categorical conclusion."""

from __future__ import annotations

import pytest

from tw_fin_eval.answers import match
from tw_fin_eval.answers.numbers import find_numbers, scan_values
from tw_fin_eval.scoring import engine, scorers


@pytest.mark.parametrize("text, value", [
    ("8.5929 × 10^4", 85929.0), ("3×10⁻²", 0.03), ("1.2 x 10**3 元", 1200.0), ("2.68e7", 2.68e7),
    ("-4.5 × 10^{2}", -450.0),
])
def test_scientific_notation_is_one_number(text, value):
    nums = find_numbers(text)
    assert len(nums) == 1 and nums[0].value == pytest.approx(value)
    assert [v for v, _, _ in scan_values(text)] == pytest.approx([value])


@pytest.mark.parametrize("text", ["3 x 10 個", "2015 x 10", "乘數 5 × 10"])
def test_a_product_is_not_scientific_notation(text):
    assert len(find_numbers(text)) == 2


def _numeric(response: str, gold: float, question: str, answer: str | None = None, scale: int | None = None):
    return match.match_numeric(response, gold, gold_answer=answer, questions=[question], answer_scale=scale)


def test_latex_times_ten_in_the_answer_line():
    assert _numeric("答案：$8.5929 \\times 10^{4}$", 85929.0, "淨影響是多少（以千計）？").correct
    assert not _numeric("答案：$8.5929 \\times 10^{3}$", 85929.0, "淨影響是多少（以千計）？").correct


def test_decrease_asked_as_a_percent_allows_either_sign():
    q = "2016 年至 2017 年間，淨營收減少了百分之多少？"
    assert _numeric("答案：-0.33%", 0.00327, q, ".33%").correct
    assert _numeric("答案：0.33%", 0.00327, q, ".33%").correct
    assert not _numeric("答案：-0.33%", 0.00327, "2016 年至 2017 年間，淨營收增加了百分之多少？", ".33%").correct


@pytest.mark.parametrize("question", ["2016 年至 2017 年，淨營收下降的百分比是多少？", "2016 年至 2017 年，淨營收下降之百分比是多少？",
                                      "2017 年淨營收減少之金額是多少？"])
def test_a_decrease_asked_with_zhi_as_with_de_allows_either_sign(question):
    """p34a: 「下降的百分比」 named a decrease, 「下降之百分比」 (the Taiwan filing form) did not."""
    assert _numeric("答案：-0.33%", 0.00327, question, ".33%").correct
    assert _numeric("答案：0.33%", 0.00327, question, ".33%").correct
    # an increase asked either way keeps the sign
    assert not _numeric("答案：-0.33%", 0.00327, question.replace("下降", "增加").replace("減少", "增加"), ".33%").correct


# Issue 29: an undirected difference (the audit of seed 2030 wave 2 found golds like −41 for 「這兩個數值的差額」)
UNDIRECTED_QUESTIONS = [
    "那麼，這兩個數值的差額是多少？",
    "這兩項投資的報酬率相差多少？",
    "E*TRADE 的變動百分比與標普的變動百分比相差多少？",  # the change words name the operands
    "2017 年美國法定稅率與有效所得稅率之間的差距是多少？",
    "就 2014 年而言，場址環境整治費用與環境事項準備之間的差異是多少（以百萬計）？",
    "這個數值與數字 1 的差是多少？",
    "那差額是多少？",
    "在截至 2012 年 12 月 31 日止五年間，優比速與道瓊運輸平均指數的累積投資總報酬率相差多少百分比？",
    "What is the difference between the 2015 and 2014 operating cash flows?",
    "How much do the two rates differ?",
]


@pytest.mark.parametrize("question", UNDIRECTED_QUESTIONS)
def test_an_undirected_difference_accepts_either_sign(question):
    assert match.sign_free(question) == match.PATH_UNDIRECTED
    for gold in (-41.0, 41.0):
        for answer in ("答案：41", "答案：-41", "答案：−41.0"):
            m = _numeric(answer, gold, question)
            assert m.correct, (question, gold, answer)
        assert not _numeric("答案：45", gold, question).correct  # the magnitude still counts
        assert not _numeric("答案：-37", gold, question).correct
    assert _numeric("答案：41", -41.0, question).path == match.PATH_UNDIRECTED  # the rule that fired is recorded


def test_an_undirected_difference_of_percents_accepts_either_sign():
    q = "這兩項投資的報酬率相差多少？"
    assert _numeric("答案：31.86%", -0.3186, q).correct
    assert _numeric("答案：-31.86%", -0.3186, q).correct
    assert not _numeric("答案：13.86%", -0.3186, q).correct


@pytest.mark.parametrize("question", [
    "營收從 2018 年到 2019 年的變動是多少？",
    "從 2014 年 12 月 31 日到 2015 年 12 月 31 日，高品質流動性資產的差額是多少？",
    "營收由 2018 年至 2019 年的差額是多少？",
    "2010 年至 2011 年間，總出貨量的差額是多少？",
    "2019 年營收較 2018 年的差額是多少？",
    "2019 年營收比 2018 年多多少？",
    "營收增加之差額是多少？",  # a change word heading the difference, written with 之 as with 的
    "2019 年營收比 2018 年低了多少，差額是多少？",
    "10 年後的租金付款與五年後相比，差額是多少？",
    "成本超過 LIFO 成本的差額是多少？",
    "2019 年營收高出 2018 年的差額是多少？",
    "2007 年的數值減去 2006 年的數值，差額是多少？",
    "營收增加的差額是多少？",
    "兩者的淨差額是多少？",
    "兩者的差額是多少（以正數表示）？",
    "兩者的差額是多少（減少時為負值）？",
    "What is the difference in revenue from 2018 to 2019?",
    "What is the difference of revenue minus costs?",
    "How much higher than B is A, i.e. the difference?",
    "What is the difference between A and B (negative if B is larger)?",
    "What is the net change, the difference between the two years?",
    "這個差額除以 2015 年的數值是多少？",  # asks a ratio, not the difference
    "因零售電價差異而轉嫁給客戶的成本會是多少？",  # 差異 names a cause; the cost is asked
])
def test_a_directed_or_signed_difference_keeps_the_sign(question):
    assert match.sign_free(question) is None
    assert _numeric("答案：-41", -41.0, question).correct
    assert not _numeric("答案：41", -41.0, question).correct


def test_a_directed_english_original_keeps_the_sign_of_an_undirected_translation():
    # the zh-TW says 差額, the English original says "change from … to": the direction stands
    zh, en = "這兩年營收的差額是多少？", "what was the change in revenue from 2018 to 2019?"
    assert match.sign_free(zh) == match.PATH_UNDIRECTED and match.sign_free(zh, en) is None
    assert not match.match_numeric("答案：41", -41.0, questions=[zh, en]).correct


def test_a_conversation_turn_asking_the_difference_accepts_either_sign():
    turns = [("2015 年營業活動之現金流入是多少？", 7344.0), ("那 2014 年呢？", 7385.0), ("那差額是多少？", -41.0),
             ("那麼，這段期間的變動百分比是多少？", -0.00555)]
    rec = {"id": "c1", "task_type": "conversation_numeric",
           "turns": [{"question": q, "answer": str(v), "answer_value": v, "answer_text": None} for q, v in turns]}
    scorer, ctx = scorers.SCORERS["conversation_numeric"], scorers.ScoreSettings()
    item = scorer.score(rec, 2, "7385 − 7344 = 41\n答案：41", ctx)
    assert item.correct and item.match_path == match.PATH_UNDIRECTED
    assert scorer.score(rec, 2, "答案：-41", ctx).correct
    assert not scorer.score(rec, 2, "答案：51", ctx).correct
    # the change of turn 3 is directed: its sign counts
    assert not scorer.score(rec, 3, "答案：0.555%", ctx).correct


@pytest.mark.parametrize("question, gold, right, wrong", [
    ("換算成十億美元是多少？", 6.95522, "答案：69.55 億美元", "答案：69.55"),
    ("這三年的金額換算成百萬美元是多少？", 1041.531, "答案：10.42 億美元", "答案：10.42"),
    ("在此期間，股票買回計畫使流通在外股數減少了多少百萬股？", 78.0, "答案：7,800 萬股", "答案：7,800"),
])
def test_a_unit_named_without_brackets_accepts_the_amount_in_another_unit(question, gold, right, wrong):
    assert match.question_scale(question) is not None
    assert _numeric(right, gold, question).correct
    assert _numeric("答案：" + str(gold), gold, question).correct
    assert not _numeric(wrong, gold, question).correct
    # without a stated unit (and no known answer_scale) an amount in 億 is not taken for the bare gold
    assert not _numeric(right, gold, "淨利是多少？").correct


def test_percentage_points_against_a_gold_counted_in_points():
    q = "請計算本月前五大地址集中度較上月變動多少個百分點（減少以負數表示）。（四捨五入至小數點後第 2 位）"
    kw = dict(gold_answer="-16.58", questions=[q], display_decides=True)
    assert match.match_numeric("答案：減少 16.58 個百分點", -16.5823, **kw).correct
    assert match.match_numeric("答案：-16.58 個百分點", -16.5823, **kw).correct
    assert not match.match_numeric("答案：增加 16.58 個百分點", -16.5823, **kw).correct
    assert not match.match_numeric("答案：減少 15.58 個百分點", -16.5823, **kw).correct
    assert not match.match_numeric("答案：-16.58%", -16.5823, **kw).correct  # a percent is not a point here


_KYC = ("總分低於 4 分為低風險，4（含）至 8 分為中風險，8 分（含）以上為高風險。請判斷其風險等級（低／中／高）。")


def _categorical(response: str, gold: str, question: str, siblings: tuple[str, ...] = ()):
    rec = {"id": "finchain_tw-9001", "dataset": "FinChain-TW", "task_type": "numeric_cot", "category": "c",
           "subcategory": "kyc", "difficulty": "進階", "question": question, "answer": gold, "answer_value": None,
           "answer_text": gold, "steps": [], "answer_type": "categorical", "template_id": "t_probe", "seed": 0}
    others = [dict(rec, id=f"finchain_tw-90{i + 2:02d}", answer_text=s, answer=s) for i, s in enumerate(siblings)]
    runs = engine.RunsIndex()
    runs.success[(rec["id"], None)] = {"response": response}
    item = next(it for it in engine.score([rec, *others], runs, progress=False).items if it.id == rec["id"])
    return "pending" if item.status == scorers.PENDING else item.correct


def test_the_options_a_question_lists_are_labels_even_when_no_seed_has_them():
    # every seed of the template has the gold 中: 低 is still a label, so 「答案：低」 is wrong, not pending
    assert scorers.question_labels(_KYC) >= {"低", "中", "高"}
    assert _categorical("答案：低", "中", _KYC) is False
    assert _categorical("答案：中", "中", _KYC) is True
    assert _categorical("答案：中高風險", "中", _KYC) == "pending"  # two labels glued: undecided
    q = "請問哪一種方式的稅負較低？（請回答合併計稅或分開計稅）"
    assert scorers.question_labels(q) == {"合併計稅", "分開計稅"}
    assert _categorical("答案：合併計稅", "分開計稅", q) is False
    funds = ("無風險利率為 2.75%。靖峰投信高股息基金年報酬率 11.00%；沐嵐投信亞太收益基金年報酬率 17.80%。"
             "以夏普比率衡量，哪一檔較佳？（請回答基金名稱）")
    assert scorers.question_labels(funds) == {"靖峰投信高股息基金", "沐嵐投信亞太收益基金"}
    assert scorers.question_labels("靖峰投信高股息基金與沐嵐投信亞太收益基金何者較佳？（請回答基金名稱）") == {
        "靖峰投信高股息基金", "沐嵐投信亞太收益基金"}
    assert _categorical("答案：靖峰投信高股息基金", "沐嵐投信亞太收益基金", funds) is False
    # a question without options adds nothing
    assert scorers.question_labels("請計算稅額（四捨五入至整數）。") == frozenset()


def test_a_bracketed_aside_is_not_the_conclusion():
    q = "請問哪一種方式的稅負較低？（請回答合併計稅或分開計稅）"
    assert _categorical("答案：分開計稅（比合併計稅少繳 NT$32,375）", "分開計稅", q) is True
    assert _categorical("答案：合併計稅（比分開計稅多繳 NT$32,375）", "分開計稅", q) is False
    assert _categorical("答案：（分開計稅）", "分開計稅", q) is True  # the whole answer bracketed
    assert _categorical("答案：介於合併計稅與分開計稅之間", "分開計稅", q) == "pending"


# ---- the second blind probe (tests/fixtures/adversarial_outputs_3.jsonl) -------------------------------------

@pytest.mark.parametrize("answer, want", [("應該是", "yes"), ("應該不是", "no"), ("我認為否", "no"), ("判斷為是", "yes"),
                                          ("應是", "yes")])
def test_a_hedged_yes_or_no_is_still_the_answer(answer, want):
    assert match.match_yes_no(f"答案：{answer}", want).correct
    assert not match.match_yes_no(f"答案：{answer}", "no" if want == "yes" else "yes").correct


def test_an_uncertain_answer_is_not_a_yes():
    assert not match.match_yes_no("答案：可能是", "yes").correct
    assert not match.match_yes_no("答案：不確定", "yes").correct


@pytest.mark.parametrize("answer, gold, ok", [("答案：約一成", 0.1004, True), ("答案：三成五", 0.35, True),
                                              ("答案：兩成", 0.1004, False), ("答案：成長", 0.1, False)])
def test_tenths_written_with_cheng(answer, gold, ok):
    assert _numeric(answer, gold, "流動部分占總額的比例是多少？").correct is ok


def test_the_value_after_de_in_a_restated_computation():
    q = "2011 年至 2012 年淨營收的變動是多少？"
    assert _numeric("答案：由 1,854 減 2,045 得 -191", -191.0, q).correct
    assert not _numeric("答案：由 1,854 減 2,045 得 -191", 1854.0, q).correct


def test_a_basis_point_question_answered_in_percentage_points():
    q = "淨利息收益率上升了多少基點？"
    assert _numeric("答案：0.11 個百分點", 11.0, q, "11").correct
    assert _numeric("答案：11 個基點", 11.0, q, "11").correct
    assert not _numeric("答案：11%", 11.0, q, "11").correct
    assert not _numeric("答案：0.12 個百分點", 11.0, q, "11").correct


def test_converting_to_millions_needs_an_answer_in_millions_or_with_its_unit():
    q = "那換算成百萬是多少？"
    assert _numeric("答案：125.5", 125.504486, q).correct
    assert _numeric("答案：1.255 億", 125.504486, q).correct
    assert _numeric("答案：$125,504,486", 125.504486, q).correct       # the unit is stated: dollars
    assert not _numeric("答案：125,504,486", 125.504486, q).correct    # the figure it asked to convert
    assert _numeric("答案：一億二千五百五十萬", 125.5, q).correct          # Chinese numerals state their unit


def test_numbers_in_english_words():
    q = "價格變動率是多少？（以百分比表示，四捨五入至小數點後第 2 位）"
    assert _numeric("Answer: negative thirty point six percent", -0.305956, q, "-30.60%").correct
    assert not _numeric("Answer: thirty point six percent", -0.305956, q, "-30.60%").correct
    assert _numeric("Answer: two hundred and five million", 205e6, "金額是多少？").correct


@pytest.mark.parametrize("answer", ["答案：2.9%–3.0%", "答案：2.9%-3.0%", "答案：3%～4%"])
def test_a_range_of_percentages_is_not_an_answer(answer):
    m = _numeric(answer, 0.029, "股票獎酬占總收購價格的比例是多少？", "2.9%")
    assert not m.correct and m.ambiguous
    assert _numeric("答案：-3.0%", -0.03, "變動率是多少？", "-3.0%").correct  # a lone negative percent is fine


# ---- the third blind probe (tests/fixtures/adversarial_outputs_4.jsonl) --------------------------------------

def _scored(response: str, gold: float, question: str) -> bool:
    """The FinQA scorer's verdict (the year rule lives in the scorer, not in match_numeric)."""
    rec = {"id": "f1", "task_type": "numeric", "question": question, "answer": str(gold), "answer_value": gold,
           "answer_text": None}
    return bool(scorers.SCORERS["numeric"].score(rec, None, response, scorers.ScoreSettings()).correct)


def test_a_year_is_exact_when_a_year_is_asked():
    q = "芝加哥總部的初始租約於哪一年到期？"
    assert _scored("答案：2022", 2022.0, q)
    assert not _scored("答案：2039", 2022.0, q)      # within 1% of 2022, but 17 years off
    assert not _scored("答案：2023", 2022.0, q)
    # an amount that happens to look like a year keeps the 1% tolerance
    assert _scored("答案：2030", 2022.0, "合計金額是多少（百萬美元）？")


def test_a_conversation_that_asked_for_a_year_keeps_it_exact_in_later_turns():
    from tw_fin_eval.scoring import metric_fns

    turns = [("芝加哥總部的初始租約於哪一年到期？", 2022.0), ("這個年份加 9 是多少？", 2031.0), ("這個數值再加 10 是多少？", 2041.0)]
    rec = {"id": "c1", "task_type": "conversation_numeric",
           "turns": [{"question": q, "answer": str(int(v)), "answer_value": v, "answer_text": None} for q, v in turns]}
    scorer, ctx = scorers.SCORERS["conversation_numeric"], scorers.ScoreSettings()
    assert scorer.score(rec, 2, "答案：2041", ctx).correct
    assert not scorer.score(rec, 2, "答案：2032", ctx).correct   # 2022 + 10: within 1%, wrong
    # the metric reads the conversation's earlier rows the same way (rows in turn order)
    out = metric_fns.conv_turn_match(["答案：2022", "答案：2031", "答案：2032"], [2022.0, 2031.0, 2041.0],
                                     ["c1", "c1", "c1"], questions=[q for q, _ in turns], return_items=True)
    assert [it["correct"] for it in out["items"]] == [True, True, False]


@pytest.mark.parametrize("text, value", [("−3 833", -3833.0), ("24 000", 24000.0), ("4,59,84,064.5", 45984064.5),
                                         ("新臺幣 98 萬 1,300 元", 981300.0)])
def test_grouped_and_compound_numbers(text, value):
    assert [n.value for n in find_numbers(text)] == [pytest.approx(value)]


@pytest.mark.parametrize("text, values", [("2015 年 3 月", [2015.0, 3.0]), ("1,23", [1.0, 23.0]),
                                          ("5 萬元 300 股", [50000.0, 300.0]), ("3 500 股與 12 筆", [3500.0, 12.0])])
def test_what_is_not_one_number(text, values):
    assert [n.value for n in find_numbers(text)] == pytest.approx(values)


def test_chinese_percent_words_fiscal_years_and_downward_revisions():
    assert _numeric("答案：百分之七十點二", 0.70203, "增加百分比是多少？").correct
    assert not _numeric("答案：百分之六十", 0.70203, "增加百分比是多少？").correct
    assert _scored("Answer: FY2010", 2010.0, "設施租約涵蓋的最後一年是哪一年？")
    assert not _scored("Answer: FY2011", 2010.0, "設施租約涵蓋的最後一年是哪一年？")
    assert _numeric("答案：下修 8.23%", -0.0823, "出價應調整多少（以百分比表示）？", "-8.23%").correct
    assert not _numeric("答案：上修 8.23%", -0.0823, "出價應調整多少（以百分比表示）？", "-8.23%").correct


def test_a_rate_word_asks_for_a_percent_but_ratios_and_exchange_rates_do_not():
    assert match.is_percent_question(None, "每年攤銷率是多少？")
    assert match.is_percent_question(None, "違約率為何？")
    assert not match.is_percent_question(None, "匯率是多少？")
    assert not match.is_percent_question(None, "2015 年的流動比率是多少？")
    assert _numeric("答案：25%", 25.0, "每年攤銷率是多少？", "25").correct


# ---- the fourth blind probe (tests/fixtures/adversarial_outputs_5.jsonl) --------------------------------------

def test_negative_growth_and_simplified_units():
    assert _numeric("答案：負成長 3.19%", -0.03194, "2015 年至 2016 年的變動百分比是多少？").correct
    assert not _numeric("答案：成長 3.19%", -0.03194, "2015 年至 2016 年的變動百分比是多少？").correct
    assert _numeric("答案：1.877 万", 18770.0, "這個變動乘以該商數是多少？").correct
    assert _numeric("答案：132 亿元", 13.2e9, "權益價值是多少（請以新臺幣元表示，四捨五入至整數）？").correct
    assert not _numeric("答案：132 万元", 13.2e9, "權益價值是多少（請以新臺幣元表示，四捨五入至整數）？").correct


# ---- the fifth probe (tests/fixtures/adversarial_outputs_6.jsonl) --------------------------------------------

@pytest.mark.parametrize("answer, gold, ok", [("答案：(US$6)", -6.0, True), ("答案：($6)", -6.0, True),
                                              ("答案：(USD 6)", -6.0, True), ("答案：(US$6)", 6.0, False)])
def test_a_bracketed_amount_with_a_currency_is_negative(answer, gold, ok):
    assert _numeric(answer, gold, "淨額是多少（百萬美元）？").correct is ok


def test_words_for_no_change_are_zero():
    q = "2015 年至 2016 年的變動是多少？"
    for word in ("持平", "不變", "沒有變化", "維持不變", "unchanged"):
        assert _numeric(f"答案：{word}", 0.0, q).correct, word
        assert not _numeric(f"答案：{word}", 5.0, q).correct, word
    assert _numeric("答案：不變的是 3", 3.0, q).correct  # a number on the line wins


# ---- a loss or an outflow asked by name: either sign (issue 29 class 4; audit 2032 convfinqa 0015 t0, 0268 t0) ----
LOSS_QUESTIONS = [
    "2015 年的累積其他綜合損失總額是多少？",
    "投資活動之現金流出是多少？",
    "2013 年至 2014 年間，累積其他綜合損失總額的淨變動是多少？",
    "該公司 2012 年的淨損失是多少（以百萬計）？",
    "用於投資活動之淨現金是多少？",
    "What was the accumulated other comprehensive loss in 2015?",
]


@pytest.mark.parametrize("question", LOSS_QUESTIONS)
def test_a_loss_asked_by_name_accepts_either_sign(question):
    assert match.sign_free(question) == match.PATH_LOSS
    for gold in (9402.0, -9402.0):
        for answer in ("答案：9402", "答案：-9,402", "答案：−9402"):
            assert _numeric(answer, gold, question).correct, (question, gold, answer)
        assert not _numeric("答案：9000", gold, question).correct  # the magnitude still counts
        assert not _numeric("答案：-9000", gold, question).correct


@pytest.mark.parametrize("question", [
    "2015 年的淨利（損失）是多少？",  # a gain-or-loss: the sign says which
    "本期損益是多少？",
    "2015 年的備抵損失是多少？",  # a balance that holds losses
    "貸款損失準備從 2012 年到 2013 年的變動是多少？",  # …whose change has a direction
    "信用損失費用的變動是多少？",  # a change of an expense named 損失: not a net result
    "虧損增加了多少？",  # an increase asked: positive
    "累積其他綜合損失的變動是多少（減少時為負值）？",  # a sign asked
    "What was the net income (loss) in 2015?",
    "What was the change in the allowance for loan losses?",
    "2015 年的營業收入是多少？",
    "2003 年至 2004 年，減損費用及淨損失的變動百分比是多少？",  # an expense line's change
    "這個數值再減去籌資活動之現金流出是多少？",  # an arithmetic result has its own sign
    "今年剩下的可承受損失額度是多少？",  # a headroom
])
def test_a_loss_rule_keeps_the_sign_where_it_means_something(question):
    assert match.sign_free(question) != match.PATH_LOSS
    if not match.sign_free(question):
        assert not _numeric("答案：-9402", 9402.0, question).correct
