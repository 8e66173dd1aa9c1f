"""Build the lessons as a static website that works offline: ``python tools/build_site.py [OUT_DIR]``.

Every notebook in notebooks/ becomes OUT_DIR/NAME.html, drawn from the outputs
stored in it (nothing is run: nbval already holds them equal to a fresh run),
each guide in docs/ (NAME.md) becomes OUT_DIR/NAME.html, drawn by the same
template as a notebook of one Markdown cell, and OUT_DIR/index.html lists the
lessons in order, then the guides. Open OUT_DIR/index.html in a browser, or
serve the folder as it is (``python -m http.server -d OUT_DIR``).

What changes on the way from notebook or guide to page:

- links between notebooks and guides (``[Next](03_modified_precision.ipynb)``,
  ``[the command](../docs/command-line.md)``) point to the pages
  (``03_modified_precision.html``, ``command-line.html``); a link to any other
  file of the repository (``../README.md``) points to the file on GitHub;
- formulas (``$$...$$``, ``$...$``) become MathML, which browsers draw without
  MathJax; the template (tools/site_template/bleu_site) leaves out the
  scripts nbconvert would load from a CDN (require.js, MathJax, Mermaid, the
  widget manager), so a page loads nothing from the internet;
- each exercise shows as the learner meets it, the solution replaced by
  nbgrader's stub, and its solution and check cell (with their outputs)
  follow in a "Show the solution" element, closed until the reader opens it;
- a printed lesson function (its solution between the same markers) shows as
  a student edition prints it, the solution replaced by the stub, and the
  whole output follows in a closed "Show the solution" element;
- a cell tagged ``remove-cell`` is left out (for cells that only make sense
  in a running notebook, such as a setup cell for Colab);
- each page gets links to the index and to the previous and next pages of
  its kind: lessons, appendices or guides.

The build stops with an error when a page links to a page, a heading or a file
the site and the repository do not have. While the repository's address is
still the placeholder ``OWNER/...``, it says so (``tools/repository.py --set``).
"""

from __future__ import annotations

import argparse
import copy
import html
import posixpath
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import nbformat

try:
    from latex2mathml.converter import convert as latex_to_mathml
except ModuleNotFoundError:  # the tests' environment has it; the lessons' does not
    install = f"{sys.executable} -m pip install latex2mathml==3.81.1"
    sys.exit(f"tools/build_site.py needs latex2mathml for the formulas: {install}")
from nbconvert import HTMLExporter
from traitlets.config import Config

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bleu_classroom.markers import CODE_STUB, TEXT_STUB, strip_solutions  # noqa: E402 (after the path)

NOTEBOOKS = ROOT / "notebooks"
GUIDES = ROOT / "docs"
TEMPLATES = Path(__file__).resolve().parent / "site_template"
# Where a link out of notebooks/ leads. The one thing to change when the repository moves.
REPOSITORY_URL = "https://github.com/OWNER/bleu-from-scratch"

MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
# The folders whose files become pages, and the suffix of those files.
PAGE_SOURCES = {"notebooks": ".ipynb", "docs": ".md"}
# Code first, so that a $ in code stays a $; then display math, then inline math
# ($ not followed by a space, closed by a $ not after a space and not before a digit).
MATH_OR_CODE = re.compile(
    r"(?P<fence>^```.*?^```)|(?P<code>`[^`\n]+`)|\$\$(?P<display>.+?)\$\$|(?<![\\$\w])\$(?P<inline>[^\s$](?:[^$\n]*[^\s$])?)\$(?!\d)",
    re.S | re.M,
)
LOCAL_REFERENCE = re.compile(r"""(?:href|src)="(?!https?:|mailto:|data:)([^"]*)\"""")
ANCHOR = re.compile(r"""\bid="([^"]*)\"""")
# Paired Markdown emphasis and code marks, left out of a title or a sentence shown as plain text.
MARKS = re.compile(r"(\*\*|\*|`)(.+?)\1")


class SiteError(Exception):
    """A page that cannot be built as it stands, with what to fix."""


def site_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The notebooks of the site: the numbered lessons in order, then any others (appendices) by name."""
    notebooks = sorted(folder.glob("*.ipynb"))
    return [path for path in notebooks if path.name[:2].isdigit()] + [
        path for path in notebooks if not path.name[:2].isdigit()
    ]


def page_name(notebook: Path) -> str:
    return notebook.stem + ".html"


def is_lesson(page: str) -> bool:
    """A numbered lesson's page (``02_clipping.html``), not an appendix's or a guide's."""
    return page[:2].isdigit()


