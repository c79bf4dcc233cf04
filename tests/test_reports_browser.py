"""report.html and compare.html in a real browser: headless Chromium (Debian package `chromium`, installed by
.ci/run when missing) renders each page offline; the screenshot is not blank and shows the charts' bar colour,
and the rendered DOM holds the SVG charts with their bars and whiskers."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from tests.test_reports_compare import finqa_records
from tests.test_reports_score import runs_for, score
from tw_fin_eval.cli import main as cli_main
from tw_fin_eval.reports import html as html_report
from tw_fin_eval.scoring import samples

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (.ci/run installs it with apt)")
WIDTH, HEIGHT = 900, 700


def chromium(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # offline: every host name fails to resolve, so a page that needed the network would show it
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={cwd / 'profile'}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=cwd)


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA, non-interlaced PNG (what Chromium writes) into rows of pixel bytes."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0
            bpp = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def hex_rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def check_page(page: Path, tmp: Path, charts: list[str]) -> None:
    shot = tmp / f"{page.stem}.png"
    proc = chromium(f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}", page.as_uri(), cwd=tmp)
    assert shot.is_file(), proc.stderr[-2000:]
    width, height, rows = png_pixels(shot)
    assert (width, height) == (WIDTH, HEIGHT)
    pixels = [row[i:i + 3] for row in rows for i in range(0, len(row), 3)]
    non_white = sum(1 for p in pixels if p != b"\xff\xff\xff")
    assert non_white / len(pixels) > 0.02, "the screenshot is blank"
    bar = bytes(hex_rgb(html_report.BAR))
    assert sum(1 for p in pixels if p == bar) > 200, "no chart bar was painted"
    dom = chromium("--dump-dom", page.as_uri(), cwd=tmp)
    assert dom.returncode == 0, dom.stderr[-2000:]
    for name in charts:
        m = re.search(rf'<svg[^>]*data-chart="{re.escape(name)}"[^>]*>(.*?)</svg>', dom.stdout, re.S)
        assert m, f"chart {name} missing from the rendered DOM"
        assert 'class="bar"' in m.group(1)
    assert 'class="whisker"' in dom.stdout
    assert not re.search(r'<(script|link|img|iframe)\b', dom.stdout), "the page must not load anything"


def test_report_and_compare_pages_render_in_chromium(tmp_path):
    recs = finqa_records() + [r for r in samples.sample_records() if r["dataset"] in ("ConvFinQA-TW", "FinChain-TW")]
    _, a = score(tmp_path, recs, runs_for(recs, model="model-a"), name="a")
    wrong = {(f"finqa_tw-test-{i + 1:04d}", None): "答案：0" for i in range(0, 40, 3)}
    _, b = score(tmp_path, recs, runs_for(recs, wrong, model="model-b"), name="b")
    check_page(a / "report.html", tmp_path, ["accuracy-by-subset"])
    out = tmp_path / "cmp"
    assert cli_main(["compare", str(a), str(b), "--out", str(out), "--quiet"]) == 0
    check_page(out / "compare.html", tmp_path, ["models-model-a-model-b", "diff-model-a-model-b"])


def test_a_blank_page_fails_the_check(tmp_path):
    page = tmp_path / "blank.html"
    page.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
    with pytest.raises(AssertionError, match="blank"):
        check_page(page, tmp_path, [])
