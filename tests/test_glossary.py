"""The glossary file parses, is big enough, is self-consistent, and malformed rows fail with file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tw_fin_eval import paths
from tw_fin_eval.errors import InputError
from tw_fin_eval.glossary import load_glossary, parse_glossary
from tw_fin_eval.zhcheck.rules import (
    check_translation,
    check_zh,
    find_english_residue,
    find_prc_terms,
    missing_numerals,
)


@pytest.fixture(scope="module")
def glossary():
    return load_glossary()


def test_sizes_required_by_the_brief(glossary):
    assert len(glossary.terms) >= 200
    assert len(glossary.forbidden) >= 80
    assert len(glossary.allowed_english) >= 50
    assert len(glossary.required) >= 5


def test_key_entries(glossary):
    assert glossary.forbidden["質量"] == "品質"
    assert glossary.forbidden["融資活動"] == "籌資活動"
    assert glossary.forbidden["市盈率"] == "本益比"
    assert {"EPS", "EBITDA", "GAAP", "10-K", "8-K", "LIBOR", "NT$", "mw", "bps", "Q4", "FY"} <= glossary.allowed_english
    by_en = {r.en: r for r in glossary.required}
    assert by_en["long-term debt"].must == "長期債務" and by_en["long-term debt"].forbidden_forms == ("長期負債",)
    assert by_en["million"].must == "百萬" and by_en["million"].forbidden_forms == ()
    pe = next(r for r in glossary.required if "p/e ratio" in r.phrases)
    assert pe.must == "本益比"
    terms = {t.en: t.zh for t in glossary.terms}
    assert terms["goodwill"] == "商譽" and terms["treasury stock / treasury shares"] == "庫藏股"
    assert {"品質量", "物質量"} <= set(glossary.forbidden_exceptions["質量"])


def test_listed_taiwan_forms_do_not_trip_the_checker(glossary):
    """The advice itself must pass: replacements and Taiwan terms have no PRC term or Simplified char."""
    for bad, good in glossary.forbidden.items():
        assert check_zh(good) == [], (bad, good)
    for term in glossary.terms:
        assert check_zh(term.zh) == [], term
    for req in glossary.required:
        assert check_zh(req.must) == [], req


def test_every_starred_advice_is_enforced(glossary):
    """A ★ 不用「X」 note in the term table promises the checker flags X."""
    import re

    by_required = {bad for req in glossary.required for bad in req.forbidden_forms}
    for term in glossary.terms:
        if "★" not in term.note:
            continue
        for bad in re.findall(r"「([^」]+)」", term.note.partition("不用")[2].partition("（")[0]):
            assert find_prc_terms(bad) or bad in by_required, (term.en, bad)


def test_each_english_term_listed_once(glossary):
    seen: dict[str, str] = {}
    for term in glossary.terms:
        key = " ".join(term.en.lower().split())
        assert key not in seen, (term.en, seen[key])
        seen[key] = term.zh


def test_terms_obey_the_numeral_rule(glossary):
    """The glossary's own advice keeps every numeral of the English by value (tier 1 → 第一類 is the regulation's form)."""
    for term in glossary.terms:
        assert missing_numerals(term.en, term.zh) == [], term


def test_translator_decisions_are_in_the_term_table(glossary):
    terms = {t.en: t.zh for t in glossary.terms}
    assert terms["backlog"] == "未完成訂單"
    assert terms["tier 1 / tier 2 capital"] == "第一類／第二類資本"
    assert "第 3 等級" in terms["level 1 / level 2 / level 3 inputs"]
    assert terms["S&P 500"] == "標普 500"
    assert terms["tax positions"] == "稅務處理" and terms["uncertain tax positions"] == "不確定之稅務處理"
    assert terms["thereafter"] == "以後年度" and terms["operating earnings / earnings from operations"] == "營業利益"
    assert terms["mathematical range"] == "全距" and terms["VIE"] == "變動利益個體（VIE）"
    assert terms["lapse of statute of limitations"] == "核課期間屆滿"
    assert terms["equity compensation plans"] == "權益酬勞計畫" and terms["peer group"] == "同業群組"
    assert terms["customer premises equipment"] == "用戶端設備"
    assert terms["assets under supervision"] == "受監管資產（AUS）"
    assert terms["the company / the firm (the filer)"] == "本公司"
    assert terms["five-year period ended 2016"] == "截至 2016 年止五年期間"
    assert terms["refined products (petroleum)"] == "精煉油品"
    assert terms["Q4'24 (quarter shorthand)"] == "2024 年第 4 季"
    assert terms["factory stores / factory retail stores"] == "暢貨中心門市"
    assert terms["$50.00 per share (FinanceAgent prose)"] == "每股 50.00 美元"
    # issue 30: filing terms as Taiwan filings write them
    assert terms["average price paid per share (repurchase table)"] == "平均每股買回價格"
    assert terms["total number of shares purchased (issuer repurchase table)"] == "買回股份總數"
    assert terms["equity compensation plans approved by security holders"] == "經股東會核准之權益酬勞計畫"
    assert terms["net income attributable to / available for common shareholders"] == "歸屬於普通股股東之淨利"
    assert terms["communications sites"] == "通訊站址"
    assert terms["loss and loss expense ratio / loss and LAE ratio"] == "損失及理賠費用率"
    assert terms["prior period development / prior year reserve development (insurance)"] == "以前年度賠款準備金發展"
    # issue 30 round 3 (r30b review)
    assert terms["dividends declared per common share"] == "普通股每股宣告股利"
    assert terms["outstanding fuel hedges / derivatives outstanding"] == "未平倉燃料避險合約 / 未平倉衍生工具"
    assert terms["contract-based intangible assets"] == "合約相關無形資產"
    assert terms["postretirement plans"] == "退休後福利計畫" and terms["reverse stock split"] == "反向分割（併股）"
    assert terms["mobility (ride-hailing segment)"] == "叫車業務"
    assert "處分土地利益" in terms["gain on sale / gain on disposal (land, investments, property)"]


@pytest.mark.parametrize("en,bad,good", [
    ("the backlog was $ 5 million at year end", "未交貨訂單於年底為 $ 5 百萬", "未完成訂單於年底為 $ 5 百萬"),
    ("uncertain tax positions of $ 5 million", "不確定租稅立場 $ 5 百萬", "不確定之稅務處理 500 萬"),
    ("uncertain tax positions of $ 5 million", "不確定稅務部位 $ 5 百萬", "不確定之稅務處理 $ 5 百萬"),
    ("2020 and thereafter", "2020 年及其後", "2020 年及以後年度"),
    ("operating earnings ( loss )", "營業盈餘（虧損）", "營業利益（損失）"),
    ("trade receivables , net", "應收貿易帳款淨額", "應收帳款淨額"),
    ("maximum exposure to loss from vies", "來自變動利益實體（VIE）的最大損失暴險", "來自變動利益個體（VIE）的最大損失暴險"),
    ("losses of a variable interest entity", "變動利益實體的損失", "變動利益個體的損失"),
    ("the mathematical range of revenue", "營收的數學全距", "營收的全距"),
    ("total capital ratio", "總資本比率", "資本適足率"),
    ("due to the lapse of statutes of limitation", "因法定時效屆滿", "因核課期間屆滿"),
    ("the lapse of statute of limitations in 2012", "2012 年法定時效屆滿", "2012 年核課期間屆滿"),
    ("tier 1 capital ratio of 12.1% ( 12.1 % ) and 1 other",
     "第 1 類資本比率為 12.1%（12.1 %）及其他 1 項", "第一類資本比率為 12.1%（12.1 %）及其他 1 項"),
    ("tier 2 capital of $ 2.5 billion", "第 2 類資本 25 億美元", "第二類資本 25 億美元"),
    ("level 3 assets of $ 3 million", "第三等級資產 $ 3 百萬", "第 3 等級資產 $ 3 百萬"),
    ("receivables - trade and other", "應收款項—貿易及其他", "應收帳款及其他應收款"),
    ("trade receivables net", "應收貿易款項淨額", "應收帳款淨額"),
    ("quarter ended june 30", "截至 6 月 30 日之季度", "截至 6 月 30 日止季度"),
    ("fiscal years ending may 31", "截至 5 月 31 日之會計年度", "截至 5 月 31 日止會計年度"),
    ("carryforwards that expire in periods through 2035", "扣抵，其到期期間延續至 2035 年", "扣抵，將於 2035 年以前陸續到期"),
    ("return for the five year period ended 2016", "截至 2016 年的五年期間之報酬", "截至 2016 年止五年期間之報酬"),
    ("for the five years ended 12/31/2012", "截至 2012 年 12 月 31 日的五年間", "截至 2012 年 12 月 31 日止五年間"),
    ("net sales for the three years ending in 2011", "截至 2011 年的三個年度之銷貨淨額", "截至 2011 年止三個年度之銷貨淨額"),
    ("the five year period ended 2017", "截至 2017 年為止的五年期間", "截至 2017 年止五年期間"),
    ("850 miles of private refined products pipelines", "850 英里之私有成品油管線", "850 英里之私有精煉油品管線"),
    ("217 miles of common carrier pipelines", "217 英里之公共運輸管線", "217 英里之公用承運管線"),
    ("additions to properties", "不動產增添", "不動產、廠房及設備增添"),
    ("what percentage of factory retail stores were located in europe?", "工廠暢貨零售店中位於歐洲的占多少百分比？",
     "暢貨中心門市中位於歐洲的占多少百分比？"),
    # issue 30: repurchase and equity-plan tables, EPS, litigation, towers, insurance reserves
    ("total number of shares purchased", "購買股份總數", "買回股份總數"),
    ("average price paid per share", "每股平均支付價格", "平均每股買回價格"),
    ("shares purchased as part of publicly announced plans", "依公開宣布之計畫或方案購買之股份", "依公開宣布之計畫或方案買回之股份"),
    ("equity compensation plans approved by security holders", "經證券持有人核准之權益酬勞計畫", "經股東會核准之權益酬勞計畫"),
    ("equity compensation plans not approved by security holders", "未經證券持有人核准之權益酬勞計畫", "未經股東會核准之權益酬勞計畫"),
    ("basic net income ( loss ) per share", "基本每股淨利（淨損）", "基本每股盈餘（虧損）"),
    ("basic net income available for common shareholders", "普通股股東可分配之基本淨利", "歸屬於普通股股東之基本淨利"),
    ("legal settlement", "法律和解", "訴訟和解"),
    ("acquired 962 communications sites", "取得 962 個通訊站點", "取得 962 個通訊站址"),
    ("loss and loss expense ratio as reported", "報告之損失及損失費用率", "報告之損失及理賠費用率"),
    ("net favorable prior period development of $ 503 million", "前期準備有利發展淨額 503 百萬美元",
     "以前年度賠款準備金有利發展淨額 503 百萬美元"),
    ("cash provided by operating activities", "營業活動提供之現金", "營業活動之現金流入"),
    ("what was cash spent from investing activities?", "投資活動使用的現金是多少？", "投資活動之現金流出是多少？"),
    ("cash used in financing activities", "籌資活動使用之現金", "籌資活動之現金流出"),
    # issue 30 round 3 (r30b): gains on disposal, per-share word order, open hedges, PPA lines, commitments
    ("gain on land sales", "土地出售利得", "處分土地利益"),
    ("gain on sale of ownership interests in unconsolidated companies", "出售未合併公司所有權權益之利得",
     "處分未合併公司股權利益"),
    ("gains from sales of depreciated property", "出售已提列折舊之不動產的利得", "處分已提列折舊不動產之利益"),
    ("gross realized gains and losses for 2006", "2006 年已實現利得總額及已實現損失總額",
     "2006 年已實現利益總額及已實現損失總額"),
    ("pretax gains for the sale of mastercard shares", "出售萬事達卡股份的稅前利得", "處分萬事達卡股份之稅前利益"),
    ("dividends declared per common share", "每股普通股宣告股利", "普通股每股宣告股利"),
    ("cash dividends paid per common share", "每股普通股支付之現金股利", "普通股每股發放之現金股利"),
    ("the aggregate fair values of our outstanding fuel hedges", "本公司未結清燃料避險合約的公允價值總額",
     "本公司未平倉燃料避險合約的公允價值總額"),
    ("net fair value of derivatives outstanding", "未結清衍生工具之公允價值淨額", "未平倉衍生工具之公允價值淨額"),
    ("contract-based intangible assets", "合約基礎無形資產", "合約相關無形資產"),
    ("minority interest in equity of subsidiary", "子公司權益中之非控制權益", "非控制權益"),
    ("commitment capacity", "承諾—容量", "容量購買承諾"),
    ("other postretirement plans", "其他退休後計畫", "其他退休後福利計畫"),
    ("the reverse stock split effected on october 6 , 2016", "2016 年 10 月 6 日生效之反向股票分割",
     "2016 年 10 月 6 日生效之反向分割（併股）"),
    # issue 30 (h): equity-method line items as a Taiwan statement heads them
    ("equity earnings ( loss ) net of tax", "權益法投資收益（損失），稅後淨額", "採用權益法認列之投資損益，稅後淨額"),
    ("equity-method investments", "權益法投資", "採用權益法之投資"),
    ("equity affiliates' income", "權益法關聯企業之收益", "採用權益法認列之關聯企業收益"),
    # issue 30 round 4: an ALLL's specific reserves are the individually evaluated allowance
    ("we held specific reserves in the alll of $ 587 million", "於 ALLL 中持有特定準備 5.87 億美元",
     "於 ALLL 中提列之個別評估備抵損失為 5.87 億美元"),
    # issue 30 point 3 (r32a): statements, charges, lease commitments, segments, units, cash-flow lines
    ("which is included in market making in the consolidated statements of earnings .",
     "該利益列於合併盈餘表的「造市」項下。", "該利益列於合併損益表的「造市」項下。"),
    ("in personnel on its consolidated statements of operations .", "於合併營運報表的人事費用項下認列。",
     "於合併損益表的人事費用項下認列。"),
    ("pre-tax impairment charge", "稅前減損費用", "稅前減損損失"),
    ("the company recorded impairment charges of $ 0.5 million", "本公司認列減損費用 50 萬美元", "本公司認列減損損失 50 萬美元"),
    ("future minimum commitments under these operating leases are as follows : ( in millions ) .",
     "該等營業租賃之未來最低承諾金額如上表（單位：百萬美元）。", "該等營業租賃之未來最低租賃給付如上表（單位：百萬美元）。"),
    ("us tower division accounting services headquarters", "美國鐵塔事業部會計服務總部", "美國鐵塔部門會計服務總部"),
    ("in millions except per share amounts", "百萬（每股金額除外）", "（單位：百萬，每股金額除外）"),
    ("what were the allocations related to contract-based intangible assets , in thousands?",
     "與合約相關無形資產相關的分攤金額是多少（以千為單位）？", "與合約相關無形資產相關的分攤金額是多少（以千美元計）？"),
    ("what are the pre-tax earnings in 2016 , in billions?", "2016 年的稅前盈餘是多少（以十億計）？",
     "2016 年的稅前淨利是多少（以十億計）？"),
    ("earnings ( loss ) before income taxes", "稅前盈餘（虧損）", "稅前淨利（淨損）"),
    ("net earnings by geographic region", "按地區別列示之淨盈餘", "按地區別列示之淨利"),
    ("unvested at december 31 2017", "2017 年 12 月 31 日未歸屬", "2017 年 12 月 31 日尚未既得"),
    ("cash flows provided by ( used in ) investing activities including discontinued operations",
     "投資活動提供（使用）之現金流量（含停業單位）", "投資活動之現金流入（流出）（含停業單位）"),
    ("cash flows provided by ( used in ) financing activities", "籌資活動提供（使用）之現金流量", "籌資活動之現金流入（流出）"),
    ("cash provided by ( used for )", "提供（使用）之現金", "現金流入（流出）"),
    ("cash flow provided by operations was $ 6.8 billion in 2012", "營運提供之現金流量 2012 年為 68 億美元",
     "營業活動之現金流入 2012 年為 68 億美元"),
    ("net cash used in working capital", "營運資金使用之淨現金", "營運資金之淨現金流出"),
    ("changes in other non-current assets and liabilities using cash", "其他非流動資產及負債變動使用之現金",
     "其他非流動資產及負債變動之現金流出"),
    ("the debt-to-equity ratio", "負債對權益比率", "負債權益比"),
    # issue 30 (f33, v35): earned premium is 滿期保費 in Taiwan insurers' statements, not the PRC 已賺保費
    ("gross earned premium (gep): $827 million", "總已賺保費（GEP）：8.27 億美元", "總滿期保費（GEP）：8.27 億美元"),
])
def test_decided_renderings_are_enforced(en, bad, good):
    """The losing variant of a translators' DECISION is reported even where the numeral rule cannot see it."""
    findings = [f for f in check_translation(en, bad) if f.rule == "convention"]
    assert len(findings) == 1 and findings[0].fix in good, findings
    assert check_translation(en, good) == []


