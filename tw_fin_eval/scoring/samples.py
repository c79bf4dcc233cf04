"""Small synthetic records of every task type (docs/FORMATS.md §1), for tests, doctests and
`selfcheck --samples` when data/ is not built. Invented content; no source text."""

from __future__ import annotations

from typing import Any

from tw_fin_eval import prompts


def _base(rid: str, dataset: str, task_type: str, question: str, **kw: Any) -> dict[str, Any]:
    rec = {"id": rid, "dataset": dataset, "source": {"name": "synthetic", "paper": "", "orig_id": rid, "url": "",
                                                     "license": "MIT"},
           "category": kw.pop("category", "C_財報數值推理"), "subcategory": kw.pop("subcategory", None),
           "task_type": task_type, "difficulty": kw.pop("difficulty", None), "lang": "zh-TW", "question": question,
           "context": {"table": None, "evidence": [], "setting": None}, "answer": None, "answer_value": None,
           "answer_text": None, "program": None, "messages": prompts.open_messages(question), "original_en": None,
           "meta": {"translation": "synthetic", "review_status": "unreviewed", "version": "0.1"}}
    rec.update(kw)
    return rec


def finqa(i: int, value: float | None, answer: str, question: str, *, text: str | None = None,
          en: str | None = None) -> dict[str, Any]:
    rec = _base(f"finqa_tw-test-{i:04d}", "FinQA-TW", "numeric", question, subcategory="增減計算",
                answer=answer, answer_value=value, answer_text=text)
    rec["original_en"] = {"question": en or "", "table": None, "evidence": []}
    return rec


def convfinqa(i: int, turns: list[tuple[str, float | None, str, str | None]]) -> dict[str, Any]:
    ts = [{"question": q, "answer": a, "answer_value": v, "answer_text": t, "program": None, "question_en": ""}
          for q, v, a, t in turns]
    system, prefix = prompts.conversation_parts(None, [])
    return _base(f"convfinqa_tw-dev-{i:04d}", "ConvFinQA-TW", "conversation_numeric", ts[0]["question"],
                 subcategory="單題拆解", turns=ts, system=system, first_user_prefix=prefix,
                 answer=ts[-1]["answer"], answer_value=ts[-1]["answer_value"], answer_text=ts[-1]["answer_text"])


def finchain(i: int, question: str, steps: list[tuple[str, float]], *, value: float | None = None,
             text: str | None = None, answer: str, template_id: str, difficulty: str = "基礎",
             solution: str = "") -> dict[str, Any]:
    return _base(f"finchain_tw-{i:04d}", "FinChain-TW", "numeric_cot", question, category="公司理財",
                 subcategory=template_id.rsplit("_", 1)[0], difficulty=difficulty, answer=answer,
                 answer_value=value, answer_text=text, solution=solution,
                 steps=[{"label": lab, "value": v} for lab, v in steps],
                 answer_type="numeric" if value is not None else "categorical", template_id=template_id, seed=i)


def mcq(i: int, question: str, answer: list[str], option_format: str = "letter",
        category: str = "金融知識查詢") -> dict[str, Any]:
    options = ["A", "B", "C", "D"] if option_format == "letter" else ["1", "2", "3", "4"]
    return _base(f"finllm450-{i:04d}", "FinLLM450", "mcq", question, category=category, subcategory="銀行實務",
                 options=options, option_format=option_format, answer=answer)


def short_answer(i: int, question: str, reference: str, task_type: str = "short_answer",
                 category: str = "法規判讀與合規") -> dict[str, Any]:
    return _base(f"finllm450-{i:04d}", "FinLLM450", task_type, question, category=category, subcategory="洗錢防制",
                 reference_answer=reference, reference={"apmic_reply": "", "training_cot": ""})


def financeagent(i: int, question: str, answer: str, rubric: list[tuple[str, str]]) -> dict[str, Any]:
    return _base(f"financeagent_tw-{i:04d}", "FinanceAgent-TW", "open_rubric_agent", question,
                 category="G_工具與Agent", subcategory="數值推理", answer=answer,
                 rubric=[{"operator": op, "criteria": c} for op, c in rubric], requires_tools=True)


