"""Self-contained HTML pages: `report.html` (one run) and `compare.html` (several runs).

One file each, readable offline: inline CSS, inline SVG charts, no script, font, image or stylesheet from
anywhere else. Labels are zh-TW with the English in parentheses. Every chart is an `<svg class="chart">` with a
`data-chart` name, so a browser test can find them in the DOM.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

CSS = """
body{font-family:"Noto Sans TC","PingFang TC","Microsoft JhengHei",sans-serif;margin:24px auto;max-width:1080px;
color:#1d2733;background:#fff;line-height:1.5;padding:0 16px}
h1{font-size:1.6em;border-bottom:3px solid #1f5f99;padding-bottom:6px}h2{font-size:1.25em;margin-top:1.8em;color:#1f5f99}
table{border-collapse:collapse;margin:8px 0 16px;font-size:.92em}th,td{border:1px solid #c9d3de;padding:4px 8px;text-align:right}
th{background:#eef3f8}td:first-child,th:first-child{text-align:left}.meta{color:#51606f;font-size:.92em}
.chart{display:block;margin:8px 0 20px;background:#fbfcfe;border:1px solid #e1e7ee}.note{color:#51606f;font-size:.88em}
.pos{color:#1a7f37}.neg{color:#b42318}.scroll{overflow-x:auto}
.verdict{font-size:1.15em;font-weight:bold;background:#f3f8ee;border-left:6px solid #3a9a5b;padding:10px 14px}
.headline{font-size:1.25em;font-weight:bold;background:#eef3f8;border-left:6px solid #1f5f99;padding:10px 14px}
table.text td{text-align:left;vertical-align:top}
.banner{background:#fdecea;border:2px solid #b42318;color:#7a1a12;padding:10px 14px;font-weight:bold}
"""

BAR = "#2f74b5"
COLORS = ["#2f74b5", "#e07b24", "#3a9a5b", "#9b59b6", "#c0392b", "#16a085", "#7f8c8d", "#d4ac0d"]


def esc(v: Any) -> str:
    return html.escape("" if v is None else str(v), quote=True)


def pct(v: float | None, digits: int = 1) -> str:
    return "—" if v is None else f"{100 * v:.{digits}f}%"


def signed_pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:+.1f} pt"


def page(title: str, body: Sequence[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"zh-Hant-TW\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], cls: str | None = None) -> str:
    attr = f' class="{esc(cls)}"' if cls else ""
    out = [f'<div class="scroll"><table{attr}><thead><tr>' + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr></thead><tbody>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{c if isinstance(c, Raw) else esc(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


class Raw(str):
    """Already-escaped HTML for a table cell."""


def _whisker(lo: float, hi: float, yc: float) -> str:
    """A 95% interval: a horizontal line from lo to hi with end caps."""
    return (f'<g class="whisker" stroke="#1d2733" stroke-width="1.5"><line x1="{lo:.1f}" y1="{yc:.1f}" '
            f'x2="{hi:.1f}" y2="{yc:.1f}"/><line x1="{lo:.1f}" y1="{yc - 5:.1f}" x2="{lo:.1f}" '
            f'y2="{yc + 5:.1f}"/><line x1="{hi:.1f}" y1="{yc - 5:.1f}" x2="{hi:.1f}" y2="{yc + 5:.1f}"/></g>')


def _svg_open(name: str, title: str, width: int, height: int) -> list[str]:
    return [f'<svg class="chart" data-chart="{esc(name)}" role="img" aria-label="{esc(title)}" '
            f'xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
            f'<text x="10" y="20" font-size="14" font-weight="bold" fill="#1d2733">{esc(title)}</text>']


def _tick(xt: float, top: int, height: int, label: str) -> str:
    return (f'<line x1="{xt:.1f}" y1="{top - 4}" x2="{xt:.1f}" y2="{height - 24}" stroke="#dde3ea"/>'
            f'<text x="{xt:.1f}" y="{height - 8}" font-size="11" text-anchor="middle" fill="#51606f">{label}</text>')


def _row_label(label_width: int, y: float, label: str) -> str:
    return (f'<text x="{label_width - 8}" y="{y + 16}" font-size="12" text-anchor="end" '
            f'fill="#1d2733">{esc(label)}</text>')


def _bar(b: dict[str, Any], x: Any, x0: str, width: str, y: float, row_h: int, color: str, shown: str,
         text_x: float) -> str:
    """One bar (x0 and width already formatted), its 95% whisker when the bar has one, and its value label."""
    out = (f'<rect class="bar" x="{x0}" y="{y + 4}" width="{width}" height="{row_h - 8}" '
           f'fill="{color}"><title>{esc(b["label"])}: {shown}</title></rect>')
    if b.get("lo") is not None and b.get("hi") is not None:
        out += _whisker(x(b["lo"]), x(b["hi"]), y + row_h / 2)
    return out + f'<text x="{text_x:.1f}" y="{y + 16}" font-size="11" fill="#1d2733">{shown}</text>'


def bar_chart(name: str, title: str, bars: Sequence[dict[str, Any]], *, label_width: int = 260) -> str:
    """Horizontal bars on a 0–100% axis with 95% interval whiskers. bars: {label, value, lo, hi, color?}."""
    width, row_h, top, right = 860, 24, 34, 70
    plot_w = width - label_width - right
    height = top + row_h * max(1, len(bars)) + 28
    x = lambda v: label_width + plot_w * min(1.0, max(0.0, v))  # noqa: E731
    parts = _svg_open(name, title, width, height)
    parts += [_tick(x(t / 100), top, height, f"{t}%") for t in range(0, 101, 20)]
    for i, b in enumerate(bars):
        y = top + i * row_h
        v = b.get("value")
        parts.append(_row_label(label_width, y, b["label"]))
        if v is None:
            parts.append(f'<text x="{label_width + 4}" y="{y + 16}" font-size="11" fill="#8a96a3">—</text>')
            continue
        parts.append(_bar(b, x, str(label_width), f"{x(v) - label_width:.1f}", y, row_h, b.get("color", BAR),
                          pct(v), max(x(v), x(b.get("hi") or 0)) + 6))
    parts.append("</svg>")
    return "".join(parts)


def diff_chart(name: str, title: str, bars: Sequence[dict[str, Any]], *, label_width: int = 260) -> str:
    """Differences (points) around a zero line with 95% interval whiskers. bars: {label, value, lo, hi}."""
    width, row_h, top, right = 860, 24, 34, 90
    plot_w = width - label_width - right
    height = top + row_h * max(1, len(bars)) + 28
    span = max([0.05] + [abs(b[k]) for b in bars for k in ("value", "lo", "hi") if b.get(k) is not None])
    x = lambda v: label_width + plot_w * (0.5 + 0.5 * max(-1.0, min(1.0, v / span)))  # noqa: E731
    zero = x(0.0)
    parts = _svg_open(name, title, width, height)
    parts.append(f'<line x1="{zero:.1f}" y1="{top - 4}" x2="{zero:.1f}" y2="{height - 24}" stroke="#51606f"/>')
    parts += [_tick(x(t), top, height, f"{100 * t:+.1f}") for t in (-span, -span / 2, span / 2, span)]
    for i, b in enumerate(bars):
        y = top + i * row_h
        v = b.get("value")
        parts.append(_row_label(label_width, y, b["label"]))
        if v is None:
            continue
        x0, x1 = sorted((zero, x(v)))
        color = "#3a9a5b" if v > 0 else "#c0392b" if v < 0 else "#7f8c8d"
        parts.append(_bar(b, x, f"{x0:.1f}", f"{max(1.0, x1 - x0):.1f}", y, row_h, color, signed_pct(v),
                          max(x(v), x(b.get("hi") or v)) + 6))
    parts.append("</svg>")
    return "".join(parts)


DIM_LABELS = {"category": "類別（category）", "subcategory": "子類別（subcategory）", "difficulty": "難度（difficulty）"}


def _ci(e: dict[str, Any]) -> str:
    ci = e.get("ci95")
    return "—" if not ci else f"{pct(ci[0])} – {pct(ci[1])}"


def render_report(doc: dict[str, Any], rows: Sequence[dict[str, Any]] | None = None, *,
                  errors: dict[str, Any] | None = None, details: str = "details.parquet") -> str:
    subs = doc.get("subsets") or {}
    model = doc.get("model") or "?"
    body = [f"<h1>tw_fin_eval_basic 評測報告（Evaluation report）：{esc(model)}</h1>"]
    gc = doc.get("git_commit") or {}
    body.append('<p class="meta">' + " · ".join([
        f"建立時間（created）：{esc(doc.get('created'))}",
        f"tw_fin_eval {esc((doc.get('versions') or {}).get('tw_fin_eval'))}",
        f"git：{esc(gc.get('commit', '—'))[:12]}{'（有未提交修改 dirty）' if gc.get('dirty') else ''}",
        f"評審模型（judge）：{esc((doc.get('judge') or {}).get('model') or '無（none）')}",
    ]) + "</p>")
    head = doc.get("headline") or {}
    if head.get("text"):
        body.append(f'<p class="headline">主要指標（headline）：{esc(head["text"])}</p>')
    iss = doc.get("issues") or {}
    if iss.get("unmatched_warning"):
        body.append(f'<p class="banner">警告（warning）：執行檔中 {esc(iss.get("unknown_run_keys"))} / '
                    f'{esc(iss.get("run_keys"))} 個鍵（{pct(iss.get("unmatched_share"))}）對不到任何資料記錄'
                    f'（runs lines matching no record, e.g. {esc(", ".join(iss.get("unmatched_examples") or []))}）。'
                    "請確認 --data 是否為產生這些答案的資料（is --data the data these runs were made from?）；"
                    "這些答案未計分（not scored）。</p>")
    nr = doc.get("not_run") or {}
    if nr.get("units"):
        skipped = nr.get("records_subsets") or {}
        body.append(f'<p class="note">部分執行（partial run）：{nr["units"]} 個單位未執行（units not run）'
                    + (f"；未執行的子集（subsets not run）：{esc(', '.join(skipped))}" if skipped else "") + "。</p>")
    body.append("<h2>各子集準確率（Accuracy per subset）</h2>")
    bars = [{"label": name, "value": e.get("accuracy"), "lo": (e.get("ci95") or [None, None])[0],
             "hi": (e.get("ci95") or [None, None])[1]} for name, e in subs.items()]
    macro = doc.get("macro_average") or {}
    if macro.get("accuracy") is not None:
        bars.append({"label": "巨觀平均（macro average）", "value": macro["accuracy"], "lo": macro["ci95"][0],
                     "hi": macro["ci95"][1], "color": "#1f3b57"})
    body.append(bar_chart("accuracy-by-subset", "準確率與 95% 信賴區間（Accuracy with 95% CI）", bars))
    trows = []
    for name, e in subs.items():
        trows.append([name, e.get("n"), f"{e.get('clusters')}（{'/'.join(e.get('cluster_by') or [])}）", pct(e.get("accuracy")),
                      pct(e.get("stderr")), _ci(e), pct(e.get("flexible_accuracy")), pct(e.get("upstream_accuracy")),
                      e.get("unanswerable_excluded"), e.get("truncated"), e.get("refused"), e.get("pending"),
                      e.get("missing"), e.get("error"), e.get("stale")])
    body.append(table(["子集（subset）", "單位數（n）", "群集（clusters）", "準確率（accuracy）", "標準誤（stderr）",
                       "95% 信賴區間（CI）", "寬鬆擷取（flexible）", "原始標準答案（upstream gold）",
                       "排除無法作答（unanswerable excl.）", "截斷（truncated）", "拒答（refused）", "待評（pending）",
                       "缺判（missing）", "生成失敗（error）", "過期提示（stale）"], trows))
    u = doc.get("uncertainty") or {}
    body.append(f'<p class="note">信賴區間（CI）：以固定種子的自助法（seeded bootstrap，{esc(u.get("resamples"))} 次，seed '
                f'{esc(u.get("seed"))}），ConvFinQA 依對話、FinChain 依模板整群重抽（clustered），其他依題目。'
                "；樣本小或準確率為 0%／100% 時改用有效樣本數上的 Wilson 區間（Wilson interval on the effective n）。"
                "分項（breakdowns）：群集穩健標準誤（cluster-robust SE）下有效樣本數的 Wilson 區間，每列標示 n。</p>")
    from tw_fin_eval.scoring.results_doc import sampling_text

    body.append('<p class="note">抽樣（sampling）：' + "<br>".join(esc(sampling_text(name, e.get("sampling")))
                                                       for name, e in subs.items()) + "</p>")
    from tw_fin_eval.twins import gap as twin_gap  # originals vs their twins (issue 31)

    body += twin_gap.html_parts(doc, esc, table)
    for name, e in subs.items():
        for dim, groups in (e.get("breakdowns") or {}).items():
            gbars = [{"label": f"{g['group']}（n={g['n']}）", "value": g["accuracy"],
                      "lo": (g.get("ci95") or [None, None])[0], "hi": (g.get("ci95") or [None, None])[1]}
                     for g in groups]
            body.append(f"<h2>{esc(name)}：依{esc(DIM_LABELS.get(dim, dim))}</h2>")
            body.append(bar_chart(f"{name}-{dim}", f"{name} 準確率（accuracy）依 {DIM_LABELS.get(dim, dim)}", gbars))
            body.append(table(["組別（group）", "單位數（n）", "群集（clusters）", "準確率（accuracy）", "95% 信賴區間（CI）"],
                              [[g["group"], g["n"], g.get("clusters", "—"), pct(g["accuracy"]), _ci(g)]
                               for g in groups]))
    body += error_analysis(errors or {}, details)
    rs = doc.get("runs") or {}
    if rs:
        body.append("<h2>執行統計（Run statistics）</h2>")
        srows = [["請求列數（runs lines）", f"{rs.get('lines')}（成功 ok {rs.get('ok_lines')}，失敗 failed {rs.get('error_lines')}）"],
                 ["提示詞元（prompt tokens）", f"{rs.get('prompt_tokens', 0):,}"],
                 ["生成詞元（completion tokens）", f"{rs.get('completion_tokens', 0):,}"],
                 ["延遲 p50（latency p50）", "—" if rs.get("latency_p50_s") is None else f"{rs['latency_p50_s']:.2f} s"],
                 ["延遲 p95（latency p95）", "—" if rs.get("latency_p95_s") is None else f"{rs['latency_p95_s']:.2f} s"],
                 ["截斷率（truncation rate）", pct(rs["truncated_lines"] / rs["ok_lines"]) if rs.get("ok_lines") else "—"],
                 ["錯誤（errors）", "、".join(f"{k}: {n}" for k, n in (rs.get("errors") or {}).items()) or "0"]]
        pur = doc.get("zh_purity")
        if pur and pur.get("responses"):
            srows.append(["繁體純度（zh-TW purity）", f"{pct(pur['pure_share'])}（{pur['with_findings']} / "
                          f"{pur['responses']} 則回答含簡體字或中國用語 flagged）"])
        gen = doc.get("generation") or {}
        srows.append(["生成設定（generation settings）", "；".join(str(v["settings"]) for v in gen.get("variants") or [])
                      or "未記錄（not recorded）"])
        body.append(table(["項目（item）", "值（value）"], srows))
    return page(f"tw_fin_eval_basic report: {model}", body)


def _clip(text: Any, limit: int = 240) -> str:
    s = "" if text is None else str(text)
    return s if len(s) <= limit else s[:limit] + "…"


def error_analysis(errors: dict[str, Any], details: str) -> list[str]:
    """Per subset: how many units are wrong and why (failure kinds), and worked wrong answers stratified over
    categories and failure kinds — question, gold, the model's answer line, what was read, why it is wrong."""
    out: list[str] = []
    for name, e in errors.items():
        if not e.get("wrong"):
            continue
        kinds = "、".join(f"{k} {n}" for k, n in e["by_kind"].items())
        out.append(f'<h2 id="errors-{esc(name)}">{esc(name)}：錯誤分析（error analysis）</h2>')
        out.append(f'<p class="note">{e["wrong"]} 個答錯的單位（wrong units），依錯誤類型（by failure kind）：{esc(kinds)}。'
                   f'以下為依類別與錯誤類型分層抽出的例子（examples stratified over categories and failure kinds）；'
                   f'逐題完整資料見 <a href="{esc(details)}">{esc(details)}</a>。</p>')
        out.append(table(["錯誤類型（kind）", "類別（category）", "題目（question）", "標準答案（gold）",
                          "模型答案行（answer line）", "擷取值（extracted）", "原因（why wrong）"],
                         [[x.get("failure_kind"), " / ".join(str(v) for v in (x.get("category"), x.get("subcategory"),
                                                                              x.get("difficulty")) if v),
                           _clip(x.get("question")) + ("" if x.get("turn") is None else f"（第 {x['turn'] + 1} 輪 turn）"),
                           _clip(x.get("gold"), 80), _clip(x.get("answer_line"), 160), _clip(x.get("extracted"), 80),
                           _clip(x.get("failure_why"), 200)] for x in e["examples"]], cls="text"))
    return out


def render_compare(cmp: dict[str, Any]) -> str:
    names = [r["model"] or r["label"] for r in cmp["reports"]]
    body = [f"<h1>模型比較（Model comparison）：{esc(' vs '.join(names))}</h1>",
            f'<p class="meta">建立時間（created）：{esc(cmp.get("created"))} · 差異 = A − B（diff = a − b），'
            "配對於兩邊都有評分的單位（paired on units scored in both）</p>"]
    pairs = cmp.get("pairs") or []
    for pair in pairs:  # the decision first: the macro-average difference, its interval and p, in one sentence
        a, b = pair["a"], pair["b"]
        body.append(f"<h2>{esc(a)} vs {esc(b)}</h2>")
        body.append(f'<p class="verdict">結論（verdict）：{esc(pair.get("verdict"))}</p>')
        mac = pair.get("macro_average")
        if mac:
            body.append(table(["巨觀平均（macro average）", f"A：{a}", f"B：{b}", "差異（diff）", "95% 信賴區間（CI）",
                               "p 值（p-value）", "Holm 校正 p（adjusted）"],
                              [[f"{len(mac['subsets'])} 個子集（subsets）：{'、'.join(mac['subsets'])}", pct(mac["a"]),
                                pct(mac["b"]), signed_pct(mac["diff"]),
                                f"{signed_pct(mac['ci95'][0])} – {signed_pct(mac['ci95'][1])}",
                                _p(mac.get("p_value")), _p(mac.get("p_holm"))]]))
    for pair in pairs:
        a, b = pair["a"], pair["b"]
        body.append(f"<h2>各子集（per subset）：{esc(a)} vs {esc(b)}</h2>")
        subs = pair["subsets"]
        bars = []
        for name, s in subs.items():
            bars.append({"label": f"{name} · {a}", "value": s["a"], "lo": None, "hi": None, "color": COLORS[0]})
            bars.append({"label": f"{name} · {b}", "value": s["b"], "lo": None, "hi": None, "color": COLORS[1]})
        body.append(bar_chart(f"models-{a}-{b}", f"配對準確率（paired accuracy）：{a} 與 {b}", bars, label_width=320))
        body.append(diff_chart(f"diff-{a}-{b}", "差異與 95% 信賴區間（difference A − B, points, 95% CI）",
                               [{"label": name, "value": s["diff"], "lo": (s.get("ci95") or [None, None])[0],
                                 "hi": (s.get("ci95") or [None, None])[1]} for name, s in subs.items()],
                               label_width=320))
        trows = []
        for name, s in subs.items():
            cls = "pos" if (s.get("ci95") or [0, 0])[0] > 0 else "neg" if (s.get("ci95") or [0, 0])[1] < 0 else ""
            trows.append([name, s["n_paired"], pct(s["a"]), pct(s["b"]),
                          Raw(f'<span class="{cls}">{esc(signed_pct(s["diff"]))}</span>'),
                          "—" if not s.get("ci95") else f"{signed_pct(s['ci95'][0])} – {signed_pct(s['ci95'][1])}",
                          f"{s['only_a']} / {s['only_b']}", _p(s.get("p_value")), _p(s.get("p_holm"))])
        body.append(table(["子集（subset）", "配對單位（n paired）", f"A：{a}", f"B：{b}", "差異（diff）",
                           "95% 信賴區間（CI）", "僅 A 對 / 僅 B 對（discordant）", "McNemar p 值（p-value）",
                           "Holm 校正 p（adjusted）"], trows))
    ranking = cmp.get("ranking")
    if ranking:
        body.append("<h2>排名（Ranking）</h2>")
        for name, rows in ranking.items():
            body.append(bar_chart(f"ranking-{name}", f"{name} 準確率排名（accuracy ranking, 95% CI）",
                                  [{"label": r["model"], "value": r["accuracy"], "lo": (r.get("ci95") or [None, None])[0],
                                    "hi": (r.get("ci95") or [None, None])[1], "color": COLORS[i % len(COLORS)]}
                                   for i, r in enumerate(rows)]))
            body.append(table(["名次（rank）", "模型（model）", "準確率（accuracy）", "95% 信賴區間（CI）", "單位數（n）"],
                              [[i + 1, r["model"], pct(r["accuracy"]), _ci(r), r["n"]] for i, r in enumerate(rows)]))
    body.append("<h2>生成設定（Generation settings）</h2>")
    reports = cmp.get("reports") or []
    keys = sorted({k for r in reports for k in (r.get("generation") or {})})
    body.append(table(["設定（setting）", *[r["label"] for r in reports]],
                      [[k, *["—" if (r.get("generation") or {}).get(k) is None else _setting((r.get("generation") or {})[k])
                             for r in reports]] for k in keys]
                      or [["未記錄（not recorded）", *["—" for _ in reports]]]))
    for w in cmp.get("warnings") or []:
        body.append(f'<p class="note">注意（warning）：{esc(w)}</p>')
    m = cmp.get("method") or {}
    body.append('<p class="note">p 值：McNemar 精確檢定（exact test）於不一致的配對單位；巨觀平均的 p 值為常態近似'
                f"（normal approximation）。多重比較（multiple comparisons）：{esc(m.get('multiple_comparisons'))}。"
                "信賴區間：配對整群自助法（paired clustered bootstrap：ConvFinQA 依對話、FinChain 依模板）。</p>")
    return page("tw_fin_eval_basic comparison", body)


def _p(v: float | None) -> str:
    return "—" if v is None else f"{v:.4g}"


def _setting(v: Any) -> str:
    """A generation setting as text: JSON for objects (--extra), the value itself otherwise."""
    if isinstance(v, (dict, list)):
        import json

        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return str(v)