def test_prc_segment_names_are_forbidden(glossary):
    """Uber's mobility segment is 叫車業務 in Taiwan; 出行業務／出行部門 is PRC usage (FA-0043), 出行 alone is not."""
    assert [f.fix for f in check_translation("25% in mobility", "出行業務成長 25%")] == ["叫車業務"]
    assert [f.fix for f in check_translation("mobility segment growth: 25%", "出行部門成長：25%")] == ["叫車業務"]
    assert check_translation("25% in mobility", "叫車業務成長 25%") == []
    assert find_prc_terms("旅客出行需求") == []


def test_capital_gain_stays_when_no_disposal_is_named():
    """「資本利得」 is Taiwan usage: the disposal rule fires only where the English names a sale or a realised gain."""
    assert check_translation("capital gain distributions received", "收到之資本利得分配") == []
    assert check_translation("gain on sale of land and capital gain distributions",
                             "處分土地利益及資本利得分配") == []


def test_not_listed_as_forbidden(glossary):
    """Taiwan-standard words the brief says must never be forbidden."""
    for ok in ["現金流量表", "公允價值", "信用卡", "上市公司", "財務報表", "權益", "營業收入"]:
        assert find_prc_terms(ok) == [], ok


def test_allowed_tokens_pass_the_residue_rule(glossary):
    for token in glossary.allowed_english:
        assert find_english_residue(f"數值 {token} 為 5") == [], token


