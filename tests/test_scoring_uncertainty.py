"""Issue 26, the classes blind set 7 found after part 2 — one rule each in `answers/`, used by the numeric
answer line, yes/no answers and FinChain's categorical labels alike. Accept AND reject cases, several phrasings
per class, Traditional and Simplified, through `engine.score` (and the numeric_match metric for FinQA records,
via `verdict`):

1. a joiner's 是 («或是», «還是») is not the copula of «X 為 value»: «52.57% 或是 53%» is two values;
2. a hedge may introduce a second value with its direction («大約下修 14.20%，也可能下修 14.5%»);
3. a comparison states how much lower («比門檻報酬率低 6.31 個百分點» is −6.31), and Simplified 个百分点 / 个基点 are
   units;
4. a negation whose verb differs from the question's words still negates («未超過風險胃納» for «是否超出風險胃納»,
   «未達列為…», «沒有達到減碳目標», «沒有被列為高風險»), while 不僅 / 未來 / 不動產 / 不良 do not negate;
5. an uncertain conclusion («可能是符合», «不一定», «未必», «也許是甲方案») is neither yes nor no nor a label;
6. a conclusion with an alternative that reads the other way («是或否», «符合，但也可能不符合», «甲方案（或許是乙方案）»)
   is undecided;
7. a reply without an answer line that refuses is `refused` even when a closing courtesy follows it;
8. a bound is not a value («至少 12.5%», «12.5% 以上», «不到 13%», «12.5%±0.5%»), and a rounder restatement in the
   same unit is a second value («12.5%，四捨五入後約 13%», «12.5%（約 13%）»);
9. a decrease word keeps its sign across an approximation («減少大約 5.2%», «縮水近兩成»), in both scripts and in
   Taiwan market usage («重挫», «少賺», «轉虧», «12.5 趴»).
"""

from __future__ import annotations

import pytest

from tests.test_scoring_edges import _finchain, _finqa, _item, verdict
from tw_fin_eval.answers import extract

# ---- 1. 「或是」 joins, it does not state -------------------------------------------------------------------
RATE = _finqa("該公司 2019 年的毛利率是多少？", 0.5257, "52.57%")


@pytest.mark.parametrize("joined", ["或是", "還是", "还是", "抑或是", "或者是", "或是大約", "或是约"])
def test_a_joiner_ending_in_shi_is_not_a_copula(joined):
    # either value as the gold: the second one is within 1% of the first, so reading 是 as "is" accepted it
    for gold, shown in ((0.5257, "52.57%"), (0.53, "53%")):
        assert verdict(dict(RATE, answer_value=gold, answer=shown), f"答案：52.57% {joined} 53%") is False


@pytest.mark.parametrize("response", ["答案：毛利率為 52.57%", "答案：毛利率是 52.57%", "答案：毛利率約為 52.57%",
                                      "答案：計算結果是 52.57%（或是 0.5257）", "答案：52.57% 或是 0.5257"])
def test_a_copula_still_states_the_value(response):
    assert verdict(RATE, response) is True
    assert verdict(dict(RATE, answer_value=0.55, answer="55%"), response) is False


# ---- 2. a hedge, a direction, another value ------------------------------------------------------------------
FELL = _finqa("該公司營收的變動百分比是多少？", -0.142, "-14.2%")
ROSE = _finqa("該公司營收的變動百分比是多少？", 0.142, "14.2%")


@pytest.mark.parametrize("rec, response", [
    (FELL, "答案：大約下修 14.20%，也可能下修 14.5%"), (FELL, "答案：下滑 14.2%，但也有可能下滑 15%"),
    (FELL, "答案：减少 14.2%，也可能减少 15%"), (FELL, "答案：衰退 14.2%（或許衰退 15%）"),
    (FELL, "Answer: down 14.2%, but it could also be down 15%"), (ROSE, "答案：成長 14.2%，也可能成長 15%"),
    (ROSE, "答案：年增 14.2%，或许增长 15%"), (ROSE, "答案：上升 14.2%，亦可能上升約 15%"),
])
def test_a_hedged_second_value_with_a_direction_is_an_alternative(rec, response):
    assert verdict(rec, response) is False


