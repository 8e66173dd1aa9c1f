"""The match view and the lessons' website, drawn by a real headless browser (Debian's chromium).

Each test writes a page, has chromium draw it (a screenshot, or the DOM after
loading with ``--dump-dom``) with every host name unresolvable, so the page
cannot load anything from the internet, and then looks at the picture: the
colours of the three marks are in it, and absent from a page without marks.
Every call of chromium has a time limit; nothing here measures time.

chromium is required, never skipped: ``bash tools/install_browser.sh`` installs
it (the README's test command and .ci/run call it first). ``CHROMIUM`` may
name another Chromium or Chrome binary. These tests check the instructor's
copy (stored outputs, the ``### BEGIN SOLUTION`` markers the site folds), so
the student edition leaves them out.
"""

import doctest
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import nbformat
import numpy as np
import pytest

from bleu_classroom.markers import CODE_STUB, strip_solutions
from bleu_scratch import explain
from bleu_scratch.notebook.match_view import CLIPPED, COLOURS, MATCHED, UNMATCHED

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402 (tools/ is no package)

TIME_LIMIT = 120  # seconds for one chromium run; a loaded machine is slow, not wrong
WIDTH = 1100


@pytest.fixture(scope="module")
def chromium() -> str:
    browser = os.environ.get("CHROMIUM", "chromium")
    path = shutil.which(browser)
    if path is None:
        pytest.fail(
            f"the browser tests need Debian's chromium and {browser!r} is not on the PATH: run "
            "`bash tools/install_browser.sh` (as root it installs it with apt-get; otherwise it says what to run)",
            pytrace=False,
        )
    return path


def run_chromium(chromium: str, tmp_path: Path, page: Path, *action: str) -> subprocess.CompletedProcess:
    command = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        *action,
        page.as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIME_LIMIT)
    assert result.returncode == 0, f"chromium failed ({result.returncode}):\n{result.stderr[-2000:]}"
    return result


def screenshot(chromium: str, tmp_path: Path, page: Path, height: int = 1400) -> np.ndarray:
    """The page as chromium draws it: an array of 8-bit RGB pixels."""
    png = tmp_path / f"{page.stem}.png"
    run_chromium(chromium, tmp_path, page, f"--window-size={WIDTH},{height}", f"--screenshot={png}")
    pixels = matplotlib.image.imread(png)
    return np.rint(pixels[:, :, :3] * 255).astype(int)


def dom(chromium: str, tmp_path: Path, page: Path) -> str:
    return run_chromium(chromium, tmp_path, page, "--dump-dom").stdout


def pixels_of(picture: np.ndarray, colour: str, tolerance: int = 2) -> int:
    """How many pixels have ``colour`` (#rrggbb), give or take ``tolerance`` per channel."""
    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(picture - rgb) <= tolerance).all(axis=2).sum())


def page_with(body: str, path: Path, style: str = "") -> Path:
    path.write_text(
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{path.stem}</title></head>'
        f'<body style="font-family:sans-serif;{style}">{body}</body></html>',
        encoding="utf-8",
    )
    return path


REFERENCES = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
HYPOTHESIS = "the the cat the cat sat on the mat".split()


def test_the_match_view_shows_its_three_marks_on_a_light_and_a_dark_page(chromium, tmp_path):
    view = explain(REFERENCES, HYPOTHESIS, max_n=2)
    assert {mark.status for order in view.orders for mark in order.marks} == {MATCHED, CLIPPED, UNMATCHED}
    # The view twice, on a light page and on a dark one, each 700 pixels high.
    halves = "".join(
        f'<div style="height:700px;overflow:hidden;{style}">{view._repr_html_()}</div>'
        for style in ("background:#ffffff;color:#000000", "background:#111111;color:#dddddd")
    )
    picture = screenshot(chromium, tmp_path, page_with(halves, tmp_path / "views.html", "margin:0"))
    light, dark = picture[:700], picture[700:1400]
    # The control: the same words printed, without the marks' HTML.
    control = screenshot(chromium, tmp_path, page_with(f"<pre>{view}</pre>", tmp_path / "control.html"))
    for status in (MATCHED, CLIPPED, UNMATCHED):
        background, _, border = COLOURS[status]
        for picture in (light, dark):
            assert pixels_of(picture, background) >= 200, f"no {status} fill ({background}) in the picture"
            assert pixels_of(picture, border) >= 20, f"no {status} border ({border}) in the picture"
        assert pixels_of(control, background) == 0
    # The dark page stays dark around the marks: the view brings no background of its own.
    assert pixels_of(dark, "#111111") > dark.shape[0] * dark.shape[1] // 2