def title_of(notebook: nbformat.NotebookNode, fallback: str) -> str:
    """The notebook's first Markdown heading."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            heading = re.search(r"^#+\s+(.+)$", cell.source, re.M)
            if heading:
                return MARKS.sub(r"\2", heading.group(1).strip())
    return fallback


def first_sentence(notebook: nbformat.NotebookNode) -> str:
    """The first sentence of the first paragraph not a heading nor in italics (a reading time), as plain text."""
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for paragraph in re.split(r"\n\s*\n", cell.source):
            text = " ".join(paragraph.split())
            if text and not text.startswith(("#", "|", "```", "<")) and not re.fullmatch(r"\*[^*].*\*", text):
                text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", text)
                text = MARKS.sub(r"\2", re.sub(r"<[^>]+>", "", text))
                return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    return ""


def markdown_for_site(text: str, pages: set[str], folder: str = "notebooks", repository: str = REPOSITORY_URL) -> str:
    """The Markdown of a cell of a file in ``folder`` with its links pointing into the site, its formulas as MathML.

    A link to a notebook or a guide that is no page of the site stays as it is, so that the build finds it.

    >>> markdown_for_site("[Next: 02 Clipping](02_clipping.ipynb)", {"02_clipping.html"})
    '[Next: 02 Clipping](02_clipping.html)'
    >>> markdown_for_site("[data](../data/README.md), `$x$`", set())
    '[data](https://github.com/OWNER/bleu-from-scratch/blob/main/data/README.md), `$x$`'
    >>> markdown_for_site("[gone](../data/no_such_file.md)", set())  # no such file: left for the build to find
    '[gone](../data/no_such_file.md)'
    >>> markdown_for_site("[A1](../notebooks/A1_python_fractions.ipynb#Top), [tests](tests.md)", {"tests.html"}, "docs")
    '[A1](../notebooks/A1_python_fractions.ipynb#Top), [tests](tests.html)'
    >>> markdown_for_site("$c$", set())
    '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mi>c</mi></mrow></math>'
    """

    def link(match: re.Match) -> str:
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:|#|/", target):  # another site, this page, or no file of the repository
            return match.group(0)
        path, hash_sign, fragment = target.partition("#")
        file = posixpath.normpath(posixpath.join(folder, path))  # from the repository's root
        source_folder, _, name = file.rpartition("/")
        stem, suffix = posixpath.splitext(name)
        if PAGE_SOURCES.get(source_folder) == suffix:
            page = f"{stem}.html"
            return f"]({page}{hash_sign}{fragment})" if page in pages else match.group(0)
        if file.startswith("../") or not (ROOT / file).exists():
            return match.group(0)  # no file of the repository: the build finds the link broken
        return f"]({repository}/blob/main/{file}{hash_sign}{fragment})"

    def math(match: re.Match) -> str:
        if match["display"] is not None:
            # A block of its own, so that Markdown leaves the MathML alone.
            return (
                f'\n\n<div class="math-display">{latex_to_mathml(match["display"].strip(), display="block")}</div>\n\n'
            )
        if match["inline"] is not None:
            return latex_to_mathml(match["inline"])
        return match.group(0)

    return MATH_OR_CODE.sub(math, MARKDOWN_LINK.sub(link, text))


def solution_fold(content: str) -> str:
    """A closed ``<details>`` element holding ``content`` (HTML): the site's one way of folding a solution."""
    return f'<details class="site-solution"><summary>Show the solution</summary>{content}</details>'


def with_printed_solutions_folded(outputs: list, where: str) -> list:
    """The outputs of a code cell, each printed solution (a lesson function's source) shown as its stub.

    An output that prints a marked solution shows with the solution replaced by
    nbgrader's stub, as a student edition prints it; the whole output follows,
    folded.
    """
    folded = []
    for output in outputs:
        printed = output.get("text", "") if output.output_type == "stream" else ""
        stubbed, regions = strip_solutions(printed, CODE_STUB, where)
        if not regions:
            folded.append(output)
            continue
        shown = copy.deepcopy(output)
        shown.text = stubbed
        whole = solution_fold(f'<pre class="site-printed-solution">{html.escape(printed)}</pre>')
        folded += [shown, nbformat.v4.new_output("display_data", data={"text/html": whole})]
    return folded


