"""Every word list answer reading uses — the one place a word is added or removed.

`numbers`, `extract`, `match`, the task scorers and the FinLLM450 option parser build their patterns from
these lists; none of them spells a word list of its own. Lists are tuples of regex fragments (most are
plain words); where a list is turned into an alternation whose *first* match is used, longer words come
first (「百萬」 before 「萬」) and the order is part of the rule.
"""

from __future__ import annotations


def alternation(words: tuple[str, ...]) -> str:
    """The regex alternation of a word list (fragments are joined as written)."""
    return "|".join(words)


# ---- answer markers -----------------------------------------------------------------------------------------
# The strict answer follows the last of these and a colon (「答案：」, 「**答案**：」, "Answer:").
ANSWER_MARKERS = ("答案", "answer")
STEP_LABELS = ("步驟", "Step")  # 「步驟 2：」, "Step 2:": labels, never values
# Cues of a stated conclusion in a free-form reply (FinLLM450's APMIC replies): 「故選 (2)」, 「正確答案為 B」.
CONCLUSION_COPULAS = ("應該?是", "應為", "應選", "是", "為", ":")  # 「正確答案應為 B」
CONCLUSION_CUES = ("正確答案", "最終答案", "答案", "正解", "故選", "應選", "本題選", "因此選", "所以選", "故答案", "選擇")
CHOICE_LEADS = ("選項", "選擇", "選", "option", "choice")  # 「選項 B」, "option B"
CHOICE_JOINERS = (",", "，", "、", "和", "及", "與", "/", "&", "and")  # 「A、C」, "B and D"

# ---- scale words, units and currencies ----------------------------------------------------------------------
# What a unit word multiplies by. Chinese and English scale words, and the letter abbreviations ($3.74M, $5k).
SCALE_WORDS: dict[str, float] = {
    "千": 1e3, "萬": 1e4, "百萬": 1e6, "千萬": 1e7, "億": 1e8, "十億": 1e9, "兆": 1e12,
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9,
    "k": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "b": 1e9,  # $3.74M, 12.26M shares, $5k, $1.2B
}
# Units that restate a scale a Chinese reader merges into one number (1億2,000萬).
CJK_SCALE_WORDS: dict[str, float] = {"兆": 1e12, "億": 1e8, "萬": 1e4, "千": 1e3}
# Scale words a question names as the unit it asks in («（百萬美元）», «以千元計», «換算成十億»), longest first.
QUESTION_SCALE_WORDS = ("千萬", "百萬", "十億", "千", "萬", "億")
QUESTION_SCALE_WORDS_EN = ("thousands?", "millions?", "billions?")
QUESTION_SCALE_CURRENCIES = ("新台幣", "新臺幣", "美元", "美金")  # 「以新台幣千元計」
QUESTION_SCALE_UNITS = ("美元", "元", "美金", "股", "平方英尺")  # 「（百萬美元）」, 「以千股計」
QUESTION_COUNT_UNITS = ("美元", "元", "美金", "股", "桶", "平方英尺", "單位")  # 「減少了多少百萬股」
QUESTION_CONVERT_WORDS = ("換算成", "換算為", "折合")  # 「換算成十億美元是多少」
PERCENT_UNITS = frozenset({"%", "個百分點", "百分點"})
BPS_UNITS = frozenset({"bps", "bp", "個基點", "基點"})
# Every unit word a number may carry, in match order (longer first: 「個百分點」 before 「百分點」, 「十億」 before 「億」).
NUMBER_UNITS = ("%", "個百分點", "百分點", "bps", "bp", "個基點", "基點", "兆", "十億", "千萬", "百萬", "億", "萬", "千",
                "trillion", "billion", "million", "thousand", "bn", "mn", "mm", "k", "m", "b")
