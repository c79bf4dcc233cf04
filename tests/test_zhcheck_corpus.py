"""No false positives on real Taiwan text; real hits on Simplified characters and PRC terms.

The corpus is natural Taiwan financial Chinese (written for this test, in the style of Taiwan annual
reports, MOPS filings and financial news), deliberately full of characters and words that a naive
Simplified detector or a substring PRC-term list gets wrong (台, 裡, 著, 占比, 上游, 品質量測, 相同比例…).
"""

from __future__ import annotations

import pytest

from tw_fin_eval.zhcheck.rules import _s2tw_char, check_zh, find_prc_terms, find_simplified

TAIWAN_CORPUS = """
台積電 2023 年度合併營收為新台幣 2 兆 1,617 億元，毛利率 54.4%，稅後淨利較前一年度減少 17.5%。
本公司依國際財務報導準則（IFRS）編製財務報表，並經會計師查核簽證，於股東會承認後公告於公開資訊觀測站。
籌資活動之淨現金流出主要來自發放現金股利及償還長期借款；營業活動之現金流量則因應收帳款收回而增加。
權益總額包括股本、資本公積、保留盈餘及其他權益，庫藏股以成本列為權益之減項。
非控制權益係指子公司權益中非直接或間接歸屬於母公司之部分。
商譽每年進行減損測試，若可回收金額低於帳面金額，即認列減損損失。
不動產、廠房及設備以成本減累計折舊及累計減損衡量，無形資產按直線法攤銷。
遞延所得稅資產僅於很有可能有未來課稅所得可供使用時才予以認列。
金融商品按公允價值衡量且公允價值變動列入損益者，於報導期間結束日按市價評價。
衍生工具係用以規避匯率與利率風險，符合避險會計條件者採現金流量避險處理。
本益比、股價淨值比與殖利率是投資人評估股價的常用指標，外資持股占比持續上升。
該檔公司債票面利率為 1.25%，存續期間約 4.8 年，信用評等為 twAA。
選擇權的履約價格、到期日與標的資產價格，是決定權利金高低的主要因素。
銀行的逾放比率維持在 0.2% 以下，備抵呆帳覆蓋率超過 1,000%，資本適足率亦符合主管機關規定。
淨利息收入受惠於升息循環，淨利差擴大，手續費收入則因財富管理業務成長而增加。
保險業實施 IFRS 17 後，保險合約負債的衡量方式將有重大改變，保戶權益也受到關注。
金管會核准該金控公司發行可轉換公司債，募得資金將用於充實營運資金及償還銀行借款。
上游原物料價格回落，中游製造業毛利改善，下游通路商的庫存去化速度則仍待觀察。
證券商的經紀手續費與融券業務、借券收入，以及承銷佣金，都受市場成交量影響。
雇主應依勞工退休金條例按月提繳退休金，確定提撥計畫的費用於員工提供服務時認列。
若干董事於年度中辭任，公司依法於期限內補選，並於公開資訊觀測站發布重大訊息。
主管機關不干預個別銀行的定價，但要求其落實洗錢防制與打擊資恐的內部控制。
這家公司位於台北市信義區，距離捷運站約 1 公里，辦公室裡的員工大約有 300 人。
颱風過後，農產品價格飆漲，消費者物價指數年增率攀上高峰，央行理監事會決議升息半碼。
他吃著早餐看著財經新聞，床邊的手機不斷跳出族群輪動的推播：航運、金融與半導體類股輪番表現。
投資人應注意，過去績效不代表未來表現，基金經理人的操作策略也可能隨市場變化而調整。
本行產品品質量測結果與國際標準相符，客戶滿意度與誠信息息相關。
捷運營收與客運營業收入均受疫情影響，貨運營運則逆勢成長。
相同比例的股票股利對每位股東一視同仁；共同比財務報表便於比較不同規模公司的結構。
報酬的平均值與中位數差異很大，顯示分配呈現右偏。
出租車輛收入列於營業收入項下，國內存款與境內存款的成長率相近。
發行權益證券所產生的交易成本，應自權益中扣除；以股份支付之收購價款按公允價值衡量。
衍生性金融商品屬於高風險投資，投資人應審慎評估自身的風險承受能力。
公司以網路銀行與行動支付服務拓展年輕客群，並導入人工智慧提升徵信效率。
本公司資訊安全政策涵蓋軟體、硬體與資料庫管理，並定期演練營運持續計畫。
該基金以台灣五十指數為追蹤標的，經理費率為 0.32%，並於每年 10 月評價收益分配。
環境、社會及治理（ESG）資訊揭露依永續報告書準則辦理，溫室氣體排放量逐年下降。
同業拆款利率走升，附買回協議與附賣回協議的利率亦隨之調整。
營運資金週轉率提升，存貨週轉天數縮短至 45 天，應付帳款週轉天數則延長。
依照公司法規定，盈餘分配案須經股東會決議，員工酬勞與董事酬勞則由董事會決議。
本期淨利歸屬於母公司業主之部分為 12.3 億元，基本每股盈餘為 3.45 元，稀釋每股盈餘為 3.41 元。
於 2015 年 12 月 31 日，長期債務的帳面金額為 1,234 百萬美元，較前一年度減少。
下游客戶砍單，營收年增率由正轉負，管理階層預期下半年景氣將逐步回溫。
為了降低利率風險，公司簽訂利率交換合約，將浮動利率借款轉換為固定利率。
總統府前的廣場上，群眾聚集，警方劃設管制線並派員維持秩序。
這份年報裡的附註說明了租賃負債、使用權資產及合約負債的變動。
我們看好台股在第 4 季的表現，但仍須留意美國聯準會的升息步調與匯率波動。
金融卡與信用卡的交易量同步成長，電子支付帳戶數突破一千萬戶。
他在股東會上提問：為何本期的營業外收入大幅增加？管理階層表示主要來自處分投資利益。
花岡岩與大理石的開採受到環保法規限制，相關公司的獲利因此承壓。
市場咸認央行將維持利率不變，但通膨壓力仍未完全消退，物價漲幅高於預期。
公司聘請祕書處人員協助董事會運作，並於年度結束後檢討董事會績效。
划算的定存利率吸引保守型投資人，但實質利率仍為負值。
污染防治設備的投資可抵減營利事業所得稅，環境保護支出列入營業費用。
伙伴關係的建立有助於拓展海外市場，公司並與供應商簽訂長期合約。
這筆交易尚待公平交易委員會核准，預計於明年第 1 季完成。
""".strip()