def match_view_notebook(path: Path) -> Path:
    """A notebook whose stored output is the match view, as a lesson that shows it stores it."""
    view = explain(REFERENCES, HYPOTHESIS, max_n=2)
    output = nbformat.v4.new_output("display_data", data={"text/html": view._repr_html_(), "text/plain": str(view)})
    exercise = "limit = 1\n### BEGIN SOLUTION\nlimit = 2\n### END SOLUTION\nprint(limit)"
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# 99 The match view\n\nWhat matches, what is clipped, what is not: $p_n$."),
            nbformat.v4.new_code_cell("explain(references, hypothesis, max_n=2)", outputs=[output], execution_count=1),
            nbformat.v4.new_code_cell(
                exercise, outputs=[nbformat.v4.new_output("stream", text="2\n")], execution_count=2
            ),
            nbformat.v4.new_code_cell('assert limit == 2\nprint("Correct!")', execution_count=3),
            nbformat.v4.new_markdown_cell("[Back: 02 Clipping](02_clipping.ipynb)"),
        ]
    )
    nbformat.write(notebook, path)
    return path


GUIDE = """# A guide

Read [02 Clipping](../notebooks/02_clipping.ipynb) first; [the README](../README.md) says more.
"""


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> tuple[list[Path], list[Path]]:
    """Two lessons, a notebook showing the match view, and a guide."""
    notebooks = [ROOT / "notebooks" / "02_clipping.ipynb", ROOT / "notebooks" / "03_modified_precision.ipynb"]
    notebooks.append(match_view_notebook(tmp_path_factory.mktemp("notebooks") / "99_match_view.ipynb"))
    guide = tmp_path_factory.mktemp("docs") / "guide.md"
    guide.write_text(GUIDE, encoding="utf-8")
    return notebooks, [guide]


@pytest.fixture(scope="module")
def site(tmp_path_factory, sources) -> Path:
    """The sources built as the site."""
    out = tmp_path_factory.mktemp("site")
    build_site.build_site(out, *sources)
    return out


def test_the_site_is_the_same_at_every_build(site, sources, tmp_path):
    build_site.build_site(tmp_path, *sources)
    for page in site.glob("*.html"):
        assert (tmp_path / page.name).read_bytes() == page.read_bytes(), (
            f"{page.name} changed from one build to the next"
        )


def test_a_link_to_a_missing_heading_or_file_is_broken(tmp_path):
    (tmp_path / "a.html").write_text(
        '<h1 id="here">A</h1><a href="#here">1</a> <a href="b.html#there">2</a> <a href="b.html#nowhere">3</a> '
        '<a href="#gone">4</a> <a href="c.html">5</a>',
        encoding="utf-8",
    )
    (tmp_path / "b.html").write_text('<h2 id="there">B</h2>', encoding="utf-8")
    assert build_site.broken_links(tmp_path) == ["a.html -> b.html#nowhere", "a.html -> #gone", "a.html -> c.html"]


def test_an_output_folder_that_is_a_file_is_one_line(tmp_path, capsys):
    taken = tmp_path / "site"
    taken.write_text("not a folder", encoding="utf-8")
    assert build_site.main([str(taken)]) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err.startswith("build_site: ") and said.err.count("\n") == 1, said.err