def test_cached_per_path():
    assert load_glossary() is load_glossary(paths.GLOSSARY_PATH)


GOOD = """# t
## 2. 術語表
| English | 臺灣用語 | 備註 |
|---|---|---|
| goodwill | 商譽 | |

### 禁用中國用語 (forbidden PRC terms)
| 禁用 | 臺灣用語 | 備註 |
|---|---|---|
| 質量 | 品質 | 例外：品質量 |

### 允許的英文 (allowed English tokens)
| 英文 | 說明 |
|---|---|
| EPS | |

### 必要譯法 (required renderings)
| English | 必須用 | 不可用 |
|---|---|---|
| long-term debt | 長期債務 | 長期負債 |

### 簡體偵測允許字 (simplified-detection allow-list)
| 字 | 理由 |
|---|---|
| 台 | 台灣 |
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "g.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_minimal_glossary_parses(tmp_path):
    g = load_glossary(_write(tmp_path, GOOD))
    assert g.forbidden == {"質量": "品質"} and g.allowed_english == {"EPS"} and g.simplified_allow == {"台"}


@pytest.mark.parametrize("old,new,line,words", [
    ("| 質量 | 品質 | 例外：品質量 |", "| 質量 | 品質 |", 10, "2 cells"),
    ("| 台 | 台灣 |", "| 台 灣 | 台灣 |", 25, "one CJK character or one CJK word"),
    ("| goodwill | 商譽 | |", "| | 商譽 | |", 5, "empty first cell"),
    ("| 質量 | 品質 | 例外：品質量 |", "| 質量 | 品質 | 例外：品質 |", 10, "does not contain"),
    ("| EPS | |", "| EPS 2 | |", 15, "one word"),
])
def test_malformed_rows_name_file_and_line(tmp_path, old, new, line, words):
    path = _write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(InputError) as err:
        parse_glossary(path.read_text(encoding="utf-8"), path)
    assert err.value.path == str(path) and err.value.line == line
    assert words in str(err.value)


def test_duplicate_forbidden_term(tmp_path):
    text = GOOD.replace("| 質量 | 品質 | 例外：品質量 |", "| 質量 | 品質 | |\n| 質量 | 品質 | |")
    with pytest.raises(InputError, match="listed twice"):
        parse_glossary(text, tmp_path / "g.md")


def test_missing_heading_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="heading missing"):
        parse_glossary(GOOD.replace("### 必要譯法 (required renderings)", "### other"), tmp_path / "g.md")
    with pytest.raises(InputError, match="not found"):
        load_glossary(tmp_path / "nope.md")


def test_missing_separator_row(tmp_path):
    text = GOOD.replace("| 英文 | 說明 |\n|---|---|\n", "| 英文 | 說明 |\n")
    with pytest.raises(InputError, match="separator") as err:
        parse_glossary(text, tmp_path / "g.md")
    assert err.value.line is not None