def test_corpus_has_no_simplified_false_positive():
    findings = find_simplified(TAIWAN_CORPUS)
    assert findings == [], [f.message for f in findings]


def test_corpus_has_no_prc_term_false_positive():
    findings = find_prc_terms(TAIWAN_CORPUS)
    assert findings == [], [f.message for f in findings]


@pytest.mark.parametrize("word", ["台", "吃", "群", "床", "裡", "著", "於", "為", "峰", "線", "網路",
                                  "財務報表", "權益", "籌資活動", "占比", "上游", "佣金", "核准", "若干",
                                  "雇主", "公里", "旗杆", "臺灣", "裡面"])
def test_taiwan_words_are_not_simplified(word):
    assert find_simplified(word) == []


@pytest.mark.parametrize("text", ["软件", "杠杆", "质量", "视频", "资产负债表", "净利润", "这", "们",
                                  "说", "以后", "征收", "采取", "几个", "发展", "经济", "银行", "证券"])
def test_simplified_is_caught(text):
    findings = find_simplified(text)
    assert findings, text
    assert all(f.rule == "simplified" for f in findings)
    # the message names the character and the fix
    assert "簡體字「" in findings[0].message and "→" in findings[0].message


@pytest.mark.parametrize("text", ["软件", "杠杆", "质量", "信息", "视频", "资产负债表", "净利润", "这", "们", "说"])
def test_check_zh_catches_the_brief_examples(text):
    """信息 is written the same in both scripts: the PRC-term rule catches it, not the Simplified one."""
    assert check_zh(text)