def test_the_site_builders_examples_hold():
    # tools/ is outside the doctest collection (the packages'); its examples run here.
    assert doctest.testmod(build_site).failed == 0


def test_the_site_links_lesson_to_lesson_and_loads_nothing_from_outside(site):
    assert sorted(path.name for path in site.iterdir()) == [
        "02_clipping.html",
        "03_modified_precision.html",
        "99_match_view.html",
        "guide.html",
        "index.html",
    ]
    clipping = (site / "02_clipping.html").read_text(encoding="utf-8")
    assert '<a href="03_modified_precision.html">Next: 03 Modified precision</a>' in clipping
    # Only links to lessons left out of this two-lesson build lead nowhere.
    built = {path.stem for path in site.glob("*.html")}
    for broken in build_site.broken_links(site):
        target = broken.split(" -> ")[1]
        assert target.endswith(".ipynb") and (ROOT / "notebooks" / target).exists() and Path(target).stem not in built
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<link" not in text, page.name
        assert not re.findall(r'src="(?!data:)', text), page.name
        assert "$$" not in text and "cdnjs" not in text and "unpkg" not in text


def test_the_site_folds_each_solution_with_its_check(site):
    page = (site / "99_match_view.html").read_text(encoding="utf-8")
    folded = re.search(
        r'<details class="site-solution"><summary>Show the solution</summary>(.*?)</details>', page, re.S
    )
    assert folded, "the solution is folded"
    before, inside = (html.unescape(re.sub(r"<[^>]+>", "", text)) for text in (page[: folded.start()], folded.group(1)))
    assert "raise NotImplementedError()" in before and "limit = 2" not in before
    assert "limit = 2" in inside and 'print("Correct!")' in inside
    clipping = (site / "02_clipping.html").read_text(encoding="utf-8")
    # Lesson 02 has two exercises, and prints two lesson functions, each with its solution folded.
    assert clipping.count('<details class="site-solution">') == 2 + 2


# In the page as chromium lays it out: which of the solution's lines can be seen, before and after the reader
# opens every "Show the solution". Each line is looked for in the page's text nodes; a node inside a closed
# <details> element is not rendered, so checkVisibility() is false for it.
VISIBILITY = """<script>
const lines = %s;
function seen() {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = {shown: [], hidden: []};
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("script")) continue;  // this script's own list of lines
    for (const line of lines) {
      if (node.textContent.includes(line)) {
        found[node.parentElement.checkVisibility() ? "shown" : "hidden"].push(line);
      }
    }
  }
  return found;
}
const closed = seen();
document.querySelectorAll("details.site-solution").forEach(fold => { fold.open = true; });
document.body.dataset.visibility = JSON.stringify({closed: closed, opened: seen()});
</script>"""


def test_a_printed_lesson_function_shows_no_solution_until_its_fold_is_opened(chromium, site, tmp_path):
    # Lesson 02 prints max_reference_counts and clipped_counts, whose solutions are these lines.
    module = (ROOT / "bleu_scratch" / "lesson02_clipping.py").read_text(encoding="utf-8")
    _, regions = strip_solutions(module, CODE_STUB)
    lines = sorted({line.strip() for region in regions for line in region.lines if len(line.strip()) >= 20})
    assert len(lines) >= 3
    page = (site / "02_clipping.html").read_text(encoding="utf-8")
    probe = site / "02_clipping_probe.html"
    probe.write_text(page.replace("</body>", VISIBILITY % json.dumps(lines) + "</body>"), encoding="utf-8")
    try:
        document = dom(chromium, tmp_path, probe)
    finally:
        probe.unlink()
    found = json.loads(html.unescape(re.search(r'data-visibility="([^"]*)"', document).group(1)))
    assert found["closed"]["shown"] == [], "a solution line shows before its fold is opened"
    assert set(found["closed"]["hidden"]) == set(lines), "each solution line is in the page, folded"
    assert set(found["opened"]["shown"]) == set(lines) and found["opened"]["hidden"] == []
    # The stub shows where the solution was, as a student edition prints the function.
    outside = re.sub(r'<details class="site-solution">.*?</details>', "", page, flags=re.S)
    assert html.unescape(re.sub(r"<[^>]+>", "", outside)).count("raise NotImplementedError()") >= 4