@pytest.mark.parametrize("rec, response", [
    (FELL, "答案：下修 14.20%，也可能下修 14.2%"), (FELL, "答案：下修 14.2%，可能因為需求下滑"),
    (ROSE, "答案：成長 14.2%，可能受惠於新產品"), (FELL, "答案：减少 14.2%"),
])
def test_one_value_with_a_hedged_explanation_is_one_answer(rec, response):
    assert verdict(rec, response) is True


# ---- 3. 「比…低 N」, and Simplified point units ---------------------------------------------------------------
HURDLE_Q = ("請問這項投資的內部報酬率比門檻報酬率高（或低）多少個百分點？（請以百分比表示，四捨五入至小數點後第 2 位，"
            "低於門檻時為負值）")


@pytest.mark.parametrize("response", ["答案：比門檻報酬率低 6.31 個百分點", "答案：較門檻報酬率低了 6.31 個百分點",
                                      "答案：比门槛报酬率低 6.31 个百分点", "答案：低於門檻報酬率 6.31 個百分點",
                                      "答案：相較於門檻少了約 6.31 個百分點", "答案：-6.31 个百分点"])
def test_lower_by_states_a_negative_difference(response):
    assert verdict(_finchain(HURDLE_Q, value=-6.31, answer="-6.31%", decimals=2), response) is True
    assert verdict(_finchain(HURDLE_Q, value=6.31, answer="6.31%", decimals=2), response) is False


@pytest.mark.parametrize("response", ["答案：比門檻報酬率高 6.31 個百分點", "答案：較門檻高出 6.31 個百分點",
                                      "答案：6.31 个百分点", "答案：比較後為 6.31 個百分點"])
def test_higher_or_a_plain_comparison_keeps_the_sign(response):
    assert verdict(_finchain(HURDLE_Q, value=6.31, answer="6.31%", decimals=2), response) is True
    assert verdict(_finchain(HURDLE_Q, value=-6.31, answer="-6.31%", decimals=2), response) is False


def test_a_bound_is_not_a_difference():
    # 「低於 5%」 with nothing compared is a bound (an open range), not −5; 「較去年少 320 萬元」 is a difference
    assert extract.read_answer_line("低於 5%").ambiguous
    assert extract.read_answer_line("较去年少 320 万元").num.bare == -320.0


def test_simplified_basis_points_are_basis_points():
    q = "殖利率上升幾個基點？"
    assert verdict(_finqa(q, 25.0, "25"), "答案：上升 25 个基点") is True
    assert verdict(_finqa(q, 25.0, "25"), "答案：上升 0.25 个百分点") is True
    assert verdict(_finqa(q, 25.0, "25"), "答案：上升 2.5 个基点") is False


# ---- 4. a negation whose verb differs from the question's --------------------------------------------------
NEGATION = [
    ("請問是否超出風險胃納？", "答案：未超過風險胃納上限", "no"),
    ("請問是否超出風險胃納？", "答案：并未超过风险胃纳", "no"),
    ("請判斷是否列為疑似分散交易。", "答案：未達列為疑似分散交易的條件", "no"),
    ("請判斷是否列為疑似分散交易。", "答案：未达列为疑似分散交易的条件", "no"),
    ("今年是否達成減碳目標？", "答案：沒有達到減碳目標", "no"),
    ("今年是否達成減碳目標？", "答案：没有达到减碳目标", "no"),
    ("是否列為高風險客戶？", "答案：沒有被列為高風險客戶", "no"),
    ("該申請是否核准？", "答案：未獲核准", "no"),
    ("負債比率是否超過上限？", "答案：不可能超過上限", "no"),
    ("負債比率是否超過上限？", "答案：沒有可能超過上限", "no"),
    ("請問是否超出風險胃納？", "答案：已超過風險胃納", "yes"),
    ("請問是否超出風險胃納？", "答案：不僅超過風險胃納，還超過兩倍", "yes"),
    ("今年是否達成減碳目標？", "答案：已達到減碳目標", "yes"),
    ("負債比率是否超過上限？", "答案：不動產投資超過上限", "yes"),
    ("負債比率是否超過上限？", "答案：不良放款比率超過上限", "yes"),
    ("負債比率是否超過上限？", "答案：未來將超過上限", "yes"),
    ("是否符合要求？", "答案：無重大缺失，符合要求", "yes"),
]