def test_simplified_message_gives_traditional_form_and_groups_runs():
    (finding,) = find_simplified("公司的资产负债表")
    assert finding.message == "簡體字「资产负债」→ 改用繁體「資產負債」"
    assert "资产负债表" in finding.text


def test_each_occurrence_is_reported_with_context():
    findings = find_simplified("第一個这裡，第二個这裡")
    assert len(findings) == 2
    assert all("这" in f.text for f in findings)


def test_bulk_table_agrees_with_per_character_conversion():
    """The precomputed s2tw table (one bulk conversion) flags exactly what per-character s2tw changes."""
    from tw_fin_eval.glossary import load_glossary

    allow = load_glossary().simplified_allow
    sample = set(TAIWAN_CORPUS) | set("软件杠杆质量视频资产负债表净利润这们说后于几么并征采余丰云据")
    sample |= {chr(c) for c in range(0x4E00, 0x9FFF, 37)}  # a spread over the main CJK block
    for ch in sorted(sample):
        if ch.isascii() or ch.isspace():
            continue
        expected = _s2tw_char(ch) != ch and ch not in allow
        assert bool(find_simplified(ch)) == expected, ch


def test_short_and_long_paths_agree(monkeypatch):
    """Short texts may be checked per character before the full table exists; both paths agree."""
    from tw_fin_eval.zhcheck import rules

    text = TAIWAN_CORPUS + "这是简体，资金拮据，根据下表" + "𠀾"
    rules._simplified_index.cache_clear()
    short_path = rules.find_simplified(text)          # the text's own characters (big class not compiled)
    monkeypatch.setattr(rules, "_SHORT_TEXT", 0)
    long_path = rules.find_simplified(text)           # compiles and uses the big character class
    assert short_path == long_path
    assert [f.found for f in short_path] == ["这", "简体", "资", "据", "𠀾"]


def test_astral_characters():
    """CJK extension B: 𠀾 is changed by s2tw, 𠀀 is not; runs next to BMP characters split correctly."""
    assert [f.message for f in find_simplified("甲𠀾乙")] == ["簡體字「𠀾」→ 改用繁體「𠁞」"]
    assert find_simplified("甲𠀀乙") == []
    assert [f.message for f in find_simplified("𠀀这")] == ["簡體字「这」→ 改用繁體「這」"]


def test_allow_list_entries_are_needed():
    """Every allow-listed character is one that s2tw really changes (else the entry is dead weight)."""
    from tw_fin_eval.glossary import load_glossary

    allow = load_glossary().simplified_allow
    assert {"台", "里", "占", "准", "游", "干", "佣"} <= allow
    assert [ch for ch in sorted(allow) if _s2tw_char(ch) == ch] == []
    # common Simplified stand-ins stay detectable: letting them through would miss 以后, 征收…
    assert not allow & set("后于几么并征采余丰云")
    # an allow-listed word must hold a character that would otherwise be flagged
    for word in load_glossary().simplified_allow_words:
        assert any(_s2tw_char(ch) != ch and ch not in allow for ch in word), word


@pytest.mark.parametrize("ok,bad", [("資金拮据", "根据下表"), ("他的風采", "采取措施"), ("萬里長征", "征收關稅"),
                                    ("余光中的詩", "其余部分")])
def test_allow_listed_words_only_excuse_their_own_characters(ok, bad):
    assert find_simplified(ok) == []
    assert find_simplified(bad)
    # the same character elsewhere in one text is still caught
    assert len(find_simplified(ok + "，" + bad)) == 1