def sample_records() -> list[dict[str, Any]]:
    """A handful of records of every task type, with the quirks the scorer must handle."""
    return [
        finqa(1, 94.0, "94", "2015 年淨營收較 2014 年增加多少（百萬美元）？"),
        finqa(2, 0.141, "14.1%", "營收成長率為何？", en="what is the growth rate in revenue?"),
        finqa(3, 16.93811, "16.93%", "持有至到期日證券佔投資證券總帳面金額的百分比為何？"),
        finqa(4, -0.04365, "-4.4%", "2006 年至 2007 年備用信用狀餘額的成長率為何？"),
        finqa(5, 120000000.0, "120000000", "該公司發行的總金額為多少元？"),
        finqa(6, None, "yes", "2016 年的淨利是否高於 2015 年？", text="yes"),
        finqa(7, 0.0, "0", "兩年的差額為多少？"),
        finqa(8, -1234.0, "-1234", "現金及約當現金的淨變動為多少（千美元）？"),
        convfinqa(1, [("2016 年的淨營收是多少？", 5829.0, "5829", None),
                      ("2015 年呢？", 5735.0, "5735", None),
                      ("變動了多少？", 94.0, "94", None),
                      ("變動百分比為何？", 0.01639, "1.6%", None)]),
        convfinqa(2, [("2008 年的營業利益是否增加？", None, "yes", "yes"),
                      ("增加了多少？", 21.7, "21.7", None)]),
        finchain(1, "某公司稅後淨利 NT$1,200,000，流通在外股數 400,000 股，每股盈餘為何？",
                 [("每股盈餘", 3.0)], value=3.0, answer="NT$3.00", template_id="eps_basic1",
                 solution="步驟 1：每股盈餘 = NT$1,200,000 ÷ 400,000 = NT$3.00"),
        finchain(2, "本金 NT$10,000，年利率 5%，複利 3 年後本利和為何？",
                 [("第 1 年本利和", 10500.0), ("第 2 年本利和", 11025.0), ("第 3 年本利和", 11576.25)],
                 value=11576.25, answer="NT$11,576.25", template_id="compound_interest_basic1", difficulty="中級",
                 solution="步驟 1：10,000 × 1.05 = NT$10,500\n步驟 2：10,500 × 1.05 = NT$11,025\n"
                          "步驟 3：11,025 × 1.05 = NT$11,576.25"),
        finchain(3, "客戶風險評分 72 分（60 分以上為高風險），風險等級為何？", [("風險評分", 72.0)],
                 text="高風險", answer="高風險", template_id="kyc_basic1",
                 solution="步驟 1：評分 72 ≥ 60，屬高風險"),
        finchain(4, "客戶風險評分 35 分（30 分以上未滿 60 分為中風險），風險等級為何？", [("風險評分", 35.0)],
                 text="中風險", answer="中風險", template_id="kyc_basic1",
                 solution="步驟 1：評分 35 介於 30 與 60 之間，屬中風險"),
        finchain(5, "現金交易 NT$600,000，門檻 NT$500,000，是否須申報？", [("超過門檻金額", 100000.0)],
                 text="是", answer="是", template_id="aml_basic1",
                 solution="步驟 1：600,000 − 500,000 = 100,000 > 0，須申報"),
        mcq(1, "下列何者為存款保險的保障對象？", ["B"]),
        mcq(2, "下列何者屬於洗錢防制的客戶審查措施？", ["1", "3"], option_format="number"),
        short_answer(3, "銀行辦理疑似洗錢交易申報的期限為何？", "應於發現後 2 個營業日內向調查局申報。"),
        short_answer(4, "某企業流動比率 0.8，速動比率 0.5，授信時應注意什麼？", "短期償債能力不足，應要求擔保或降低額度。",
                     task_type="case_study", category="授信與財務分析"),
        financeagent(1, "某公司 2024 年營收成長率為何？", "營收成長 12%，主要來自雲端業務。",
                     [("correctness", "營收成長約 12%"), ("correctness", "成長主要來自雲端業務"),
                      ("contradiction", "營收成長 12%，主要來自雲端業務。")]),
    ]