@pytest.mark.parametrize("question, response, want", NEGATION)
def test_a_negation_with_another_verb_still_negates(question, response, want):
    other = "no" if want == "yes" else "yes"
    assert verdict(_finqa(question, None, text=want), response) is True
    assert verdict(_finqa(question, None, text=other), response) is False
    # FinChain's categorical yes/no labels read the same way
    fc_want, fc_other = ("是", "否") if want == "yes" else ("否", "是")
    assert verdict(_finchain(question, answer=fc_want, text=fc_want), response, (fc_other,)) is True
    assert verdict(_finchain(question, answer=fc_other, text=fc_other), response, (fc_want,)) is False


RISK_Q = "總分 0–3 分為低風險、4–6 分為中風險、7 分以上為高風險。請判斷其風險等級（低風險／中風險／高風險）。"


@pytest.mark.parametrize("response, gold, want", [
    ("答案：沒有被列為高風險，屬中風險", "中風險", True), ("答案：沒有被列為高風險，屬中風險", "高風險", False),
    ("答案：并未达到高风险，属于中风险", "中風險", True), ("答案：未達高風險，為中風險", "高風險", False),
    ("答案：不屬於高風險", "中風險", "pending"), ("答案：中風險", "中風險", True),
])
def test_a_negated_label_is_rejected_by_the_same_rule(response, gold, want):
    assert verdict(_finchain(RISK_Q, answer=gold, text=gold), response) == want


# ---- 5. an uncertain conclusion is not a conclusion ---------------------------------------------------------
UNCERTAIN_YN = [
    ("請判斷該行是否符合要求。", "答案：可能是符合"), ("請判斷該行是否符合要求。", "答案：或許符合"),
    ("請判斷該行是否符合要求。", "答案：不一定符合"), ("請判斷該行是否符合要求。", "答案：未必符合"),
    ("請判斷該行是否符合要求。", "答案：大概是"), ("請判斷該行是否符合要求。", "答案：也許是"),
    ("負債比率是否超過上限？", "答案：可能會超過上限"), ("負債比率是否超過上限？", "答案：负债比率可能超过上限"),
    ("負債比率是否超過上限？", "答案：说不定超过上限"), ("負債比率是否超過上限？", "答案：我認為可能不會超過"),
    ("負債比率是否超過上限？", "Answer: maybe yes"), ("負債比率是否超過上限？", "Answer: probably not"),
]


@pytest.mark.parametrize("question, response", UNCERTAIN_YN)
def test_an_uncertain_yes_no_is_neither(question, response):
    assert verdict(_finqa(question, None, text="yes"), response) is False
    assert verdict(_finqa(question, None, text="no"), response) is False
    assert verdict(_finchain(question, answer="是", text="是"), response, ("否",)) == "pending"
    assert verdict(_finchain(question, answer="否", text="否"), response, ("是",)) == "pending"


@pytest.mark.parametrize("question, response, want", [
    ("請判斷該行是否符合要求。", "答案：應該是符合", "yes"), ("請判斷該行是否符合要求。", "答案：应该不符合", "no"),
    ("負債比率是否超過上限？", "答案：是，違約可能性低", "yes"), ("負債比率是否超過上限？", "答案：否，不可能超過", "no"),
    ("負債比率是否超過上限？", "答案：超過，可能性很高", "yes"),
])
def test_a_settled_answer_with_a_possibility_word_is_still_an_answer(question, response, want):
    other = "no" if want == "yes" else "yes"
    assert verdict(_finqa(question, None, text=want), response) is True
    assert verdict(_finqa(question, None, text=other), response) is False


PLAN_Q = "甲方案與乙方案何者淨現值較高？（請回答甲方案或乙方案）"


@pytest.mark.parametrize("response", ["答案：可能是甲方案", "答案：也許選甲方案", "答案：大概是甲方案", "答案：或许是甲方案",
                                      "答案：甲方案，乙方案也許更好", "Answer: probably 甲方案"])
def test_an_uncertain_label_is_pending(response):
    assert verdict(_finchain(PLAN_Q, answer="甲方案", text="甲方案"), response) == "pending"
    assert verdict(_finchain(PLAN_Q, answer="乙方案", text="乙方案"), response) == "pending"


