"""The synthetic FinLLM 450 workbook the FinLLM450 tests convert (the real one is private), and the tests of
how it is read: sheet choice, the header found by name through a title row, a two-level merged header,
shuffled columns, full-width headers, a 能力 cell merged down two rows, numeric cells, blank trailing rows.

Every quirk of the spec's 「FinLLM450 的轉檔處理」 is in ROWS: duplicated 題號 (one pair with different
content, one pair with the same), letter answers on (1)–(4) options (one agreeing with the APMIC reply, one
not), a number answer on (A)–(D) options, a multi-answer item, Simplified characters and PRC terms (「杠杆」)
in APMIC replies and CoT, the two remapped abilities, bank review comments with and without 須修正, blank
評分重點, an unreadable APMIC conclusion, a blank APMIC reply, Excel's _x000D_.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

openpyxl = pytest.importorskip("openpyxl")

from tw_fin_eval.errors import InputError  # noqa: E402
from tw_fin_eval.sources import finllm450 as conv  # noqa: E402

SHEET = "FinLLM450 題庫"
# (group header or None, sub header); a None group means the sub header cell is merged down over both rows
LAYOUT: list[tuple[str | None, str, str]] = [
    # (group, header text in the sheet, canonical key of ROWS)
    (None, "序號", "序號"),
    (None, " 題號 ", "題號"),
    (None, "題型（選擇題／短答題／案例題）", "題型"),
    (None, "能力類別", "能力"),
    (None, "科目／子類別", "科目"),
    (None, "題目", "題目"),
    ("APMIC", "最終回覆", "APMIC 最終回覆"),
    ("APMIC", "訓練思維鏈（CoT）", "訓練思維鏈"),
    (None, "正確答案", "正確答案"),
    (None, "評分重點：", "評分重點"),
    ("銀行團審題", "審題意見", "銀行團審題意見"),
    ("銀行團審題", "是否須修正", "是否須修正"),
    (None, "備註", "備註"),
]
TITLE = "FinLLM 450 評測訓練題（銀行團審題後版本）"
FIRST_DATA_ROW = 4  # row 1 title, rows 2–3 the two-level header

Q_TAX = (
    "王先生 45 歲，年收入 120 萬元，目前已累積退休準備 300 萬元，預計 65 歲退休，退休後每年生活費 60 萬元，"
    "預估活到 85 歲。假設投資報酬率與通膨率相抵，請評估其退休金缺口並提出兩項建議。"
)
ROWS: list[dict[str, Any]] = [
    {"序號": 1, "題號": "W-001", "題型": "選擇題", "能力": "財富規劃與退休理財能力", "科目": "退休規劃",
     "題目": "依勞工退休金條例，雇主每月為勞工提繳退休金的比率，不得低於勞工每月工資的多少？(A)2% (B)4% (C)6% (D)8%",
     "APMIC 最終回覆": "依勞工退休金條例第 14 條，雇主應為勞工按月提繳不低於每月工資 6% 的退休金。\n答案：(C)",
     "訓練思維鏈": "題目問雇主提繳率的下限。勞退新制規定雇主提繳率不得低於 6%，故選 C。",
     "正確答案": "C"},
    {"序號": 2, "題號": "W-002", "題型": "選擇題", "能力": "財富規劃與退休理財能力", "科目": "信託實務",
     "題目": "下列何者不是安養信託常見的信託財產？(A)現金 (B)不動產 (C)有價證券 (D)被保險人的身分",
     "APMIC 最終回覆": "安養信託的信託財產須為可移轉的財產權，被保險人的身分不是財產權，故選 (D)。",
     "訓練思維鏈": "信託財產必須是財產權。現金、不動產、有價證券都可以交付信託；身分不行。",
     "正確答案": "D"},
    {"序號": 3, "題號": "C-010", "題型": "選擇題", "能力": "授信與財務分析能力", "科目": "財務報表分析",
     "題目": "某公司流動資產 1,200 萬元、流動負債 800 萬元、存貨 300 萬元，其速動比率約為多少？"
             "（A）0.89 （B）1.13 （C）1.50 （D）2.25",
     "APMIC 最終回覆": "速動比率 =（流動資產－存貨）÷ 流動負債 = 900 ÷ 800 = 1.125，約 1.13。\n答案：B",
     "訓練思維鏈": "先算速動資產 1,200－300＝900 萬元，再除以流動負債 800 萬元，得 1.125。",
     "正確答案": "Ｂ"},
    {"序號": 4, "題號": "C-011", "題型": "短答題", "能力": None, "科目": "授信實務",  # 能力 merged from the row above
     "題目": "銀行辦理中小企業授信時，「5P 原則」指的是哪五項？",
     "APMIC 最終回覆": "5P 原則為借款戶（People）、資金用途（Purpose）、還款來源（Payment）、債權保障（Protection）"
                     "及授信展望（Perspective）。",
     "訓練思維鏈": "5P 是授信審核的基本架構，依序列出五項並說明各自的意義。",
     "正確答案": "借款戶、資金用途、還款來源、債權保障、授信展望。",
     "評分重點": "五項全對得滿分；每缺一項扣 2 分"},
    {"序號": 5, "題號": "L-005", "題型": "選擇題", "能力": "法規判讀與合規能力", "科目": "洗錢防制",
     "題目": "依洗錢防制法，金融機構對達一定金額以上之通貨交易，應向下列何機關申報？"
             "(A)金融監督管理委員會 (B)法務部調查局 (C)中央銀行 (D)財政部",
     "APMIC 最終回覆": "大額通貨交易應向法務部調查局申報。\n答案：B",
     "訓練思維鏈": "大額通貨交易申報的受理機關是法務部調查局洗錢防制處。",
     "正確答案": "B"},
    {"序號": 6, "題號": "L-005", "題型": "短答題", "能力": "法規判讀與合規能力", "科目": "洗錢防制",
     "題目": "銀行發現疑似洗錢交易時，應於多久內向哪個機關申報？",
     "APMIC 最終回覆": "應於發現之日起 2 個營業日內，向法務部調查局申報。",
     "訓練思維鏈": "依金融機構防制洗錢辦法，疑似洗錢交易的申報期限以發現之日起算。",
     "正確答案": "應於發現之日起 2 個營業日內向法務部調查局申報。"},
    {"序號": 7.0, "題號": 101, "題型": "選擇題", "能力": "金融知識查詢能力", "科目": "外匯業務",
     "題目": "新臺幣兌美元匯率由 31.5 升值至 30.0，下列敘述何者正確？\n(A)進口商成本上升\n"
             "(B)出口商以新臺幣計價之收入減少\n(C)持有美元存款者以新臺幣計算之價值增加\n(D)赴美旅遊成本增加",
     "APMIC 最終回覆": "新臺幣升值時，出口商收到的美元換回的新臺幣變少，所以本題選 B。",
     "訓練思維鏈": "升值代表一美元換到的新臺幣變少，逐項檢查四個選項。",
     "正確答案": "B"},
    {"序號": " 8 ", "題號": "L-020", "題型": "選擇題", "能力": "法規判讀與合規能力", "科目": "個人資料保護",
     "題目": "依個人資料保護法，下列哪些屬於特種個人資料？（複選）(A)病歷 (B)電子郵件地址 (C)犯罪前科 (D)職業",
     "APMIC 最終回覆": "特種個資包括病歷、醫療、基因、性生活、健康檢查及犯罪前科。\n答案：A、C",
     "訓練思維鏈": "個資法第 6 條列舉特種個資，逐項比對。",
     "正確答案": "A、C"},
    {"序號": 9, "題號": "W-002", "題型": "案例題", "能力": "財富規劃與退休理財能力", "科目": "退休規劃",
     "題目": Q_TAX,
     "APMIC 最終回覆": "退休後 20 年共需 1,200 萬元，扣除已有的 300 萬元，缺口約 900 萬元。建議每年增加提撥 45 萬元，"
                     "並可考慮定期定額投資，但不宜使用杠杆投資以免风险過高。",
     "訓練思維鏈": "先算退休後總需求，再扣除已累積金額，最後平均分攤到退休前 20 年。",
     "正確答案": "退休金缺口約 900 萬元（60 萬 × 20 年 − 300 萬）；建議每年增加提撥約 45 萬元，並以穩健的資產配置累積退休準備。",
     "銀行團審題意見": "原題未說明退休後年數，已補上「預估活到 85 歲」", "是否須修正": "V"},
    {"序號": 10, "題號": "C-030", "題型": "案例題", "能力": "授信與財務分析能力", "科目": "授信實務",
     "題目": "甲公司申請新臺幣 5,000 萬元中期營運週轉金，近三年營收持續衰退，負債比率由 55% 升至 72%。"
             "請以授信 5P 原則分析此案，並說明是否建議核貸。",
     "APMIC 最終回覆": "甲公司營收衰退且負債比率偏高，還款來源不穩定，建議暫緩核貸或要求增提擔保品。",
     "訓練思維鏈": "依 5P 原則逐項檢視：该公司的负债比率偏高，還款來源不足。",
     "正確答案": "營收衰退、負債比率 72% 偏高，還款來源（Payment）與授信展望（Perspective）不佳，不建議以信用方式核貸；"
                 "如要承作，應要求足額擔保並縮短期限。",
     "銀行團審題意見": "題意清楚", "是否須修正": "否"},
    {"序號": 11, "題號": "L-031", "題型": "選擇題", "能力": "銀行契約、擔保與支付法務能力", "科目": "票據法",
     "題目": "支票發票人於付款人處無存款又未經允許墊借而簽發支票，下列何者正確？"
             "(1)僅有刑事責任 (2)執票人仍得向發票人行使追索權 (3)支票當然無效 (4)付款人應負付款責任",
     "APMIC 最終回覆": "支票退票後，執票人仍可向發票人追索。\n答案：(2)",
     "訓練思維鏈": "空頭支票仍是有效票據，執票人可行使追索權。",
     "正確答案": "B"},
    {"序號": 12, "題號": "L-032", "題型": "選擇題", "能力": "銀行契約、擔保與支付法務能力", "科目": "擔保物權",
     "題目": "抵押權人於債權已屆清償期而未受清償時，得如何實行抵押權？"
             "(1)自行占有抵押物 (2)聲請法院拍賣抵押物 (3)逕行將抵押物移轉為自己所有 (4)要求第三人代償",
     "APMIC 最終回覆": "依民法第 873 條，抵押權人得聲請法院拍賣抵押物。\n答案：(2)",
     "訓練思維鏈": "實行抵押權的方法是聲請法院拍賣。",
     "正確答案": "C"},
    {"序號": 13, "題號": "T-001", "題型": "選擇題", "能力": "國際貿易與金融", "科目": "國際貿易融資",
     "題目": "信用狀交易中，銀行審單的依據是下列何者？(A)買賣契約 (B)信用狀條款與單據表面 (C)貨物實際品質 (D)賣方的商業信譽",
     "APMIC 最終回覆": "信用狀具獨立性與文義性，銀行僅依信用狀條款審查單據表面是否相符。",
     "訓練思維鏈": "信用狀交易處理的是單據，不是貨物。",
     "正確答案": "B"},
    {"序號": 14, "題號": "K-001", "題型": "短答題", "能力": "金融知識查詢能力", "科目": "存款業務",
     "題目": "存款保險的最高保額目前為新臺幣多少元？",
     "APMIC 最終回覆": None,
     "訓練思維鏈": "可查詢中央存款保險公司公布的信息。",
     "正確答案": "每一存款人在同一家要保機構的最高保額為新臺幣 300 萬元。",
     "是否須修正": "是"},
    {"序號": 15, "題號": "K-002", "題型": "案例題", "能力": "金融知識查詢能力", "科目": "衍生性金融商品",
     "題目": "某出口商預計三個月後收到 100 萬美元貨款，擔心新臺幣升值。_x000D_\n請說明可使用哪些避險工具，並比較其優缺點。",
     "APMIC 最終回覆": "可承作預售遠期外匯鎖定匯率，或買入美元賣權保留匯率上漲的利益。\n答案：遠期外匯或買入賣權。",
     "訓練思維鏈": "出口商的風險是美元貶值，應鎖定未來賣出美元的價格。",
     "正確答案": "可預售遠期外匯（鎖定匯率、無權利金但放棄有利變動）或買入美元賣權（付權利金、保留有利變動）。",
     "銀行團審題意見": "情境數字已更新為 100 萬美元", "是否須修正": True},
    {"序號": 16, "題號": "W-001", "題型": "選擇題", "能力": "財富規劃與退休理財能力", "科目": "投資規劃",
     "題目": "下列何者是定期定額投資的主要優點？(A)平均投資成本 (B)保證獲利 (C)免手續費 (D)免稅",
     "APMIC 最終回覆": "定期定額可在價格高低時分批買進，平均投資成本。\n答案：A",
     "訓練思維鏈": "定期定額的核心概念是平均成本法。",
     "正確答案": "A"},
    {"序號": 17, "題號": "C-011", "題型": "短答題", "能力": "授信與財務分析能力", "科目": "授信實務",
     "題目": "銀行辦理中小企業授信時，「5P 原則」指的是哪五項？",
     "APMIC 最終回覆": "借款戶、資金用途、還款來源、債權保障及授信展望。",
     "訓練思維鏈": "列出 5P。",
     "正確答案": "借款戶、資金用途、還款來源、債權保障、授信展望。"},
    {"序號": 18, "題號": "C-040", "題型": "選擇題", "能力": "授信與財務分析能力", "科目": "財務報表分析",
     "題目": "下列何者屬於衡量財務槓桿的比率？(A)流動比率 (B)存貨週轉率 (C)負債比率 (D)毛利率",
     "APMIC 最終回覆": "負債比率衡量企業以負債籌資的程度。\n答案：(C)",
     "訓練思維鏈": "財務槓桿看負債占資產的比重。",
     "正確答案": 3},
]
MERGED_DATA = [("能力", 3, 4)]  # the 能力 cell of 序號 3 merged down over 序號 4
TRAILING = [{"題目": "   "}, {}, {"備註": "以下空白"}]  # whitespace-only, empty, a note outside our columns


def rows() -> list[dict[str, Any]]:
    return copy.deepcopy(ROWS)


def write_workbook(path: Path, data: list[dict[str, Any]] | None = None, *, layout=None, sheet: str = SHEET,
                   merged_data: list[tuple[str, int, int]] | None = None, trailing=None) -> Path:
    """Write the synthetic workbook: a notes sheet, the question sheet (title row, two-level merged header,
    shuffled columns), a statistics sheet."""
    layout = LAYOUT if layout is None else layout
    data = ROWS if data is None else data
    merged_data = MERGED_DATA if merged_data is None else merged_data
    trailing = TRAILING if trailing is None else trailing
    wb = openpyxl.Workbook()
    notes = wb.active
    notes.title = "說明"
    notes["A1"] = "本檔為 APMIC 與銀行團共同出題之 FinLLM 450 評測訓練題。"
    notes["A2"] = "題型：選擇題、短答題、案例題。"
    ws = wb.create_sheet(sheet)
    ncol = len(layout)
    ws.cell(1, 1, TITLE)
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=ncol)
    c = 1
    while c <= ncol:
        group, header, _ = layout[c - 1]
        if group is None:
            ws.cell(2, c, header)
            ws.merge_cells(start_row=2, start_column=c, end_row=3, end_column=c)
            c += 1
            continue
        span = 1
        while c + span <= ncol and layout[c + span - 1][0] == group:
            span += 1
        ws.cell(2, c, group)
        if span > 1:
            ws.merge_cells(start_row=2, start_column=c, end_row=2, end_column=c + span - 1)
        for k in range(span):
            ws.cell(3, c + k, layout[c + k - 1][1])
        c += span
    keys = [key for _, _, key in layout]
    for i, row in enumerate(list(data) + list(trailing)):
        for j, key in enumerate(keys):
            value = row.get(key)
            if value is not None:
                ws.cell(FIRST_DATA_ROW + i, j + 1, value)
    serial_rows = {str(r.get("序號")).strip().removesuffix(".0"): FIRST_DATA_ROW + i for i, r in enumerate(data)}
    for key, first, last in merged_data:
        col = keys.index(key) + 1
        ws.merge_cells(start_row=serial_rows[str(first)], start_column=col, end_row=serial_rows[str(last)],
                       end_column=col)
    stats = wb.create_sheet("統計")
    stats.append(["能力", "題數"])
    stats.append(["財富規劃與退休理財", 4])
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


@pytest.fixture
def workbook(tmp_path: Path) -> Path:
    return write_workbook(tmp_path / "FinLLM 450 評測訓練題.xlsx")


def test_sheet_found_by_its_headers_and_rows_read(workbook):
    sheet = conv.read_sheet(workbook)
    assert sheet.title == SHEET and sheet.header_row == 3
    assert [r.excel_row for r in sheet.rows] == list(range(FIRST_DATA_ROW, FIRST_DATA_ROW + len(ROWS)))
    assert set(sheet.columns) == set(conv.HEADERS) - {"選項"}  # every header in the sheet found, 備註 ignored
    assert sheet.columns["APMIC 最終回覆"] == 6 and sheet.columns["正確答案"] == 8  # shuffled order
    row4 = sheet.rows[3].cells
    assert row4["能力"] == "授信與財務分析能力"  # the merged cell reaches the row below


def test_sheet_chosen_by_name_tolerates_spacing(workbook):
    assert conv.read_sheet(workbook, " FinLLM450　題庫 ").title == SHEET


def test_missing_sheet_lists_the_sheets(workbook):
    with pytest.raises(InputError) as exc:
        conv.read_sheet(workbook, "題庫")
    msg = str(exc.value)
    assert "no sheet named '題庫'" in msg and "'說明'" in msg and f"'{SHEET}'" in msg and "'統計'" in msg


def test_no_sheet_with_headers_lists_sheets(tmp_path):
    layout = [x for x in LAYOUT if x[2] != "正確答案"]
    path = write_workbook(tmp_path / "b.xlsx", layout=layout)
    with pytest.raises(InputError) as exc:
        conv.read_sheet(path)
    assert "no sheet has the expected header row" in str(exc.value) and "'說明'" in str(exc.value)


def test_missing_headers_named(tmp_path):
    layout = [x for x in LAYOUT if x[2] not in {"正確答案", "是否須修正"}]
    path = write_workbook(tmp_path / "b.xlsx", layout=layout)
    with pytest.raises(InputError) as exc:
        conv.read_sheet(path, SHEET)
    msg = str(exc.value)
    assert "missing headers 正確答案、是否須修正" in msg and f"sheet '{SHEET}'" in msg and "b.xlsx" in msg


def test_header_named_twice_is_an_error(tmp_path):
    layout = LAYOUT + [(None, "標準答案", "正確答案")]
    path = write_workbook(tmp_path / "b.xlsx", layout=layout)
    with pytest.raises(InputError, match="header named more than once: 正確答案 in 2 columns"):
        conv.read_sheet(path, SHEET)


def test_single_row_header_without_title_and_only_sheet(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "工作表1"
    headers = ["正確答案", "序號", "題號", "能力", "科目", "題型", "題目", "APMIC回覆", "思維鏈", "審題意見", "須修正"]
    ws.append(headers)
    ws.append(["A", 1, "X-1", "金融知識查詢", "存款業務", "單選題", "何者正確？(A)甲 (B)乙", "答案：A", "想法", None, None])
    wb.save(tmp_path / "one.xlsx")
    sheet = conv.read_sheet(tmp_path / "one.xlsx")
    result = conv.convert(sheet)
    assert sheet.header_row == 1 and [r["answer"] for r in result.records] == [["A"]]
    assert result.records[0]["options"] == ["A", "B"]
