"""Count the register patterns of issue 20 over built zh-TW records (data/*.jsonl).

`python -m tw_fin_eval.zhcheck.measure patterns [data/]` prints, per pattern, occurrences and items for
FinQA-TW, ConvFinQA-TW and FinanceAgent-TW. The fields are split by kind, because the rules differ:
table cells keep the source's numbers and unit, prose (questions, text evidence, answers, rubric
criteria) is written the Taiwan way; rendered table evidence is prose built from the table.

>>> [p.name for p in PATTERNS][:3]
['N 十億 (prose)', 'N 百萬 (prose)', '我們']
>>> nested_brackets("2014 年淨營收（金額（百萬））為 $ 5735"), nested_brackets("淨營收為 $ 5735（百萬）")
(1, 0)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tw_fin_eval import subsets as _registry
from tw_fin_eval.errors import InputError

# field kinds
QUESTION, EVIDENCE_TEXT, EVIDENCE_TABLE, ANSWER, RUBRIC, TABLE = (
    "question", "evidence_text", "evidence_table", "answer", "rubric", "table")
PROSE = frozenset({QUESTION, EVIDENCE_TEXT, ANSWER, RUBRIC})  # written by translators
RENDERED = frozenset({EVIDENCE_TABLE})  # written by records.render_table_evidence
ALL = PROSE | RENDERED | {TABLE}

FILES = {s.name: s.data_file for s in _registry.translated()}  # the translated subsets' data files


def nested_brackets(text: str) -> int:
    """Bracket groups opened inside another open group: 「（金額（百萬））」 is one."""
    depth = count = 0
    for ch in text:
        if ch in "（(":
            depth += 1
            count += depth == 2
        elif ch in "）)":
            depth = max(0, depth - 1)
    return count


def _regex(pattern: str) -> Callable[[str], int]:
    compiled = re.compile(pattern)
    return lambda text: len(compiled.findall(text))


# a US-style date: 12/31/12, 12/31/2012, 12/16 (month/year; month and day checked)
_US_DATE = r"(?<![\d/])(?:0?[1-9]|1[0-2])/(?:(?:0?[1-9]|[12]\d|3[01])/(?:\d{4}|\d{2})|\d{2})(?![\d/])"
# a year used as a bare label in rendered evidence: 「2021（金額）為」, 「（2014）為」
_BARE_YEAR = r"(?:^|[：，；。「（])\s*(?:19|20)\d\d(?=（|）為|\s*為)"
_PCT_DUP = r"(-?\d[\d,]*(?:\.\d+)?(?:%/-?\d[\d,]*(?:\.\d+)?)*)\s*%\s*\(\s*-?\1\s*%\s*\)"
_NEG_DUP = r"-(\d[\d,]*(?:\.\d+)?)\s*\(\s*\1\s*\)"

_HALF_MARK = r"(?<=[^\W\d_]|[）)%.])\s*\(\s*(?:[a-z]|\d{1,2})\s*\)|(?<=\d)\s+\(\s*(?:[a-jl-z]|\d{1,2})\s*\)(?=\s*(?:（|$|[^\d\s$(]))"

_BARE_AMOUNT = (r"(?<![\d,.])\d{5,}(?![\d,.])(?=\s*(?:股|台|美元|元|萬|億|名|單位|桶|平方英尺))"
                r"|\$\s?-?\d{5,}(?![\d,.])")

_VALUE_END = re.compile(r"\s*(?:為)?\s*[-+$\d,.%()\s—–]*$")


def repeated_lead(text: str) -> int:
    """1 when a rendered evidence sentence says one lead three or more times — the column header in every
    clause (「依期間劃分之應付款項 1 年以內為 $ 38480，依期間劃分之應付款項 1-3 年為 …」, 「截至 2012 年 12 月
    31 日止年度為 …，截至 2011 年 12 月 31 日止年度為 …」) — else 0. A lead is the start of a clause's name
    up to a space or punctuation; it must hold two words' characters (a bare 「2015 年」 or 「2015 年度」 is a
    label, not a lead) and lead more than itself (three lines 「其他」 of a roll-forward are the table's own).
    Brackets (the unit, 「（單位：十億）」) are not clauses.

    >>> repeated_lead("長期債務：依期間劃分之應付款項 1 年以內為 $ 1，依期間劃分之應付款項 1-3 年為 $ 2，依期間劃分之應付款項合計為 $ 3。")
    1
    >>> repeated_lead("長期債務：依期間劃分之應付款項 1 年以內 $ 1、1–3 年 $ 2、合計 $ 3。"), repeated_lead("營收：2015 年 $ 1、2014 年 $ 2、2013 年 $ 3。")
    (0, 0)
    """
    names = []
    for clause in re.split(r"[，、；。]", re.sub(r"（[^（）]*）", "", text)):
        name = _VALUE_END.sub("", clause.rsplit("：", 1)[-1]).strip()
        if name:
            names.append(name)
    leads = {name[:m.start()] for name in names for m in re.finditer(r"[\s，：:]|$", name)}
    return int(any(sum(1 for _ in re.finditer(r"[^\W\d_]", lead)) - len(re.findall("[年月日]", lead)) >= 2
                   and sum(n.startswith(lead) and n != lead for n in names) >= 3 for lead in leads if lead.strip()))


def stacked_de(text: str) -> int:
    """Sentences of a question holding three or more 「的」 — modifiers stacked in English order (the 的 of
    「目的」, 「的確」 is no particle).

    >>> stacked_de("西部地區於 2015 年的營收的變動的百分比是多少？"), stacked_de("2015 年西部地區營收變動百分比是多少？")
    (1, 0)
    """
    return sum(len(re.findall("(?<!目)的(?!確)", s)) >= 3 for s in re.split(r"(?<=[？?。！；])", text))


def long_question(text: str) -> int:
    """1 when a question is longer than 60 characters, spaces not counted.

    >>> long_question("2015 年營收是多少？"), long_question("甲" * 61)
    (0, 1)
    """
    return int(len(re.sub(r"\s", "", text)) > 60)


TERMS = ("稅務部位", "其後", "第 1 類資本", "第 2 類資本", "營業盈餘", "應收貿易帳款", "實體", "數學全距", "總資本比率",
         # issue 30: filing terms written literally (glossary §3 enforces the Taiwan forms) and a copied connective
         "每股平均支付價格", "購買股份總數", "購買股數總數", "計畫或方案購買", "尚可購買", "證券持有人核准", "每股淨利",
         "普通股股東可分配", "可分配予普通股股東", "法律和解", "站點", "損失及損失費用率", "前期準備", "相較之下",
         "營業活動提供", "投資活動使用", "籌資活動使用",
         # issue 30 round 3 (r30b class 3): more filing terms written literally
         "出售利得", "已實現利得", "稅後利得", "稅前利得", "每股普通股", "未結清", "合約基礎無形資產", "子公司權益中之非控制權益",
         "承諾—", "退休後計畫", "反向股票分割", "出行業務", "出行部門",
         # issue 30 (h): equity-method line items written word by word
         "權益法投資收益", "權益法關聯企業",
         # issue 30 round 4 (t31): an ALLL's specific reserves written word by word (個別評估之備抵損失)
         "特定準備",
         # issue 30 point 3 (r32a): statements, charges, lease commitments, segments, units and cash-flow lines
         # written word by word (glossary §3 必要譯法 enforces the Taiwan forms)
         "合併盈餘表", "營運報表", "營業報表", "減損費用", "最低承諾", "美國鐵塔事業部", "百萬（每股金額除外）", "以千為單位",
         "稅前盈餘", "淨盈餘", "未歸屬", "投資活動提供", "籌資活動提供", "提供（使用）之現金", "營運提供之現金", "使用之淨現金",
         "變動使用之現金", "負債對權益比")


@dataclass(frozen=True)
class Pattern:
    name: str
    count: Callable[[str], int]
    kinds: frozenset[str]


PATTERNS: tuple[Pattern, ...] = (
    Pattern("N 十億 (prose)", _regex(r"\d[\d,]*(?:\.\d+)?\s*十億"), PROSE),
    Pattern("N 百萬 (prose)", _regex(r"\d[\d,]*(?:\.\d+)?\s*百萬"), PROSE),
    Pattern("我們", _regex("我們"), PROSE | RENDERED),
    Pattern("nested brackets (table evidence)", nested_brackets, RENDERED),
    Pattern("evidence repeats one lead ≥ 3 times (table evidence)", repeated_lead, RENDERED),
    Pattern("nested brackets (prose)", nested_brackets, PROSE),
    Pattern("US dates (questions)", _regex(_US_DATE), frozenset({QUESTION})),
    Pattern("US dates (evidence prose)", _regex(_US_DATE), frozenset({EVIDENCE_TEXT})),
    Pattern("bare year labels (table evidence)", _regex(_BARE_YEAR), RENDERED),
    Pattern("x% ( x % ) (prose)", _regex(_PCT_DUP), PROSE),
    Pattern("x% ( x % ) (table evidence)", _regex(_PCT_DUP), RENDERED),
    Pattern("-x ( x ) (prose)", _regex(_NEG_DUP), PROSE),
    # issue 30 (g): the record's table prints a figure once, as a Taiwan table does
    Pattern("x% ( x % ) (table cells)", _regex(_PCT_DUP), frozenset({TABLE})),
    Pattern("-x ( x ) (table cells)", _regex(_NEG_DUP), frozenset({TABLE})),
    # FinQA's OCR code of a dash (2014 = —) read as a value: 「未攤銷折價為 $ 2014」 (kept where a gold uses it);
    # the years after 「於」 are periods (「營收於 2014、2013 及 2012 年分別為」)
    Pattern("dash code as a value (table evidence)",
            _regex(r"(?:為 |(?<=[^\W\d_]) )(?<!於 )\(?\s*\$?\s*\(?\s*(?:2013|2014|2212)\s*\)?(?=[，。（；、]|$)(?!、(?:19|20)\d\d)"),
            RENDERED),  # a year opening a list of years (「Masco 2013、2014、2015 年分別為」) is a period
    # issue 30 (a): a header cell's value read as part of a column name — 「最高 17.84 為 9.17」 — the mark of a
    # header row FinQA merged with the first data row (「標普 500」, 「S&P 500」 are names)
    Pattern("number inside a column name (table evidence)",
            _regex(r"(?<![標&])[^\W\d_]\s+\$?\s?-?\d[\d,]*(?:\.\d+)?\s?為\s?[-$\d]"), RENDERED),
    # issue 30 (b): a time alone as the subject of an amount — 「2018 年為 $ 64」
    Pattern("time label as the whole subject (table evidence)",
            _regex(r"(?:^|[；。])\s*(?:19|20)\d\d 年度?(?: \d+ 月(?: \d+ 日)?)?為"), RENDERED),
    # issue 30 (c): a text evidence entry that stops mid-sentence (「…係依 APB 第」)
    Pattern("text evidence ending mid-sentence", _regex(r"[^。？！；：」）)…\s]\s*$"), frozenset({EVIDENCE_TEXT})),
    # issue 30 round 3 (r30b class 6): page furniture kept as evidence — a running head 「合併財務報表附註—（續）」,
    # a table caption that ends at 「如下（單位：百萬）：」 (the table itself is printed above the evidence)
    Pattern("running head （續） (evidence prose)", _regex(r"（續）|\(\s*續\s*\)"), frozenset({EVIDENCE_TEXT})),
    Pattern("caption ending 如下： (evidence prose)", _regex(r"如下[^。；]{0,20}[：:]\s*。?\s*$"), frozenset({EVIDENCE_TEXT})),
    # r30b class 7: the fourth quarter written as the English filing's period 「截至 2010 年 12 月 31 日止季度」 (第 4 季)
    Pattern("quarter ended december 31 (prose)", _regex(r"截至(?: (?:19|20)\d\d 年)? 12 月 31 日止(?:之)?季度"), PROSE),
    # issue 30 (h): a bare 「備抵」 (a loan's loss allowance is 備抵損失; 備抵評價, 備抵呆帳, 備抵放款損失 and
    # ALLL's 「放款及租賃損失備抵」 are their own terms), 被-passives (「被收購者」 is the IFRS 3 term), and
    # questions opening with a literal 「2017 年時」 ("in 2017 what was …")
    Pattern("bare 備抵", _regex(r"(?<!損失)備抵(?!損失|評價|呆帳|放款)"), ALL),
    Pattern("被-passive (prose)", _regex(r"被(?!收購者)"), PROSE),
    Pattern("「N 年時」 (questions)", _regex(r"(?:19|20)\d\d 年時"), frozenset({QUESTION})),
    # issue 30 round 4 (t31): English order in questions — "compared to" as 「相較（於）」 where 「較」 reads, "ratio
    # of X relative to Y" as 「相對於」, "for / concerning X" as a pre-posed 「對於／關於」, and the filing's period
    # 「截至 2015 年 12 月 31 日止年度」 where a question says 「2015 年度」
    Pattern("「相較」 (questions)", _regex("相較"), frozenset({QUESTION})),
    Pattern("「相對於」 (questions)", _regex("相對於"), frozenset({QUESTION})),
    Pattern("「對於／關於」 (questions)", _regex("(?<!相)對於|關於"), frozenset({QUESTION})),
    Pattern("「截至…止年度」 (questions)", _regex(r"日止(?:會計)?年度"), frozenset({QUESTION})),
    # issue 30 (v37 class 5, y33): the same filing period in text evidence — a calendar year is 「2017 年度」 in
    # prose (glossary §1.4); a non-calendar fiscal year (9 月 30 日止) keeps its date and is not counted
    Pattern("「截至…12 月 31 日止年度」 (evidence prose)",
            _regex(r"截至[^，。；]{0,30}?12 月 31 日止(?:之)?(?:會計)?年度"), frozenset({EVIDENCE_TEXT})),
    # issue 30 point 1 (w33): English order in questions — long pre-posed modifiers stacked with 的
    # (「X 於 2015 年的 Y 的…的百分比」) and over-long questions a Taiwan analyst would split or shorten
    Pattern("three 的 in a question", stacked_de, frozenset({QUESTION})),
    Pattern("question over 60 characters", long_question, frozenset({QUESTION})),
    # r32a: a FinanceAgent reference answer or criterion is written in the third person — the company's name,
    # not the filing's 「本公司」 (glossary §1.16)
    Pattern("「本公司」 (FinanceAgent answers, rubric)", _regex("本公司"), frozenset({ANSWER, RUBRIC})),
    # a calendar quarter written as the filing's period 「截至 3 月 31 日止季度」 (第 1 季), anywhere
    Pattern("quarter ended (all fields)", _regex(r"截至[^，。：；]{0,14}日止(?:之)?季度"), ALL),
    *(Pattern(f"term {t}", _regex(re.escape(t)), ALL) for t in TERMS),
    # issue 30 (r31b C1): FinQA's half-width, space-padded footnote mark after a word, a bracket or a figure
    # (「購買義務 ( a )」, 「買回股份總數 ( 1 )」, 「18322320 ( 1 )」) — glossary §1.19 writes 「（a）」 / 「（註 1）」;
    # 「401 ( k )」 is a plan's name, not a mark
    Pattern("half-width footnote mark ( a ) / ( 1 )", _regex(_HALF_MARK), ALL),
    # r31b C2: a caption that ends in the table's header years (「…（金額單位：百萬美元） 2012 2011 2010。」);
    # C3: an amount of five or more digits without thousands separators before a unit or after 「$」
    # (「113941 股」, 「$ 5583333」; years, ids and codes have no unit), and the source's inline 「•」 bullets
    Pattern("header years left at the end (evidence prose)", _regex(r"(?:\s(?:19|20)\d\d){2,}\s*[。.]?\s*$"),
            frozenset({EVIDENCE_TEXT})),
    Pattern("5+-digit amount without separators (evidence prose)", _regex(_BARE_AMOUNT), frozenset({EVIDENCE_TEXT})),
    Pattern("inline • bullet (evidence prose)", _regex("•"), frozenset({EVIDENCE_TEXT})),
)


def record_fields(rec: dict) -> Iterator[tuple[str, str]]:
    """(kind, text) for every zh-TW string of a FinQA/ConvFinQA/FinanceAgent record."""
    if isinstance(rec.get("question"), str) and not rec.get("turns"):
        yield QUESTION, rec["question"]
    for turn in rec.get("turns") or []:
        yield QUESTION, turn.get("question", "")
    ctx = rec.get("context") or {}
    en_evidence = (rec.get("original_en") or {}).get("evidence") or []
    for k, text in enumerate(ctx.get("evidence") or []):
        key = str(en_evidence[k].get("key", "")) if k < len(en_evidence) else ""
        yield (EVIDENCE_TABLE if key.startswith("table_") else EVIDENCE_TEXT), text
    for row in ctx.get("table") or []:
        for cell in row:
            yield TABLE, cell
    if rec.get("task_type") in _registry.reference_text_task_types() and isinstance(rec.get("answer"), str):
        yield ANSWER, rec["answer"]
    for r in rec.get("rubric") or []:
        yield RUBRIC, r.get("criteria", "")


def header_prefix_dropped(rec: dict) -> int:
    """Rendered table evidence whose table states its unit in the top-left header (the English template's
    prefix: "( in millions )") that the rendering does not carry. The corner's other words are put where a
    Taiwan analyst puts them or dropped (`evidence_zh._fold_lead`; counted by `corner_opens_evidence`)."""
    from tw_fin_eval.evidence_zh import _corner, header_is_data, merged_header

    table = (rec.get("context") or {}).get("table") or []
    if not table or not table[0] or header_is_data(table[0]) or merged_header(table):
        return 0  # no header, or one FinQA merged with the first data row (its corner is that row's label)
    words = [w for w in re.split(r"[（）()，,：:\s]+", _corner(table[0][0])[1]) if w and w not in {"單位", "金額單位"}]
    if not words:
        return 0
    return sum(1 for kind, text in record_fields(rec)
               if kind == EVIDENCE_TABLE and not all(w in text for w in words))


# a money amount in the source's scale: 「$ 375 百萬」, 「42.5 百萬美元」 (百萬桶油當量, 十億立方英尺 are unit names)
_CURRENCY = r"(?:美元|歐元|英鎊|日圓|日元|加元|加幣|澳元|港元|瑞士法郎|人民幣|新臺幣|新台幣|元)"
_SOURCE_SCALE = {word: re.compile(rf"(\$\s*)?(\d[\d,]*(?:\.\d+)?)\s*{word}")
                 for word in ("十億", "百萬")}
_QUESTION_UNIT = re.compile(r"十億|億|百萬|萬|千")  # the unit a question asks in: 「（百萬美元）」, 「多少百萬桶」
_PERCENT_ASKED = re.compile(r"百分比|比例|比率|百分之")
_AMOUNT_IN_QUESTION = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:十億|百萬|千萬|億|萬|千)")


def _money_values(rx: re.Pattern, text: str) -> list[float]:
    out = []
    for m in rx.finditer(text):
        if m.group(1) or re.match(rf"\s*{_CURRENCY}", text[m.end():]):
            out.append(float(m.group(2).replace(",", "")))
    return out


def _gold_units(rec: dict) -> Iterator[tuple[dict, str]]:
    """(unit, the questions asked so far) for the scored units of a record: its turns (ConvFinQA) or itself."""
    asked = ""
    for unit in rec.get("turns") or [rec]:
        asked += str(unit.get("question") or "") + "\n"
        yield unit, asked


def _needs_source_scale(value: float, unit: dict, asked: str) -> bool:
    """Glossary §1.3 (b): an amount stays in the source's scale when an amount-valued gold (not a percent or a
    ratio the question asks for, not zero, not unanswerable) computes with it and the question asks with no unit — the gold is then in the
    source's unit and a bare answer in 億 would be wrong. A program that rescales (× const_1000) puts the gold
    in another unit, unless the conversation asks for that arithmetic on the displayed figure (「乘以 1000」,
    「除以 100」): then the figure must stay as displayed."""
    from tw_fin_eval.sources.amount_scale import program_literals, rescales

    question, program = str(unit.get("question") or ""), unit.get("program")
    if unit.get("answer_value") in (None, 0) or unit.get("gold_status") == "unanswerable":
        return False
    # a percent or ratio is the same in any unit, also when its gold is a fraction (「變動百分比是多少？」 -0.0339)
    if str(unit.get("answer") or "").rstrip().endswith("%") or _PERCENT_ASKED.search(question) or \
            _QUESTION_UNIT.search(_AMOUNT_IN_QUESTION.sub("", question)):  # an amount the question quotes is no unit asked
        return False
    if rescales(program):
        asked_numbers = {m.replace(",", "") for m in re.findall(r"(?<![\d.])\d[\d,]*(?![\d.])", asked)}
        if not asked_numbers & set(re.findall(r"const_(\d+)", program or "")):
            return False
    return any(abs(v - value) <= 1e-9 * max(1.0, abs(value)) for v in program_literals(program))


def source_scale_not_needed(rec: dict, word: str = "十億") -> int:
    """「N 十億」 / 「N 百萬」 (`word`) in prose that no gold needs (see `_needs_source_scale`): a Taiwan writer
    writes 億／萬 there. One item is one unit style (issue 30 d, `rules.item_scale_issues`), so an item
    keeps the source scale throughout when one of its prose amounts (in either source scale) is needed."""
    units = list(_gold_units(rec))
    # an answer (FinanceAgent reference answer, rubric) is written in the unit its question asks for:
    # 「（以十億美元為單位）」 → 「1.935 十億美元」 (glossary §1.3 (b))
    asked_in_word = re.search(rf"以{word}[^，。？；]{{0,6}}(?:為單位|計)", str(rec.get("question") or "")) is not None
    found = [{w: _money_values(rx, text) for w, rx in _SOURCE_SCALE.items()} for kind, text in record_fields(rec)
             if kind in PROSE and not (asked_in_word and kind in (ANSWER, RUBRIC))]
    values = [v for f in found for vs in f.values() for v in vs]
    # a share count in the source scale a gold needs (「12 百萬股」 for add(#0, 12)) sets the item's style too
    values += [float(m.group(1).replace(",", "")) for kind, text in record_fields(rec) if kind in PROSE
               for m in re.finditer(r"(\d[\d,]*(?:\.\d+)?)\s*(?:十億|百萬)股", text)]
    if any(_needs_source_scale(v, u, asked) for v in values for u, asked in units):
        return 0
    return sum(len(f[word]) for f in found)


def billions_not_kept_for_gold(rec: dict) -> int:
    return source_scale_not_needed(rec, "十億")


def millions_not_kept_for_gold(rec: dict) -> int:
    return source_scale_not_needed(rec, "百萬")


# a quantity that is the same in any currency unit: a rate, a ratio, a multiple, a per-share or average price
_UNITLESS_ASKED = re.compile(r"率|之比|比值|比是|比為|倍|每股|平均價格|平均成本|占")
_EN_SCALED_AMOUNT = re.compile(r"\$\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(million|billion)\b")


def scaled_gold_unit_unasked(rec: dict) -> int:
    """Review 3046's meaning errors (convfinqa 0357 t0, 0404 t0): a gold computed from a prose amount in the
    source's scale (「$ 1.3 billion」 → gold 0.1) whose zh prose says it in 億／萬 (13 億美元) while no question so
    far asks a unit — a reader answers 1 (億). Every scored unit counts, `unanswerable` ones too (a reader sees
    them). The fix is the unit in the question (「（以十億美元計）」); a rate, a ratio or a per-share amount needs none."""
    en = " ".join(str(e.get("text", "")) for e in (rec.get("original_en") or {}).get("evidence") or []
                  if str(e.get("key", "")).startswith("text_"))
    prose = " ".join(text for kind, text in record_fields(rec) if kind in PROSE)
    values = {float(m.group(1).replace(",", "")) for m in _EN_SCALED_AMOUNT.finditer(en)
              if not re.search(re.escape(m.group(1)) + r"\s*" + ("百萬" if m.group(2) == "million" else "十億"), prose)}
    count = 0
    for unit, asked in _gold_units(rec):
        if _UNITLESS_ASKED.search(str(unit.get("question") or "")) or _QUESTION_UNIT.search(_AMOUNT_IN_QUESTION.sub("", asked)):
            continue
        scored = {k: v for k, v in unit.items() if k != "gold_status"}  # an unanswerable unit is read all the same
        count += any(_needs_source_scale(v, scored, asked) for v in values)
    return count


_AMOUNT_ASKED = re.compile(r"(?:增加|減少|成長|下降|上升|增長|變動|改變|提高|降低)了?多少")
_RATE_WORDS = re.compile(_PERCENT_ASKED.pattern + r"|率|倍|%")  # a percent asked for, or a rate or a multiple
_RATE_PROGRAM = re.compile(r"subtract\(.*divide\(#\d+,\s*(?!(?:100|const_100)\))[^)\s][^)]*\)\s*$")


def amount_asked_rate_gold(rec: dict) -> int:
    """Reviews 3047/3050/3055 (finqa 0618, 0504, 0816): 「…增加了多少？」 asks an amount, the gold is the rate of
    change (a difference divided by its base) — a reader answers 17,290 for 0.0972. Counted until the question
    asks the rate (「增加的百分比」, 「變動百分比」); a change over a base of 100 (an index) is the same in points."""
    return sum(1 for unit, _ in _gold_units(rec)
               if _AMOUNT_ASKED.search(q := str(unit.get("question") or "")) and not _RATE_WORDS.search(q)
               and _RATE_PROGRAM.search(str(unit.get("program") or "")))


# record-level counts (not one regex over a field): name → counter
RECORD_COUNTS: dict[str, Callable[[dict], int]] = {"scaled gold, no unit asked (questions)": scaled_gold_unit_unasked,
                                                   "amount asked, rate gold (questions)": amount_asked_rate_gold}


def _records(path: Path) -> Iterator[dict]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror}); run `python -m tw_fin_eval build` first", path=path) from None
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON ({exc.msg})", path=path, line=lineno) from None


def caption_without_currency(rec: dict) -> int:
    """Issue 30 (e): a table-unit caption that gives a scale only (「單位：千」) where the table prints its
    amounts in "$" and counts nothing else — the page states the currency, the caption should too."""
    from tw_fin_eval.sources.amount_scale import _dollar_table

    caption = str((rec.get("context") or {}).get("table_unit") or "")
    bare = re.fullmatch(r"單位：(?:千|百萬|十億)(?:，.*)?", caption) is not None
    return int(bare and _dollar_table((rec.get("original_en") or {}).get("table")))


def dash_code_cells(rec: dict) -> int:
    """Issue 30 (g): data cells of the record's table that still hold FinQA's OCR code of a dash (「2014」,
    「$ 2013」) where the table reads it as a dash (`dash_codes.readings`) and no gold program computes with it."""
    from tw_fin_eval.dash_codes import DASH_CODE_RE, readings
    from tw_fin_eval.evidence_zh import header_is_data, merged_header
    from tw_fin_eval.sources.amount_scale import program_literals

    table = (rec.get("context") or {}).get("table") or []
    if len(table) < 2:
        return 0
    programs = [rec.get("program")] + [t.get("program") for t in rec.get("turns") or []]
    used = {v for p in programs if p for v in program_literals(p)}
    first = 0 if merged_header(table) or header_is_data(table[0]) else 1
    dashes = {cell for cell, number in readings(table, first).items() if not number}
    return sum(1 for r in range(first, len(table)) for c in range(1, len(table[r]))
               if (m := DASH_CODE_RE.fullmatch(table[r][c].strip())) and (r, c) in dashes
               and float(m.group(1)) not in used)


def _dash_code_readings(rec: dict) -> tuple[int, int]:
    """(blanked, printed as numbers): the English table's data cells holding a dash code that the record's
    table prints as 「—」, and those it prints as a number (a year, an amount the totals need, a gold operand)."""
    from tw_fin_eval.dash_codes import DASH_CODE_RE

    en = (rec.get("original_en") or {}).get("table") or []
    zh = (rec.get("context") or {}).get("table") or []
    blanked = numbers = 0
    for r, row in enumerate(en):
        for c, cell in enumerate(row[1:], 1):
            if r < len(zh) and c < len(zh[r]) and DASH_CODE_RE.fullmatch(cell.strip()) and \
                    (r > 0 or zh[r][c].strip() == "—"):  # a header's 2014 is a year
                blanked += zh[r][c].strip() == "—"
                numbers += zh[r][c].strip() != "—"
    return blanked, numbers


def dash_codes_blanked(rec: dict) -> int:
    return _dash_code_readings(rec)[0]


def dash_codes_as_numbers(rec: dict) -> int:
    return _dash_code_readings(rec)[1]


_FIGURE = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])|(?<![\d.,])\d{4,}(?![\d,])")


def figures_printed_differently(rec: dict) -> int:
    """Issue 30 (f): rendered table evidence that prints a figure of the table with thousands separators
    where the table has none, or the other way round (「8,985」 in the sentence, 「8985」 in the table)."""
    table = (rec.get("context") or {}).get("table") or []
    in_table = {m.group(0) for row in table for cell in row for m in _FIGURE.finditer(cell)}
    bare = {f.replace(",", ""): f for f in in_table}
    count = 0
    for kind, text in record_fields(rec):
        if kind == EVIDENCE_TABLE:
            figures = [m.group(0) for m in _FIGURE.finditer(text)]
            count += any(f not in in_table and f.replace(",", "") in bare for f in figures)
    return count


def mixed_styles_in_item(rec: dict) -> int:
    """Issue 30 (d): an item whose prose writes amounts both the source's way (「324 百萬美元」) and the
    Taiwan way (「3.24 億美元」) — 1 per item (`rules.item_scale_issues`)."""
    from tw_fin_eval.zhcheck.rules import item_scale_issues

    fields = [(f"{kind}[{k}]", text) for k, (kind, text) in enumerate(record_fields(rec)) if kind in PROSE]
    return int(bool(item_scale_issues(fields)))


def note_column_as_number(rec: dict) -> int:
    """r31b C1: cells of a footnote column (the page's 「(2)」「(3)」… that FinQA printed 「-2 ( 2 )」, finqa 0096)
    that the record's table prints as a number (「-2」) instead of a note reference 「（註 2）」."""
    from tw_fin_eval.evidence_zh import _note_column, header_is_data, merged_header

    en = (rec.get("original_en") or {}).get("table") or []
    zh = (rec.get("context") or {}).get("table") or []
    if len(en) < 2 or len(en) != len(zh):
        return 0
    first = 0 if merged_header(en) or header_is_data(en[0]) else 1
    count = 0
    for c in range(1, max(len(r) for r in en)):
        if _note_column(en, c, first):
            count += sum(1 for row in zh[first:] if c < len(row) and row[c].strip()
                         and not re.fullmatch(r"（註 \d{1,2}）", row[c].strip()))
    return count


def footnote_marks_as_negatives(rec: dict) -> int:
    """Issue 30 round 4 (finqa 0096): table columns that print FinQA's footnote marks 「(2)」, 「(3)」 … as the
    negatives 「-2」, 「-3」 (three or more cells, numbered one after another) — the record table should say 「（註 2）」."""
    table = (rec.get("context") or {}).get("table") or []
    count = 0
    for c in range(1, max((len(r) for r in table), default=0)):
        cells = [row[c].strip() for row in table if c < len(row) and row[c].strip()]
        if len(cells) >= 3 and all(re.fullmatch(r"-\d{1,2}", x) for x in cells):
            numbers = [-int(x) for x in cells]
            count += all(b == a + 1 for a, b in zip(numbers, numbers[1:]))
    return count


def corner_opens_evidence(rec: dict) -> int:
    """r31a class A: rendered table evidence that opens with the table's corner header — 「12 月 31 日，第二類資本
    總額：…」, 「季度，第一季：…」, 「幣別「歐元」：…」 — where a Taiwan analyst starts with the row label."""
    from tw_fin_eval.evidence_zh import _corner, _date_label, header_is_data, merged_header

    table = (rec.get("context") or {}).get("table") or []
    if not table or not table[0] or header_is_data(table[0]) or merged_header(table):
        return 0
    lead = _corner(table[0][0])[0]
    lead = _date_label(lead) if lead else ""
    if not lead:
        return 0
    return sum(1 for kind, text in record_fields(rec)
               if kind == EVIDENCE_TABLE and (text.startswith(lead + "，") or text.startswith(lead + "「")))


def change_header_debris(rec: dict) -> int:
    """r31a class D: header cells of the record's table that print FinQA's change-column debris as it is —
    「% (  % )」, 「截至 12 月 31 日止年度變動 $」 — where a Taiwan table heads 「變動金額 | 變動 %」."""
    table = (rec.get("context") or {}).get("table") or []
    return sum(1 for cell in (table[0] if table else [])[1:]
               if re.search(r"%\s*\(\s*%\s*\)|變動\s*\$(?:\s|$)|(?:^|\s)\$\s*變動", cell))


def bare_note_numbers(rec: dict) -> int:
    """r31a class C: label and header cells of the record's table that end in a bare footnote number
    (「借入證券 2」, 「總資產1」) where the English glued it to a word (「securities borrowed2」) — a Taiwan table
    writes 「（註 2）」."""
    from tw_fin_eval.evidence_zh import glued_notes

    zh = (rec.get("context") or {}).get("table") or []
    en = (rec.get("original_en") or {}).get("table") or []
    fixed = glued_notes(zh, en)
    return sum(1 for a, b in zip(zh, fixed) for x, y in zip(a, b) if x != y)


RECORD_COUNTS.update({"corner header opens the sentence (table evidence)": corner_opens_evidence,
                      "bare footnote number after a label (table)": bare_note_numbers,
                      "change-column debris in the header (table)": change_header_debris,
"note column printed as numbers (table)": note_column_as_number,
                      "footnote marks printed as negatives (table)": footnote_marks_as_negatives,
                      "N 十億 (prose, no gold needs it)": billions_not_kept_for_gold,
                      "N 百萬 (prose, no gold needs it)": millions_not_kept_for_gold,
                      "header prefix dropped (table evidence)": header_prefix_dropped,
                      "table-unit caption without its currency": caption_without_currency,
                      "dash code in a data cell (table)": dash_code_cells,
                      "dash code printed as 「—」 (table)": dash_codes_blanked,
                      "dash code printed as a number (table)": dash_codes_as_numbers,
                      "amounts in two styles within one item (prose)": mixed_styles_in_item,
                      "figure printed differently in table and evidence": figures_printed_differently})


def count_file(path: Path) -> dict[str, tuple[int, int]]:
    """pattern name → (occurrences, items with at least one)."""
    totals = {name: [0, 0] for name in [p.name for p in PATTERNS] + list(RECORD_COUNTS)}
    for rec in _records(path):
        fields = list(record_fields(rec))
        found = {p.name: sum(p.count(text) for kind, text in fields if kind in p.kinds) for p in PATTERNS}
        found.update({name: counter(rec) for name, counter in RECORD_COUNTS.items()})
        for name, n in found.items():
            totals[name][0] += n
            totals[name][1] += n > 0
    return {k: (v[0], v[1]) for k, v in totals.items()}


def show(data_dir: Path, name: str, subsets: tuple[str, ...] = tuple(FILES),
         first: int = 1, last: int | None = None) -> Iterator[str]:
    """One line per affected string of pattern `name`: overlay file, source id, field kind and zh text."""
    patterns = {p.name: p for p in PATTERNS}
    if name not in patterns and name not in RECORD_COUNTS:
        raise InputError(f"unknown pattern {name!r}; one of: " + ", ".join([*patterns, *RECORD_COUNTS]))
    pattern = patterns.get(name)
    for subset in subsets:
        for rec in _records(data_dir / FILES[subset]):
            number = int(re.search(r"(\d+)$", rec.get("id", "0")).group(1))
            if number < first or (last is not None and number > last):
                continue
            overlay = str((rec.get("meta") or {}).get("translation", "")).rpartition("；")[2]
            source_id = (rec.get("source") or {}).get("orig_id", "")
            if pattern is None:  # a record-level count: the record, with how many it has
                if n := RECORD_COUNTS[name](rec):
                    yield f"{overlay} #{number} id={source_id} [record] {n}"
                continue
            for kind, text in record_fields(rec):
                if kind in pattern.kinds and pattern.count(text):
                    yield f"{overlay} #{number} id={source_id} [{kind}] {text}"


def count_data(data_dir: Path) -> dict[str, dict[str, tuple[int, int]]]:
    return {subset: count_file(data_dir / name) for subset, name in FILES.items()}


def format_counts(counts: dict[str, dict[str, tuple[int, int]]]) -> str:
    subsets = list(counts)
    names = list(next(iter(counts.values())))
    width = max(len(n) for n in names) + 2
    head = f"{'pattern':{width}s}" + "".join(f"{s:>16s}" for s in subsets) + f"{'total':>16s}"
    out = [head, f"{'':{width}s}" + "".join(f"{'occ / items':>16s}" for _ in subsets + ['t'])]
    for name in names:
        cells = [counts[s][name] for s in subsets]
        total = (sum(c[0] for c in cells), sum(c[1] for c in cells))
        out.append(f"{name:{width}s}" + "".join(f"{f'{o} / {i}':>16s}" for o, i in cells + [total]))
    return "\n".join(out)