# ---- 6. an alternative that reads the other way --------------------------------------------------------------
ALTERNATIVE_YN = [
    ("負債比率是否超過上限？", "答案：是或否"), ("負債比率是否超過上限？", "答案：是/否"),
    ("負債比率是否超過上限？", "答案：是，也可能否"), ("負債比率是否超過上限？", "答案：是（但也可能否）"),
    ("負債比率是否超過上限？", "答案：超過，但也可能未超過"), ("負債比率是否超過上限？", "答案：超过，但不排除未超过"),
    ("請判斷該行是否符合要求。", "答案：符合或不符合"), ("請判斷該行是否符合要求。", "答案：符合还是不符合"),
    ("請判斷該行是否符合要求。", "答案：不符合，或許符合"), ("負債比率是否超過上限？", "Answer: yes, or possibly no"),
]


@pytest.mark.parametrize("question, response", ALTERNATIVE_YN)
def test_yes_and_no_together_are_neither(question, response):
    assert verdict(_finqa(question, None, text="yes"), response) is False
    assert verdict(_finqa(question, None, text="no"), response) is False


@pytest.mark.parametrize("question, response, want", [
    ("負債比率是否超過上限？", "答案：沒有超過 A 或 B 的上限", "no"),
    ("請判斷該行是否符合要求。", "答案：符合，資本或流動性皆達標準", "yes"),
    ("請判斷該行是否符合要求。", "答案：否，因為資本或盈餘都未達標", "no"),
    ("負債比率是否超過上限？", "答案：否，也不會超過上限", "no"),
    ("負債比率是否超過上限？", "答案：是，或者說明顯超過", "yes"),
])
def test_a_joiner_inside_one_answer_is_not_an_alternative(question, response, want):
    other = "no" if want == "yes" else "yes"
    assert verdict(_finqa(question, None, text=want), response) is True
    assert verdict(_finqa(question, None, text=other), response) is False


@pytest.mark.parametrize("response, want", [
    ("答案：甲方案（或許是乙方案）", "pending"), ("答案：甲方案，也可能是乙方案", "pending"),
    ("答案：甲方案，或是乙方案", "pending"), ("答案：甲方案或乙方案", "pending"),
    ("答案：甲方案（淨現值較高）", True), ("答案：甲方案（乙方案淨現值較低）", True),
    ("答案：乙方案（淨現值較高）", False),
])
def test_a_label_with_an_alternative_aside_is_undecided(response, want):
    assert verdict(_finchain(PLAN_Q, answer="甲方案", text="甲方案"), response) == want


# ---- 7. a refusal followed by a closing courtesy ---------------------------------------------------------------
COURTESY_REFUSALS = [
    "計算如下。\n資料不足，無法判斷。\n\n希望這個回答對您有幫助！如果還有其他問題歡迎再問我。",
    "依題意計算。\n数据不足，无法确定。\n希望这个回答对您有帮助。",
    "The table has no 2003 figure.\nI cannot determine the answer.\n\nHope this helps!",
    "題目缺少必要資訊，無法計算。\n以上說明供您參考。",
]


@pytest.mark.parametrize("response", COURTESY_REFUSALS)
def test_a_refusal_then_a_courtesy_is_refused(response):
    item = _item(_finqa("營收是多少？", 45.2, "45.2"), response)
    assert item.refused and not item.correct
    yes_no = _item(_finqa("是否須申報？", None, text="yes"), response)
    assert yes_no.refused and not yes_no.correct
    fc = _item(_finchain("請判斷是否可核准（請回答是或否）。", answer="是", text="是"), response, ("否",))
    assert fc.refused and not fc.correct and fc.status == "scored"


@pytest.mark.parametrize("response", ["計算得 45.2。\n答案：45.2\n\n希望這個回答對您有幫助！",
                                      "答案：45.2\n如果還有其他問題歡迎再問我。"])
def test_a_courtesy_after_an_answer_changes_nothing(response):
    item = _item(_finqa("營收是多少？", 45.2, "45.2"), response)
    assert item.correct and not item.refused


def test_a_closing_line_that_states_the_answer_is_read():
    # a last line with a number is never dropped as a courtesy
    assert extract.content_lines("計算如上。\n希望答案 45.2 對您有幫助")[-1].endswith("對您有幫助")
    item = _item(_finchain("請判斷是否可核准（請回答是或否）。", answer="是", text="是"),
                 "經計算可以核准。\n結論：是\n希望這個回答對您有幫助！", ("否",))
    assert item.extracted == "結論：是" and not item.refused