def test_a_guide_of_docs_is_a_page_of_the_site_linked_to_the_lessons(chromium, site, tmp_path):
    document = dom(chromium, tmp_path, site / "guide.html")
    assert "<title>A guide</title>" in document
    hrefs = re.findall(r'<a href="([^"#]+)"', document)
    assert "02_clipping.html" in hrefs
    assert f"{build_site.REPOSITORY_URL}/blob/main/README.md" in hrefs
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<h2>Guides</h2><ul><li><a href="guide.html">A guide</a>' in index


# What chromium computes for the page's printed code, its text outputs and its formulas.
STYLES = """<script>
const style = selector => getComputedStyle(document.querySelector(selector));
document.body.dataset.styles = JSON.stringify({
  code_font: getComputedStyle(document.body).getPropertyValue("--jp-code-font-family").trim(),
  printed_font: style("pre.site-printed-solution").fontFamily,
  output_white_space: style(".jp-OutputArea-output pre").whiteSpace,
  math_font: style("math").fontFamily,
});
</script>"""


def test_printed_code_keeps_the_code_font_text_tables_their_lines_and_formulas_a_math_font(chromium, site, tmp_path):
    probe = site / "99_match_view_styles.html"
    page = (site / "99_match_view.html").read_text(encoding="utf-8")
    # A printed lesson function, folded as the site folds it, beside the page's own outputs.
    printed = build_site.with_printed_solutions_folded(
        [
            nbformat.v4.new_output(
                "stream", text="def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n"
            )
        ],
        "a test",
    )[1]["data"]["text/html"]
    probe.write_text(page.replace("</body>", printed + STYLES + "</body>"), encoding="utf-8")
    try:
        document = dom(chromium, tmp_path, probe)
    finally:
        probe.unlink()
    styles = json.loads(html.unescape(re.search(r'data-styles="([^"]*)"', document).group(1)))
    # chromium writes the same list of fonts with other quotes once computed.
    assert styles["code_font"] and styles["printed_font"] == styles["code_font"].replace("'", '"'), styles
    assert styles["output_white_space"] == "pre", "a printed table wraps mid-line instead of scrolling"
    assert styles["math_font"].startswith('"STIX Two Math"'), styles


def test_a_page_of_the_site_renders_in_chromium(chromium, site, tmp_path):
    document = dom(chromium, tmp_path, site / "02_clipping.html")
    assert "<title>02 Clipping</title>" in document
    assert re.search(r'<h1 id="02-Clipping">02 Clipping', document)
    hrefs = re.findall(r'<a href="([^"#]+)"', document)
    assert "03_modified_precision.html" in hrefs and all(
        href.endswith(".html") or href.startswith("https://") for href in hrefs
    )
    picture = screenshot(chromium, tmp_path, site / "02_clipping.html")
    # Not blank: text, code and plots make a good share of the page differ from white.
    assert (np.abs(picture - 255).max(axis=2) > 40).mean() > 0.02
    index = (site / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<li><a href="([^"]+)"', index) == [
        "02_clipping.html",
        "03_modified_precision.html",
        "99_match_view.html",
        "guide.html",
    ]
    assert '<a href="02_clipping.html">02 Clipping</a>' in index


def test_the_match_view_renders_inside_a_page_of_the_site(chromium, site, tmp_path):
    page = site / "99_match_view.html"
    assert page.read_text(encoding="utf-8").count('class="bleu-mark ') == 9 + 8
    assert "<math" in page.read_text(encoding="utf-8")  # $p_n$ became MathML
    picture = screenshot(chromium, tmp_path, page)
    for status in (MATCHED, CLIPPED, UNMATCHED):
        assert pixels_of(picture, COLOURS[status][0]) >= 200, f"no {status} mark in the page"
