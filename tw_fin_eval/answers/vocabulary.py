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
# Without that exact line, the answer line a careful grader reads: 「答案是 …」, 「答案為：…」, 「最終答案是 …」, 「答案應為 …」,
# 「【答案】…」, "The answer is …" — but 「答案是否正確」, 「答案為何」, 「答案是什麼」 ask, they do not answer.
LOOSE_ANSWER_COPULAS = ("應該是", "应该是", "應是", "应是", "應該為", "应该为", "應為", "应为", "是", "為", "为")
NOT_AN_ANSWER_AFTER = ("否", "何", "什", "甚", "多少", "不是")
ANSWER_MARKER_CLOSERS = ("】", r"\]")  # 「【答案】」, 「[答案]」
ANSWER_IS_EN = (r"answer\s+is\b",)
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
# Percentage points and basis points, in both scripts (「6.31 个百分点」, 「25 个基点」).
POINT_UNITS = ("個百分點", "百分點", "个百分点", "百分点")
PERCENT_UNITS = frozenset({"%", *POINT_UNITS, "趴"})  # 「12.5 趴」: Taiwan colloquial for percent
BPS_UNITS = frozenset({"bps", "bp", "個基點", "基點", "个基点", "基点"})
# Every unit word a number may carry, in match order (longer first: 「個百分點」 before 「百分點」, 「十億」 before 「億」).
NUMBER_UNITS = ("%", *POINT_UNITS, "趴", "bps", "bp", "個基點", "基點", "个基点", "基点", "兆", "十億", "千萬", "百萬", "億", "萬", "千",
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
YES_ANSWER_WORDS = ("是", "對", "正確", "yes", "true", "y")  # an answer's first word
NO_ANSWER_WORDS = ("否", "不是", "不對", "不正確", "錯誤?", "no", "false", "n")
# The same when the word stands alone (「沒有，…」, 「不會。」, 「需要」); words are read in Traditional script.
YES_ALONE_WORDS = ("有必要", "須要", "需要", "必須", "應該", "有", "會", "須", "需", "要")
NO_ALONE_WORDS = ("沒有", "無須", "無需", "毋須", "不須", "不需要", "不需", "不用", "不必", "不會", "無", "不", "非", "未", "免")
# A leading negator or 有/會 decides only when the question's predicate does not (「不僅超過上限」 is a yes).
NO_LEADING_WORDS = ("並不", "並沒有", "並無", "並未", "尚未", "從未", "不曾", "沒有", "不會", "非", "無", "不", "未")
YES_LEADING_WORDS = ("有", "會")
YES_GOLD_WORDS = frozenset({"yes", "是", "對", "true", "y", "有"})  # a gold label
NO_GOLD_WORDS = frozenset({"no", "否", "不是", "false", "n", "沒有", "無"})
# A lead-in before the yes/no word (「應該是」, 「我認為否」); 「可能」, 「不確定」 are not hedges.
YES_NO_HEDGES = ("應該", "應", "我(?:認為|判斷|覺得)", "判斷(?:結果)?(?:為|是)?", "結論(?:為|是)", "看來", "顯然", "(?:可以)?確定",
                 "肯定", r"I\s+(?:think|believe|conclude)(?:\s+that)?", r"in\s+my\s+(?:view|opinion)")
# An answer that restates the question before answering it: 「是否超過上限：否」 is read after the colon.
RESTATED_WHETHER = r"是否[^，,。；;:：]{0,24}[:：]"
LAST_LINE_YES_NO = ("不是", "否", "是")  # read anywhere on a last line (with English yes/no)
# A negator right before a predicate negates it (「無需申報」, 「不列為」); the optional modal after it.
# (Read in Traditional script.) 「未超過」, 「不須揭露」, 「無須申報」, 「負債比率沒有超過」, 「並未實際超過」, 「不應申報」, 「毋庸申報」;
# 不僅/不只/不但 (not only), 無論 (whatever), 非常 (very), 未來 (future) do not end in a negator and so do not negate.
NEGATORS_BEFORE_PREDICATE = ("尚未", "並未", "從未", "未曾", "未能", "未", "沒有", "沒", "無須", "無需", "毋須", "毋需", "毋庸",
                             "無庸", "不須", "不需要", "不需", "不必", "不用", "不會", "不能", "不可", "不得", "不要", "不", "無法",
                             "無", "毋", "非", "免")
NEGATOR_MODALS = ("須", "需", "需要", "必須", "必", "得", "用", "要", "會", "能", "曾", "有", "應該", "應當", "應", "宜", "可",
                  "予以", "予")
NEGATOR_ADVERBS = ("實際", "真正", "明顯", "再", "完全", "立即", "任何")
NEGATOR_PASSIVES = ("被", "遭")  # 「沒有被列為高風險」
# The predicate the question names may be stated with another verb (「是否超出」 — 「未超過風險胃納」, 「是否達成」 —
# 「沒有達到減碳目標」, 「是否列為」 — 「未達列為…的條件」): up to this many characters of a verb may stand between the
# negator (with its modal, adverb, passive) and the question's words.
NEGATED_VERB_GAP = 2
# Words that begin with a negator but do not negate what follows: not only, whatever, very, future, constantly,
# undoubtedly, all without exception — and financial terms that start with a negator's character (不動產, 不良放款,
# 無形資產, 非流動負債, 未實現損益 …). They are skipped before a negation is looked for.
NOT_NEGATIONS = ("不僅", "不只", "不但", "不光", "非但", "無論", "不論", "不管", "非常", "未來", "不斷", "無疑", "無不", "莫不",
                 "不動產", "不良", "無形", "無擔保", "無息", "非流動", "非營業", "非控制", "非金融", "未實現", "未分配", "未攤銷",
                 "未到期", "未償還", "未使用")
# Uncertainty: a yes/no or a label stated after one of these is not a conclusion (「可能是符合」, 「也許超過」, 「不一定超過」,
# 「未必符合」, "maybe yes") — it is undecided, like a refusal never a yes or a no. (Read in Traditional script; 「不可能」,
# 「沒有可能」 are negations, not hedges.)
UNCERTAIN_HEDGES = ("(?<![不沒無])(?<!沒有)可能(?!性)", "也許", "或許", "大概", "說不定", "似乎", "恐怕", "未必", "不一定", "不見得",
                    "或將", "傾向", "偏向", "我猜", "猜測", "推測", "幾乎", "差點", "差一點", r"\bmaybe\b", r"\bperhaps\b",
                    r"\bpossibly\b", r"\bprobably\b", r"\bmight\b", r"\b(?:un)?likely\b")  # «幾乎超過» does not exceed
# Degree words a hedge may carry at the start of an answer: 「很可能」, 「極可能」, 「有可能」, 「最可能是」.
HEDGE_DEGREES = ("很", "極", "非常", "相當", "頗", "比較", "較", "最", "有", "most", "quite", "very")
# A clause that is only a hedge makes the whole answer uncertain: 「是，可能吧」, 「是（可能）」, "Yes, probably."
HEDGE_PARTICLES = ("吧", "啦", "喔", "哦", "囉", "罷了", "而已", "not", "so", "yes", "no")
# An alternative to a conclusion: a later clause or a bracketed aside that starts with one of these (「符合，但也可能不
# 符合」, 「是（或許否）」, 「積極型，或是穩健型」, "yes, or possibly no"), or a joiner inside the first clause (「是或否」, 「符合
# 或不符合」, 「是/否」). An alternative that reads the other way leaves the conclusion undecided. (Traditional script.)
ALTERNATIVE_LEADS = (r"(?:但|不過|然而)?(?:也|亦|又)?(?:有)?可能(?:會|是|為)?", "(?:但|不過)?(?:或許|也許|說不定)(?:是|為)?",
                     "或(?:是|者)?(?![許])", "還是", "抑或(?:是)?", "(?:否則|不然)(?:為|是)?", "(?:但)?不排除(?:是|為)?",
                     r"(?:but\s+)?(?:it\s+)?(?:could|might|may)\s+(?:also\s+)?be", r"or\b(?:\s+(?:possibly|maybe|perhaps))?",
                     "perhaps", "maybe", "possibly", "otherwise")
CONCLUSION_JOINERS = ("或是", "或者", "抑或", "還是", "或(?![許])", "/", "／", r"\bor\b")
# A categorical label right after one of these is rejected, not named: 「甲方案優於乙方案」, 「排除乙方案」 (a negation —
# 「不選乙方案」, 「而非乙方案」, 「沒有被列為高風險」 — is read by the one negation rule above).
LABEL_REJECTORS = ("優於", "勝過", "勝於", "好於", "否決", "排除")
NEGATOR_WORDS = ("不", "非", "未", "無須", "無需", "毋須", "不須", "不需")  # a label negated by a word before it
# 「中至高風險」, 「低或中風險」, 「中、高風險」: a label's first character joined to another label is a range of labels.
LABEL_RANGE_JOINERS = "至到或與和及、/／～~-—"

# ---- direction: decrease words and no-change words ----------------------------------------------------------
# Verbs that state a decrease; a question that asks 「減少了多少」 puts the sign in the question.
# How filings and financial news say fell / declined (Taiwan usage, and the Simplified forms a mixed-script model
# writes; an answer is matched as written, so both scripts are listed).
DECREASE_VERBS = ("減少", "减少", "下降", "下滑", "下跌", "下挫", "滑落", "走低", "走弱", "衰退", "衰減", "衰减", "縮水", "缩水",
                  "縮減", "缩减", "縮小", "缩小", "萎縮", "萎缩", "降低", "調降", "调降", "下調", "下调", "下修", "短少", "流失",
                  "負成長", "负成长", "負增長", "负增长", "年減", "年减", "月減", "月减", "季減", "季减",
                  # Taiwan market and news usage: plunged, fell back, pulled back, depreciated, earned less, «少了 5%»
                  "重挫", "大跌", "暴跌", "走跌", "回落", "下落", "回檔", "回档", "貶值", "贬值", "少賺", "少赚", "少了", "掉了", "減了",
                  "减了")
# Verbs that state an increase — a hedge may introduce a second value with its direction («大約下修 14.20%，也可能
# 下修 14.5%», «也可能成長 6%»). Both scripts.
INCREASE_VERBS = ("增加", "增長", "增长", "成長", "成长", "上升", "上漲", "上涨", "上揚", "上扬", "攀升", "上修", "調升", "调升",
                  "調高", "调高", "提高", "提升", "年增", "月增", "季增", "增", "升", "漲", "涨")
# A comparison that states the amount below: 「比門檻報酬率低 6.31 個百分點」, 「較去年少 320 萬元」, 「低於門檻 6.31 個百分點」
# (a lead, then what is compared, then the lower word). 「低於 5%」 with nothing in between is a bound, not a change.
COMPARATIVE_LEADS = ("(?<!比)較", "(?<!比)较", "比(?![較较])", "相較於", "相较于", "相比於", "相比于")
COMPARATIVE_LOWER = ("低", "少")
LOWER_THAN = ("低於", "低于", "少於", "少于")
# Losses: 「虧損 320」, 「亏损 320」, 「淨流出 1,200」 (a noun: 「虧損為 320」 states the loss).
LOSS_WORDS = ("虧損", "亏损", "淨損", "净损", "損失", "损失", "淨流出", "净流出", "流出", "短缺", "赤字", "轉虧", "转亏", "虧了", "亏了")
# Words before a positive amount that give it a negative sign — in a final answer (「減少 2」, 「虧損 NT$5」,
# 「衰退 5」) and in an intermediate value step_recall reads (「淨現金流出 1,200」). One list for both.
DECREASE_WORDS = (*DECREASE_VERBS, "減", "减", "降", "跌", "負", "负")  # verbs: one character too (「跌 5%」, 「年減」)
DECREASE_WORDS_EN = ("decrease[sd]?", "declined?", "declines", "drop(?:ped|s)?", "fell", "falls?", "fallen", "loss(?:es)?",
                     "lower(?:ed)?", "down", "reduced?", "reduction", "shr(?:ank|unk|inks?)", "contract(?:ed|ion)", "negative",
                     "minus")
# Between a decrease verb and the amount: 「減少了約 2」, 「跌幅為 5.2%」, "a decrease of $2". A verb directly followed by
# 為/至/到 states the level it fell to (「降為 5%」, 「下降至 5%」), not a change — so 為 links only a loss noun.
# An approximation before an amount («大約 5.2%», «將近 320 萬»): a decrease word keeps its sign across it, and between two
# values it may follow a joiner («12.5% 或大約 13%»). Longer words first.
APPROXIMATORS = ("大約", "大约", "大概", "約莫", "约莫", "差不多", "接近", "將近", "将近", "約", "约", "近")
DECREASE_LINKS = ("了", *APPROXIMATORS, "達", "达", "高達", "高达", "幅度?(?:為|为|達|达|約|约)?", "額(?:為|为)?", "by", "of",
                  "about", "approximately", "around", "roughly", "nearly")
LOSS_LINKS = ("了", *APPROXIMATORS, "為", "为", "達", "达", "高達", "高达", "(?:金)?額(?:為|为)?", "by", "of", "about",
              "approximately", "around", "roughly", "nearly")
AMOUNT_CURRENCY_MARKS = (r"NT\$", r"US\$", r"HK\$", r"\$", "新台幣", "新臺幣", "新台币")
# After the amount: 「5.2% 的跌幅」, 「320 百萬元的虧損」, "5.2% lower".
DECREASE_AFTER = ("的(?:跌幅|減幅|减幅|降幅|衰退|虧損|亏损|損失|损失|減少|减少|下降|下滑)", r"(?:lower|less|down|decrease|decline|drop|loss)\b")
# A bracketed direction is an aside («5.2%（衰退）», «320（虧損）»): it does not give the sign — nor does a direction in
# another clause («此筆為損失，金額為 NT$912,744»); the value carries its own sign or decrease word.
# What a decrease question asks for after the verb: 「減少了多少」, 「下降的百分比」, 「縮減的金額」.
DECREASE_ASKED = ("百分比", "幅度", "比率", "比例", "金額", "數額", "數")
DECREASE_NOUNS = ("減幅", "减幅", "跌幅", "降幅")  # an asked 「減幅」 / 「跌幅」 is a decrease too
DECREASE_ASK_EN = ("decrease", "decline", "drop", "reduction")
# An undirected difference: the asked clause asks how far apart two values are and names no direction — the
# difference word is what is asked («這兩項投資的報酬率相差多少», «兩者的差額是多少», «A 與 B 之間的差距為何», «A 和 B 的差是
# 多少», «差異為多少», "the difference between A and B", "how much do A and B differ"), so B − A is as right as A − B.
# 「這個差額除以 100 是多少」 / 「因電價差異而轉嫁的成本是多少」 ask something else.
UNDIRECTED_DIFFERENCE = (r"(?:相差|差距|差異|差异|差額|差额|差值|的差)了?\s*(?:是|為|为|有|約|约|大約|大约)?\s*"
                         r"(?:多少|幾|几|為何|为何|何)",
                         r"\bdiffer(?:ence|ences|s|ed)?\b")
# …unless anything in the question (outside brackets) gives the difference a direction. What orders a difference is
# an order or a subtraction — «從 A 到 B», «由 A 至 B», «自 A 起», «2018 至 2019 年», «較 A», «A 比 B 多/少/高/低», «與 A 相比», «相對於
# A», «超出», «高出», «多出», «高於», «低於», «A 減 B», «扣除», a «淨差額» (in filings the net change); "from … to", "than",
# "A minus B", "exceed", "relative to", "compared to", "net change" — or a change word heading the difference itself
# («變動差額», «增加的差額»). A change word that names the operands does not: «E*TRADE 的變動百分比與標普的變動百分比
# 相差多少» asks how far apart two changes are. In English, an operation on the difference asks something else ("the
# difference divided by …", "as a percent of").
DIRECTED_DIFFERENCE = ("(?:從|从|由|自)[^，,。；;]*(?:到|至|起)", r"\d\s*[年月日]?\s*(?:到|至)\s*\d", "(?<!比)較", "(?<!比)较",
                       "(?<!百分)比(?![率例重值較较])[^，,。；;]{0,30}?(?:多(?!少)|(?<!多)少|高|低|大|小)", "相比", "相對於", "相对于", "超出", "超過", "超过", "高出", "多出", "低出",
                       "高於", "高于", "低於", "低于", "減(?![少損损幅值])", "减(?![少损幅值])", "扣除", "淨差", "净差",
                       "(?:變動|变动|變化|变化|增減|增减|增加|減少|减少|成長|成长|下降|上升|增長|增长)[的之]?(?:差額|差额|差距|差異|差异|差值)",
                       r"\bfrom\b.*\bto\b", r"\bthan\b", r"\bminus\b", r"\bsubtract", r"\bexceed", r"\brelative to\b",
                       r"\bcompared (?:to|with)\b", r"\bnet (?:change|difference)\b", r"\bdivided\b", r"\bratio\b",
                       r"\bpercent(?:age)? of\b", r"\bportion\b", r"\bproportion\b", r"\btimes\b", r"\bmultipl")
# …or the question asks for a sign (bracketed instructions count here): «以正數表示», «減少時為負值», «以絕對值表示»,
# "negative if", "as a positive number".
SIGN_ASKED = ("正數", "正数", "正值", "負數", "负数", "負值", "负值", "正負", "正负", "絕對值", "绝对值",
              r"\bnegative\b", r"\bpositive\b", r"\babsolute\b", r"\bsign\b")
# A loss or an outflow asked by its name («累積其他綜合損失總額是多少», «投資活動之現金流出», «淨損失的變動», "the
# accumulated other comprehensive loss", "cash used in investing"): the word carries the direction, and filings print
# such amounts either way (a table's −9,402 under 「（損失）」, the text's 「損失 9,402」; a balance of −4,190 that grew
# to −6,826 «增加 2,636»), so the magnitude counts with either sign. Not a quantity that can go either way — a
# gain-or-loss («損益», «淨利（損失）», "income (loss)") — nor a balance that holds losses («備抵損失», «損失準備»,
# "allowance for loan losses", «損失率»), whose change has a direction; and not when the question asks for a sign.
LOSS_ASKED = (*LOSS_WORDS, r"用於[^，,。；;]{0,8}活動", r"\bloss(?:es)?\b", r"\boutflows?\b", r"\bdeficits?\b",
              r"\bused (?:in|for|by)\b")
LOSS_EITHER_WAY = ("損益", "损益", "盈虧", "盈亏", r"[（(]\s*(?:淨)?(?:損失|虧損|损失|亏损)\s*[)）]",
                   r"(?:利益|利得|收益|盈餘|淨利|所得)\s*(?:或|及|與|和|／|/)\s*(?:損失|虧損)",
                   r"(?:損失|虧損)\s*(?:或|及|與|和|／|/)\s*(?:利益|利得|收益|盈餘)", r"\(\s*loss(?:es)?\s*\)",
                   r"\b(?:gains?|income|profit|earnings)\s*(?:or|and|/)\s*loss", r"\bloss(?:es)?\s*(?:or|and|/)\s*(?:gains?|income|profit)")
# …and a change of a loss has a direction unless the loss is a balance or a flow a filing prints as a negative (an
# accumulated comprehensive loss or deficit, an outflow, cash used) and the change word names none («淨變動», not
# «增加»): «減損費用及淨損失的變動» is an expense line's change, with a direction.
LOSS_RESULTS = ("綜合損失", "综合损失", "累積虧損", "累积亏损", "累計虧損", "累计亏损", "待彌補虧損", "流出", "赤字",
                "用於[^，,。；;]{0,8}活動", r"\bcomprehensive loss\b", r"\boutflows?\b", r"\bdeficits?\b",
                r"\bused (?:in|for|by)\b")
# An arithmetic result or a headroom asked about a loss («這個數值再減去籌資活動之現金流出», «剩下的可承受損失額度»)
# has its own sign.
LOSS_NOT_THE_AMOUNT = ("減去", "减去", "減掉", "减掉", "加上", "加總", "加总", "乘以", "除以", "剩下", "剩餘", "剩余", "額度",
                       "额度", "上限", r"\bminus\b", r"\bplus\b", r"\bsubtract", r"\bdivided\b", r"\bremaining\b",
                       r"\bcapacity\b", r"\blimit\b")
LOSS_INCREASE_WORDS = ("增加", "增长", "增長", "成長", "成长", "上升", "提高", "擴大", "扩大", r"\bincrease", r"\bgrowth\b",
                       r"\brise\b", r"\bgrew\b")  # «虧損增加了多少» asks the growth: positive
LOSS_CHANGE_WORDS = ("變動", "变动", "變化", "变化", "增減", "增减", "差額", "差额", r"\bchanges?\b")
LOSS_BALANCES = ("準備", "准备", "備抵", "备抵", "損失率", "损失率", r"\ballowance", r"\breserves?\b", r"\bprovisions?\b",
                 r"\bloss ratio", r"\bloss reserve")
NO_CHANGE_WORDS = ("持平", "不變", "沒有變(?:化|動)", "無變(?:化|動)", "沒有增減", r"^\W*(?:零|0)\W*$",  # a lone zero
                   r"\bunchanged\b", r"\bno change\b")

# A closing courtesy after the answer («希望這個回答對您有幫助！», "Hope this helps") is not the reply's last word: a
# reply that refuses and then thanks the reader still ends by refusing.
CLOSING_COURTESIES = ("希望(?:以上|這|这|此)?(?:個|个|份|些)?(?:回答|回覆|回复|說明|说明|解答|分析|內容|内容)?(?:對|对|能|可以)",
                      "如(?:果|有)?(?:還|还|仍)?有(?:其他|任何)?(?:問題|问题|疑問|疑问)", "歡迎(?:再|繼續|继续)?(?:問|问|提問|提问|詢問|询问)",
                      "以上(?:說明|说明|分析|內容|内容)?(?:僅)?供(?:您)?(?:參考|参考)", "謝謝|谢谢|感謝|感谢", "祝(?:您|你)",
                      r"hope (?:this|that|it) helps", r"let me know", r"feel free", r"thanks?\b")
# ---- refusals ----------------------------------------------------------------------------------------------
REFUSAL_PHRASES = (
    "無法(?:(?:從|由)[^，。；\n]{1,12}?)?(?:判斷|確定|得知|計算|回答|判定|比較|得出|取得|確認)", "不確定", "不清楚", "不知道", "資料不足", "資訊不足", "數據不足",
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
# Between two numbers these make a range or alternatives: 「28,000–30,000」, 「369 或 373」, 「3.2 億至約 3.4 億」, 「介於 X
# 與 Y 之間」, 「0.35 / 0.40」, "12 to 13", "0.35 vs 0.40" — a qualifier may follow (「或大約」).
ALTERNATIVE_JOINERS = ("-", "~", "～", "〜", "–", "—", "至", "到", "或者是", "抑或是", "或是", "或者", "抑或", "或", "還是", "还是", "、", "與", "与",
                       "和", "及", "/", "／", r"\bto\b", r"\bor\b", r"\band\b", r"\bvs\b\.?", r"\bversus\b")
# 「或是」, 「還是」, 「可能是」: the 是/為 of a joiner or a hedge is not the copula of 「X 為 value」 («52.57% 或是 53%»).
COPULA_NOT_AFTER = ("或者", "或", "不", "還", "还", "抑或", "可能", "或許", "或许", "也許", "也许", "不排除", "否則", "否则", "不然")
ALTERNATIVE_QUALIFIERS = (*APPROXIMATORS, "approximately", "about", "around", "roughly", "~")
# A bound is not a value: «12.5% 以上», «至少 12.5%», «超過 12.5%», «不到 13%», «12.5%±0.5%», "at least 12.5%" give an open
# range, so they are wrong like a range. The word stands right before the number (currency marks and 約 aside) —
# «超過門檻 6.31 個百分點», «低於門檻 6.31 個百分點» compare, they do not bound — or right after it (「以上為…」 is "the above").
BOUNDS_BEFORE = ("不超過", "不超过", "不低於", "不低于", "不少於", "不少于", "不高於", "不高于", "至少", "最少", "至多", "最多", "起碼",
                 "起码", "超過", "超过", "高於", "高于", "低於", "低于", "大於", "大于", "小於", "小于", "多於", "多于", "少於", "少于", "不到",
                 "不足", "未滿", "未满", "未達", "未达", "逾", r"at\s+least", r"at\s+most", r"more\s+than", r"less\s+than",
                 r"no\s+(?:more|less|fewer)\s+than", r"fewer\s+than", r"over", r"under", r"above", r"below", r"up\s+to",
                 r"in\s+excess\s+of", ">=", "<=", "≥", "≤", ">", "<")
BOUNDS_AFTER = ("(?:或|或者)?以上(?![為为是所皆均之的])", "(?:或|或者)?以下(?![為为是所皆均之的])", "以內", "以内", "之內", "之内",
                "或更(?:高|低|多|少)", r"or\s+(?:more|less|higher|lower|above|below|greater)", r"and\s+(?:above|up|over)",
                r"(?:±|\+/-|\+-)\s?\d")
# A later clause that restates the value rounder or approximately — «12.5%，四捨五入後約 13%», «12.5%，差不多 13%»,
# «12.5%，即約 13%» — gives a second value (the same amount restated in another unit stays one answer).
APPROXIMATE_RESTATEMENTS = ("(?:即|亦即|也就是)?(?:四捨五入|取整數?|進位|进位)(?:後|后|之後|之后)?(?:約|约|為|为|是|得|則為|则为)?",
                            "(?:即|亦即|也就是)?(?:約為|约为|約莫|约莫|差不多|大約|大约|大概|接近|將近|将近|近似|約|约)",
                            r"(?:rounded|rounding)(?:\s+(?:up|down|off))?(?:\s+(?:to|is|gives))?", r"(?:i\.e\.,?\s*)?(?:roughly|about|approximately|around|nearly|almost)",
                            "≈")
# A hedge that introduces a second value anywhere on the line: 「大約 40%，但也可能是 45%」, 「40%（或許是 45%）」,
# 「否則為 13%」, "but it could also be 45%"; and after a value: 「13% 也有可能」, "13% is also possible".
HEDGES = (r"(?:但|不過|不过)?(?:也|亦)?(?:有)?可能(?:會|会)?(?:是|為|为|達|达|到|在)?", "或許(?:是|為)?", "或许(?:是|为)?",
          "也許(?:是|為)?", "也许(?:是|为)?", "不排除(?:是|為|为)?", "抑或(?:是)?", r"或(?:是|者)?(?=\s{0,2}(?:約|约|大約|大约)?\s{0,2}[-+$\d])",
          "(?:否則|否则|不然)(?:為|为|是)?", r"(?:but\s+)?(?:it\s+)?(?:could|might|may)\s+(?:also\s+)?be", "perhaps", "maybe",
          "possibly", r"or\s+possibly", "otherwise")
HEDGES_AFTER = ("(?:也|亦)(?:有)?(?:可能|說得通|说得通|合理)", r"(?:is|are|would be)\s+also\s+(?:possible|plausible)")
# A line that answers under conditions gives each condition's value: 「若含稅為 12.5%，不含稅為 13%」.
CONDITIONAL_WORDS = ("若", "如果", "假如", "倘若", "假設", "假设", r"\bif\b")
# The answer is what follows the last of these (a number must follow for a numeric answer): 「先前誤算為 8.1，正確為
# 7.6」, 「不是 A，而是 B」, 「更正為」, 「修正後為」, 「重新計算後為」, "not A but B", "corrected to", "I mean".
CORRECTION_MARKERS = (
    "(?:更正|修正)一下[，,：:]?", "正確(?:的)?(?:答案|數值|数值|結果|结果|值)?(?:應|应)?(?:該|该)?(?:為|为|是)",
    "正确(?:的)?(?:答案|数值|结果|值)?(?:应)?(?:该)?(?:为|是)",
    "(?:更正|修正|訂正|订正|校正)(?:後|后)?(?:的)?(?:答案|數值|数值|結果|结果)?(?:應|应)?(?:為|为|是|：|:)?",
    "(?:應|应)(?:該|该)?(?:更正|修正)(?:為|为)", "改為", "改为", "而是",
    "(?:經|经)?(?:重新|再次)?(?:計算|计算|重算|核算|檢查|检查|核對|核对|確認|确认|驗算|验算)(?:後|后|之後|之后)(?:為|为|是|得|應為|应为)?",
    "重新(?:計算|计算|核算|檢查|检查|核對|核对|確認|确认|驗算|验算)(?:後|后)?(?:為|为|是|得)?", "重算(?:後|后)?(?:為|为|是|得)?",
    # an admitted slip, a break, then the value: 「算錯了，是 7.6」, 「（筆誤，實為 7.6）」, 「有誤，實際為 7.6」, 「不對，是 7.6」,
    # 「不，是 7.6」 (「誤植為 8.1」 names the slip itself)
    r"(?:算錯|算错|有誤|有误|筆誤|笔误|誤植|误植|錯了|错了|弄錯|弄错)(?:了)?[，,。；;：:！!…⋯\s]+(?:應|应)?(?:該|该)?(?:是|為|为)",
    "(?:實際|实际|實|实)(?:上)?(?:應|应)?(?:該|该)?(?:為|为|是)", r"(?<![是否])不(?:對|对)?[，,。！!…⋯]+\s*(?:應該|应该|應|应)?(?:是|為|为)",
    r"\bcorrect(?:ed|ion)?(?:\s+(?:answer|value))?\s*(?:to|is|:)", r"\bshould\s+(?:be|read)\b",
    r"\bnot\b[^,;]{0,40}?,?\s*but(?:\s+rather)?\b", r"\bI\s+mean\b", r"\bactually\b",
    r"\b(?:sorry|wait|oops)\b[,!.—–-]*\s*(?:it(?:'s|\s+is)|the\s+answer\s+is)?")
# For a number also these (the number must follow): 「8.1，應為 7.6」, 「8.1 → 7.6」.
NUMBER_CORRECTION_MARKERS = ("(?:應|应)(?:該|该)?(?:是|為|为)", "→", "⇒", "->")
ORDINAL_PREFIXES = ("第", r"No\.", "#", "Q", "FY", r"第\s")  # 「第 3」, "No. 2", "Q3": labels
YEAR_LEADS = ("from", "in", "between", "since", "to", "and", "through", "FY", "從", "自", "至", "到", "和", "與", "-")
YEAR_JOINERS = ("to", "and", "through", "至", "到", "和", "與", "-")