# ---- 8. bounds and rounder restatements ------------------------------------------------------------------------
NET = _finqa("該公司 2019 年的淨利率是多少？", 0.125, "12.5%")


@pytest.mark.parametrize("response", [
    "答案：至少 12.5%", "答案：12.5% 以上", "答案：超過 12.5%", "答案：超过 12.5%", "答案：不低於 12.5%", "答案：不到 12.6%",
    "答案：低於 12.6%", "答案：最多 12.5%", "答案：逾 12.5%", "答案：12.5% 以內", "答案：12.5% 或以上", "答案：12.5%±0.5%",
    "Answer: at least 12.5%", "Answer: over 12.5%", "Answer: 12.5% or more", "Answer: up to 12.5%", "答案：≥ 12.5%",
    "答案：12.5%，差不多 14%", "答案：12.5%（約 14%）", "答案：12.5%（若四捨五入為 13%）", "答案：12.5%，即約 12.8%",
    "Answer: 12.5%, roughly 14%", "答案：12.5%（约 12.7%）",
])
def test_a_bound_or_a_rounder_second_value_is_wrong(response):
    assert verdict(NET, response) is False
    assert verdict(dict(NET, answer_value=0.13, answer="13%"), response) is False


@pytest.mark.parametrize("response", [
    "答案：12.5%", "答案：接近 12.5%", "答案：12.5% 左右", "答案：差不多 12.5%", "答案：12.5%，以上為計算結果",
    "答案：12.5%，約 0.125", "答案：12.5%（約 0.125）", "答案：12.5%（四捨五入至小數點後一位）", "答案：12.5%，高於去年的 10%",
    "答案：12.5%，低於同業的 15%", "答案：12.5%，約佔營收的八分之一", "答案：12.5%，四捨五入後約 13%", "答案：12.5%（約 13%）",
    "答案：12.5%，差不多 12%", "Answer: 12.5%, roughly 13%", "答案：12.47%（約 12.5%）",
])
def test_an_approximate_or_explained_value_is_one_answer(response):
    assert verdict(NET, response) is True


def test_a_rounder_value_in_another_unit_converts():
    money = _finqa("該筆交易的金額是多少元？", 1_234_000.0, "1234000")
    assert verdict(money, "答案：1,234,000 元，約 123 萬元") is True
    assert verdict(money, "答案：1,234,000 元，約 1,230,000 元") is False


# ---- 9. decrease words across an approximation; Taiwan market usage; Chinese numerals ------------------------------
CHANGE_Q = "該公司營收的變動百分比是多少？"


@pytest.mark.parametrize("response", [
    "答案：減少大約 5.2%", "答案：减少大约 5.2%", "答案：下滑將近 5.2%", "答案：衰退接近 5.2%", "答案：減少約莫 5.2%",
    "答案：下降了大約 5.2%", "答案：少了 5.2%", "答案：重挫 5.2%", "答案：股價回落 5.2%", "答案：新台幣貶值 5.2%",
    "答案：減少百分之五點二", "答案：减少百分之五点二", "答案：营收减少了大概 5.2%",
])
def test_a_decrease_keeps_its_sign_across_an_approximation(response):
    assert verdict(_finqa(CHANGE_Q, -0.052, "-5.2%"), response) is True
    assert verdict(_finqa(CHANGE_Q, 0.052, "5.2%"), response) is False


@pytest.mark.parametrize("response", ["答案：縮水近兩成", "答案：营收缩水近两成", "答案：衰退兩成"])
def test_a_decrease_in_tenths_is_negative(response):
    assert verdict(_finqa(CHANGE_Q, -0.2, "-20%"), response) is True
    assert verdict(_finqa(CHANGE_Q, 0.2, "20%"), response) is False


@pytest.mark.parametrize("response", ["答案：少賺 320 百萬元", "答案：少赚 320 百萬元", "答案：由盈轉虧 320 百萬元", "答案：虧了 320 百萬元",
                                      "答案：亏损大概 320 百萬元"])
def test_taiwan_loss_phrasing_gives_the_sign(response):
    q = "該公司本期的淨損益較去年變動多少（百萬元）？"
    assert verdict(_finqa(q, -320.0, "-320"), response) is True
    assert verdict(_finqa(q, 320.0, "320"), response) is False