CURRENCY_BEFORE = (r"NT\s?\$", r"US\s?\$", r"HK\s?\$", r"\$", "NTD", "USD", "TWD", "新台幣", "新臺幣", "台幣", "臺幣", "美金")
CURRENCY_AFTER = ("新台幣元", "新臺幣元", "美元", "港元", "台幣", "臺幣", "元", "NTD", "USD", "TWD", "dollars?")
DATE_SUFFIXES = "年月日季週周"  # 「2015 年」, 「12 月」, 「第 3 季」: the number is a date part, not a value
# A gold display string with one of these is an amount or a count, never a percentage (「NT$0.16」, 「1.52 倍」).
NOT_PERCENT_GOLD_MARKS = (r"\$", "元", "倍", "萬", "億", "千", "股", "次", "天", "年", "bps", "基點")

# ---- percent, multiple and basis-point cues -----------------------------------------------------------------
# An asked clause that names one of these asks for a percentage.
PERCENT_CUES = ("百分比", "百分率", "百分點", "百分之", "比例", "比重", "佔比", "占比", "成長率", "增長率", "增加率", "減少率",
                "下降率", "變動率", "變化率", "報酬率", "收益率", "殖利率", "利潤率", "毛利率", "淨利率", "利率", "稅率",
                "percent", "growth rate", "rate of return", "portion", "proportion")
# Named ratios and multiples are not percentages (夏普比率 0.52, 流動比率 1.11); 比率 alone is not a percent cue
# of a question (A 與 B 的比率 1.59) — only of a step label (see RATE_LABEL_CUES).
NAMED_RATIOS = ("夏普比率", "特雷諾比率", "索提諾比率", "資訊比率", "流動比率", "速動比率", "負債對權益比率", "負債權益比",
                "本益比", "股價淨值比", "利息保障倍數", "週轉率", "周轉率", "乘數", "比值", "倍數", "sharpe ratio",
                "current ratio", "quick ratio", "debt[- ]to[- ]equity")
NON_PERCENT_RATE_BEFORE = "比倍匯頻效"  # 比率, 倍率, 匯率, 頻率, 效率: a 「…率」 that is not a percent rate
RATE_LABEL_CUES = ("比率", "%", "％")  # a step label with these (or a PERCENT_CUES word) names a rate
TIMES_CUES = ("以倍數表示", "幾倍", "倍數", "多少倍", "^ ?倍 ?$", "times", "multiple")
BPS_CUES = ("基點", "bps", "basis point")  # matched as written, "bps"/"basis point" case-insensitively
PERCENT_WORD_PREFIX = "百分之"  # 「百分之七十點二」 = 70.2%
# 「一成」 = 10%: 成 followed by one of these is a word (成長, 成本 …), not tenths
NOT_TENTHS_AFTER = "長本交立績功員分為果熟效"

# ---- yes / no ----------------------------------------------------------------------------------------------
YES_ANSWER_WORDS = ("是", "對", "正確", "有", "會", "yes", "true", "y")  # an answer's first word
NO_ANSWER_WORDS = ("否", "不是", "不對", "不正確", "錯誤?", "非", "沒有", "無", "不會", "不", "no", "false", "n")
YES_GOLD_WORDS = frozenset({"yes", "是", "對", "true", "y", "有"})  # a gold label
NO_GOLD_WORDS = frozenset({"no", "否", "不是", "false", "n", "沒有", "無"})
# A lead-in before the yes/no word (「應該是」, 「我認為否」); 「可能」, 「不確定」 are not hedges.
YES_NO_HEDGES = ("應該", "應", "我(?:認為|判斷|覺得)", "判斷(?:結果)?(?:為|是)?", "結論(?:為|是)", "看來", "顯然")
LAST_LINE_YES_NO = ("不是", "否", "是")  # read anywhere on a last line (with English yes/no)
# A negator right before a predicate negates it (「無需申報」, 「不列為」); the optional modal after it.
NEGATORS_BEFORE_PREDICATE = "不未非無沒毋免"
NEGATOR_MODALS = "須需必得用要"
NEGATOR_CHARS = "不非未無沒否"  # a categorical label near one of these may be negated
NEGATOR_WORDS = ("不", "非", "未", "無須", "無需", "毋須", "不須", "不需")  # a label negated by a word before it