@pytest.mark.parametrize("text,term,fix", [
    ("提升軟件質量", "軟件", "軟體"),
    ("公司財務杠杆過高", "杠杆", "槓桿"),
    ("財務槓杆", "槓杆", "槓桿"),
    ("本期的市盈率為 15 倍", "市盈率", "本益比"),
    ("融資活動之現金流量", "融資活動", "籌資活動"),
    ("員工期權計畫", "期權", "選擇權"),
    ("賬戶餘額", "賬戶", "帳戶"),
    ("品牌營銷費用", "營銷", "行銷"),
    ("通過互聯網銷售", "互聯網", "網際網路"),
    ("少數股東權益", "少數股東權益", "非控制權益"),
    ("營業收入同比增長 5%", "同比", "年增（較去年同期）"),
    ("購買理財產品", "理財產品", "理財商品"),
    ("每股收益 3 元", "每股收益", "每股盈餘"),
    ("資產減值損失", "減值", "減損"),
    ("這個說法", "", ""),  # control: clean text
])
def test_prc_terms(text, term, fix):
    findings = find_prc_terms(text)
    if not term:
        assert findings == []
        return
    assert len(findings) >= 1
    assert findings[0].rule == "prc_term"
    assert findings[0].message == f"中國用語「{term}」→ 臺灣用「{fix}」"
    assert text in findings[0].text or findings[0].text in text


def test_longest_term_wins_and_no_double_report():
    findings = find_prc_terms("其中歸母淨利潤為 10 億")
    assert [f.message for f in findings] == ["中國用語「歸母淨利潤」→ 臺灣用「歸屬於母公司業主之淨利」"]


@pytest.mark.parametrize("text", ["品質量測", "誠信息息相關", "捷運營收", "相同比例", "共同比財務報表",
                                  "平均值", "基金經理人", "出租車輛", "增減值"])
def test_exceptions_are_not_findings(text):
    assert find_prc_terms(text) == []


def test_exception_does_not_hide_a_real_term_elsewhere():
    findings = find_prc_terms("品質量測很好，但質量不穩")
    assert len(findings) == 1 and "質量不穩" in findings[0].text


def test_check_zh_combines_both_rules():
    rules = [f.rule for f in check_zh("这个軟件")]
    assert rules == ["simplified", "prc_term"]
    assert check_zh(TAIWAN_CORPUS) == []


def test_megabytes_of_text_every_hit_found():
    """2 MB in one call: the bulk path finds every planted hit (speed is measured by
    benchmarks/check_zh_speed.py, not asserted here)."""
    text = (TAIWAN_CORPUS + "\n这是简体。\n") * (2_000_000 // (len(TAIWAN_CORPUS) + 7))
    findings = check_zh(text)
    assert len(findings) == text.count("这是简体") * 2  # runs 「这」 and 「简体」


def test_committed_s2tw_table_equals_the_installed_opencc():
    """check-zh reads the committed character table (no OpenCC start-up); it must be exactly what OpenCC's
    s2tw changes today — regenerate with `python -m tw_fin_eval.zhcheck.measure s2tw-table --write`."""
    import json

    from tw_fin_eval.zhcheck import rules

    committed = json.loads(rules.S2TW_TABLE.read_text(encoding="utf-8"))
    assert committed["config"] == "s2tw"
    assert committed["changes"] == rules.opencc_s2tw_changes()
    assert rules._s2tw_changes() == committed["changes"]
    assert {"这": "這", "软": "軟", "后": "後"}.items() <= committed["changes"].items()


def test_missing_table_falls_back_to_opencc(monkeypatch, tmp_path):
    from tw_fin_eval.zhcheck import rules

    monkeypatch.setattr(rules, "S2TW_TABLE", tmp_path / "absent.json")
    rules._s2tw_changes.cache_clear()
    try:
        assert [f.found for f in rules.find_simplified("這是软件")] == ["软"]
        assert rules._s2tw_char("这") == "這" and rules._s2tw_char("這") == "這"
    finally:
        rules._s2tw_changes.cache_clear()