@pytest.mark.parametrize("response, want", [("答案：12.5 趴", True), ("答案：兩成五", False), ("答案：两成五", False),
                                            ("答案：一成二五", False), ("答案：13 趴", False)])
def test_colloquial_percent_and_simplified_tenths(response, want):
    assert verdict(NET, response) is want
    assert verdict(_finqa("該公司 2019 年的淨利率是多少？", 0.25, "25%"), "答案：两成五") is True


# ---- uncertainty with a degree word, a trailing hedge, a restated question, English lead-ins ------------------------
@pytest.mark.parametrize("response", ["答案：很可能超過上限", "答案：有可能超過", "答案：極可能超過上限", "答案：傾向於超過上限",
                                      "答案：是，可能吧", "答案：是（可能）", "Answer: Yes, probably.", "Answer: likely yes",
                                      "答案：我猜是", "答案：推測是超過", "答案：幾乎超過上限", "答案：差點超過上限",
                                      "答案：偏向超過"])
def test_a_hedged_yes_no_is_neither(response):
    q = "負債比率是否超過上限？"
    assert verdict(_finqa(q, None, text="yes"), response) is False
    assert verdict(_finqa(q, None, text="no"), response) is False


@pytest.mark.parametrize("response, want", [
    ("答案：是否超過上限：否", "no"), ("答案：是否超過上限：是", "yes"), ("Answer: I think yes", "yes"),
    ("Answer: I believe no", "no"), ("答案：確定是", "yes"), ("答案：可以確定超過上限", "yes"), ("答案：是，可能性高", "yes"),
    ("答案：肯定超過", "yes"),
])
def test_a_settled_yes_no_after_a_lead_in(response, want):
    q = "負債比率是否超過上限？"
    other = "no" if want == "yes" else "yes"
    assert verdict(_finqa(q, None, text=want), response) is True
    assert verdict(_finqa(q, None, text=other), response) is False


@pytest.mark.parametrize("response", ["答案：中至高風險", "答案：中或高風險", "答案：中、高風險", "答案：低到中風險",
                                      "答案：很可能是高風險", "答案：高風險（可能）"])
def test_a_range_of_labels_or_a_hedged_label_is_pending(response):
    for gold in ("中風險", "高風險"):
        assert verdict(_finchain(RISK_Q, answer=gold, text=gold), response, ("低風險", "中風險", "高風險")) == "pending"


# ---- corrections phrased as an admitted slip -----------------------------------------------------------------
@pytest.mark.parametrize("response", [
    "答案：原本算 8.1，但重新檢查後為 7.6", "答案：8.1；抱歉算錯了，是 7.6", "答案：8.1（筆誤，實為 7.6）", "答案：8.1，不，是 7.6",
    "答案：8.1 有誤，實際為 7.6", "答案：8.1，算错了，应为 7.6", "Answer: 8.1, sorry, 7.6", "Answer: 8.1 — wait, it is 7.6",
    "答案：應該是 7.6 而不是 8.1", "答案：8.1⋯⋯不對，是 7.6", "答案：8.1，經驗算後為 7.6",
])
def test_an_admitted_slip_is_read_after_it(response):
    q = "該公司的利息保障倍數是多少？"
    assert verdict(_finqa(q, 7.6, "7.6"), response) is True
    assert verdict(_finqa(q, 8.1, "8.1"), response) is False


@pytest.mark.parametrize("response", ["答案：正確為 7.6，先前誤植為 8.1", "答案：7.6（先前誤算為 8.1）", "答案：7.6，不是 8.1"])
def test_the_slip_named_after_the_answer_is_not_the_answer(response):
    q = "該公司的利息保障倍數是多少？"
    assert verdict(_finqa(q, 7.6, "7.6"), response) is True
    assert verdict(_finqa(q, 8.1, "8.1"), response) is False


@pytest.mark.parametrize("response", ["答案：5.2%（衰退）", "答案：5.2% (decrease)", "答案：此筆為衰退，幅度為 5.2%"])
def test_a_direction_in_an_aside_or_another_clause_gives_no_sign(response):
    # the documented rule (asides and second clauses are not the value; sets 4, 5 and 7 adjudicate it so): the value
    # carries its own sign or decrease word
    assert verdict(_finqa(CHANGE_Q, -0.052, "-5.2%"), response) is False
    assert verdict(_finqa(CHANGE_Q, 0.052, "5.2%"), response) is True