# ---- direction: decrease words and no-change words ----------------------------------------------------------
# Verbs that state a decrease; a question that asks 「減少了多少」 puts the sign in the question.
DECREASE_VERBS = ("減少", "下降", "下跌", "降低", "縮減", "衰退")
# Words before a positive amount that give it a negative sign — in a final answer (「減少 2」, 「虧損 NT$5」,
# 「衰退 5」) and in an intermediate value step_recall reads (「淨現金流出 1,200」). One list for both.
DECREASE_WORDS = (*DECREASE_VERBS, "虧損", "淨損", "損失", "流出", "短缺", "赤字", "下修", "下調", "調降", "負成長", "負", "減",
                  "跌")
DECREASE_WORDS_EN = ("decrease[sd]?", "declined?", "declines", "drop(?:ped)?", "fell", "fall", "loss(?:es)?", "lower",
                     "down")
# Between the decrease word and the amount: 「減少了 2」, 「衰退約 5%」, "a decrease of $2", 「虧損 NT$5」.
DECREASE_LINKS = ("了", "約", "為", "達", "by", "of", "about", "approximately")
AMOUNT_CURRENCY_MARKS = (r"NT\$", r"US\$", r"\$")
# What a decrease question asks for after the verb: 「減少了多少」, 「下降的百分比」, 「縮減的金額」.
DECREASE_ASKED = ("百分比", "幅度", "比率", "比例", "金額", "數額", "數")
DECREASE_NOUNS = ("減幅", "跌幅")  # an asked 「減幅」 / 「跌幅」 is a decrease too
DECREASE_ASK_EN = ("decrease", "decline", "drop", "reduction")
NO_CHANGE_WORDS = ("持平", "不變", "沒有變(?:化|動)", "無變(?:化|動)", "沒有增減", r"^\W*(?:零|0)\W*$",  # a lone zero
                   r"\bunchanged\b", r"\bno change\b")

# ---- refusals ----------------------------------------------------------------------------------------------
REFUSAL_PHRASES = (
    "無法(?:判斷|確定|得知|計算|回答|判定|比較|得出|取得|確認)", "不確定", "不清楚", "不知道", "資料不足", "資訊不足", "數據不足",
    "(?:沒有|缺乏|缺少)(?:足夠|相關|必要)?的?(?:資料|資訊|數據)", "無從(?:判斷|得知)",
    "cannot (?:be )?(?:determined?|calculated?|computed?|answered?|tell)", "can't (?:determine|tell|say)",
    "unable to (?:determine|calculate|answer)", "not enough (?:information|data)", "insufficient (?:information|data)",
    r"\bunknown\b", r"\bN/?A\b", "not (?:possible|able) to determine",
)

# ---- what a question asks, and how an answer line states its value ------------------------------------------
ASK_WORDS = ("多少", "為何", "幾", "何者", "若干", "請問", "請計算", "請求", "求出", "計算", "what", "how (?:much|many)", "which")
YEAR_ASK_WORDS = ("哪一?年", "何年", "年份", "哪個年度", "what year", "which year")
# 「label = value」 / 「X 為 value」 / "the change was value": the value follows the last of these.
COPULAS = ("=", "＝", "≈", "約等於", "等於", "約為", "為", "是", "得到", "得出", "得",
           r"\b(?:was|is|are|were|equals|totals?|totaled|of)\b")
# Between two numbers these make a range or alternatives (「28,000–30,000」, 「369 或 373」, "12 to 13").
ALTERNATIVE_JOINERS = ("-", "~", "～", "至", "到", "或", "或是", "或者", "、", r"\bto\b", r"\bor\b")
ORDINAL_PREFIXES = ("第", r"No\.", "#", "Q", "FY", r"第\s")  # 「第 3」, "No. 2", "Q3": labels
YEAR_LEADS = ("from", "in", "between", "since", "to", "and", "through", "FY", "從", "自", "至", "到", "和", "與", "-")
YEAR_JOINERS = ("to", "and", "through", "至", "到", "和", "與", "-")