def with_solutions_folded(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy in which each exercise shows stubbed, its solution and check cell folded after it.

    The solution cell and the check cell that follows it carry
    ``metadata.site.solution_starts`` and ``solution_ends``; the template wraps
    the cells between them in a ``<details>`` element. A printed solution is
    folded within its cell's outputs (``with_printed_solutions_folded``).
    """
    notebook = copy.deepcopy(notebook)
    cells = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            cell.outputs = with_printed_solutions_folded(cell.outputs, f"cell {index + 1}'s output")
        stub = CODE_STUB if cell.cell_type == "code" else TEXT_STUB
        exercise, regions = strip_solutions(cell.source, stub, f"cell {index + 1}")
        if not regions:
            cells.append(cell)
            continue
        shown = copy.deepcopy(cell)
        shown.source = exercise
        if "id" in shown:
            shown.id = f"{cell.id}-exercise"
        if cell.cell_type == "code":
            shown.outputs, shown.execution_count = [], None
        cells.append(shown)
        cell.metadata["site"] = {"solution_starts": True}
        cells.append(cell)
    # The check is the code cell right after a solution, as the house rules have it.
    for solution, after in zip(cells, cells[1:] + [None]):
        if solution.metadata.get("site", {}).get("solution_starts"):
            is_check = after is not None and after.cell_type == "code" and "site" not in after.metadata
            (after if is_check else solution).metadata.setdefault("site", {})["solution_ends"] = True
    notebook.cells = cells
    return notebook


def navigation(pages: list[tuple[str, str]], index: int) -> str:
    """Links to the index and to the previous and next of ``pages``, those of the same kind as ``pages[index]``.

    >>> navigation([("13_last.html", "13"), ("A1_deep.html", "A1"), ("A2_deeper.html", "A2")], 1)
    '<nav class="site-nav"><a href="index.html">Index</a> <a href="A2_deeper.html">A2 &rarr;</a></nav>'
    """
    kind = is_lesson(pages[index][0])
    same = [page for page in pages if is_lesson(page[0]) == kind]
    pages, index = same, same.index(pages[index])
    links = ['<a href="index.html">Index</a>']
    if index > 0:
        links.append(f'<a href="{pages[index - 1][0]}">&larr; {html.escape(pages[index - 1][1])}</a>')
    if index + 1 < len(pages):
        links.append(f'<a href="{pages[index + 1][0]}">{html.escape(pages[index + 1][1])} &rarr;</a>')
    return f'<nav class="site-nav">{" ".join(links)}</nav>'


def exporter() -> HTMLExporter:
    config = Config()
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_cell_tags = ("remove-cell",)
    return HTMLExporter(config=config, template_name="bleu_site", extra_template_basedirs=[str(TEMPLATES)])


def index_page(entries: list[tuple[str, str, str]], guides: Sequence[tuple[str, str, str]] = ()) -> str:
    """The lessons in order, each with its first sentence; then the other notebooks; then the guides."""
    items: dict[bool, list[str]] = {True: [], False: []}
    for page, title, sentence in entries:
        items[is_lesson(page)].append(list_item(page, title, sentence))
    appendices = f"<h2>Appendices</h2><ul>{''.join(items[False])}</ul>" if items[False] else ""
    if guides:
        appendices += f"<h2>Guides</h2><ul>{''.join(list_item(*guide) for guide in guides)}</ul>"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>BLEU from scratch: the lessons</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 50em; margin: 2em auto; padding: 0 1em; line-height: 1.5; }}
li {{ margin: 0.6em 0; }} li span {{ opacity: 0.8; }}
</style>
</head>
<body>
<h1>BLEU from scratch: the lessons</h1>
<p>Build the BLEU machine-translation metric one idea at a time, and check it against NLTK. Read the
lessons in order. These pages show each notebook with the outputs it stores; to run the code, open the
notebooks in Jupyter (see <a href="{REPOSITORY_URL}">the repository</a>). An exercise's solution stays folded
until you open "Show the solution", and so does the solution in each package function a lesson prints.</p>
<ol start="0">{"".join(items[True])}</ol>
{appendices}
</body>
</html>
"""


def list_item(page: str, title: str, sentence: str) -> str:
    return f'<li><a href="{page}">{html.escape(title)}</a><br><span>{html.escape(sentence)}</span></li>'


def broken_links(out_dir: Path, pages: Sequence[Path] | None = None) -> list[str]:
    """Each local link or source of ``pages`` (all of the site's by default) that names no file of the site, or
    no heading or other ``id`` of the page it names, as "page -> target"."""
    texts = {page.name: page.read_text(encoding="utf-8") for page in sorted(out_dir.glob("*.html"))}
    anchors = {name: {html.unescape(found) for found in ANCHOR.findall(text)} for name, text in texts.items()}
    broken = []
    for page in sorted(out_dir.glob("*.html")) if pages is None else pages:
        for target in LOCAL_REFERENCE.findall(texts[page.name]):
            path, _, fragment = html.unescape(target).partition("#")
            linked = out_dir / path if path else page
            missing = fragment and linked.suffix == ".html" and fragment not in anchors.get(linked.name, set())
            if not linked.is_file() or missing:
                broken.append(f"{page.name} -> {target}")
    return broken


def guide_notebook(path: Path) -> nbformat.NotebookNode:
    """A guide of docs/ as a notebook of one Markdown cell, so that it is drawn as the lessons are."""
    # The cell's id is the guide's name: nbformat would draw a random one, and the page would change at every build.
    cell = nbformat.v4.new_markdown_cell(path.read_text(encoding="utf-8"), id=re.sub(r"[^\w-]", "-", path.stem)[:64])
    return nbformat.v4.new_notebook(cells=[cell])


def build_site(out_dir: Path, notebooks: list[Path] | None = None, guides: list[Path] | None = None) -> list[Path]:
    """Write the pages of ``notebooks`` and ``guides`` (all of notebooks/ and docs/ by default) and index.html."""
    notebooks = site_notebooks() if notebooks is None else notebooks
    guides = sorted(GUIDES.glob("*.md")) if guides is None else guides
    out_dir.mkdir(parents=True, exist_ok=True)
    sources = {
        "notebooks": [(path, nbformat.read(path, as_version=4)) for path in notebooks],
        "docs": [(path, guide_notebook(path)) for path in guides],
    }
    pages = {
        folder: [(page_name(path), title_of(notebook, path.stem)) for path, notebook in read]
        for folder, read in sources.items()
    }
    names = [name for listed in pages.values() for name, _ in listed]
    twice = sorted({name for name in names if names.count(name) > 1 or name == "index.html"})
    if twice:
        raise SiteError(f"two pages, or a page and the index, would have the same name: {', '.join(twice)}")
    html_exporter = exporter()
    written = []
    for folder, read in sources.items():
        for index, (_, notebook) in enumerate(read):
            name, title = pages[folder][index]
            notebook = with_solutions_folded(notebook)
            for cell in notebook.cells:
                if cell.cell_type == "markdown":
                    cell.source = markdown_for_site(cell.source, set(names), folder)
            notebook.metadata["title"] = title
            body, _ = html_exporter.from_notebook_node(
                notebook, resources={"site_nav": navigation(pages[folder], index)}
            )
            (out_dir / name).write_text(body, encoding="utf-8")
            written.append(out_dir / name)
    entries = {
        folder: [(name, title, first_sentence(notebook)) for (name, title), (_, notebook) in zip(pages[folder], read)]
        for folder, read in sources.items()
    }
    index_path = out_dir / "index.html"
    index_path.write_text(index_page(entries["notebooks"], entries["docs"]), encoding="utf-8")
    return [index_path, *written]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the lessons as a static website that works offline.")
    parser.add_argument(
        "out_dir", nargs="?", default=str(ROOT / "site"), help="where to write the site (default: site/)"
    )
    args = parser.parse_args(argv)
    out_dir = Path(args.out_dir)
    try:
        pages = build_site(out_dir)
    except (SiteError, OSError) as error:
        print(f"build_site: {error}", file=sys.stderr)
        return 1
    broken = broken_links(out_dir, pages)
    if broken:
        print("build_site: links to nothing:\n  " + "\n  ".join(broken), file=sys.stderr)
        return 1
    print(f"{len(pages)} pages in {out_dir}; open {out_dir / 'index.html'}")
    if "/OWNER/" in REPOSITORY_URL:
        print(
            f"note: links to the repository go to {REPOSITORY_URL}, a placeholder: before publishing the site, "
            "run python tools/repository.py --set OWNER/NAME"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
