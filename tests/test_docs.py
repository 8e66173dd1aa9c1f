"""The README and docs/: a README a newcomer reads in minutes, whose map and links hold.

The README maps the lessons with the reading time each notebook states, names the two commands
(.ci/run runs the second exactly), and leaves the rest to docs/, whose Markdown files link to one
another, to the notebooks and to the code: every relative link must name a file that exists.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402 (tools/ is no package)

README = ROOT / "README.md"
MARKDOWN = [README, *sorted((ROOT / "docs").glob("*.md"))]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

# Code is not Markdown: a link-like text in a code block or span is left alone.
CODE = re.compile(r"^```.*?^```|`[^`\n]+`", re.S | re.M)
LINK = re.compile(r"\]\(([^)\s]+)\)")
STATED_TIME = re.compile(r"^\*About (\d+) minutes to read", re.M)
MAP_ROW = re.compile(r"^\| *\w+ *\| *\[[^]]+\]\(notebooks/([\w.-]+\.ipynb)\) *\| *(\d+) *\|", re.M)
PART_TOTAL = re.compile(r"^\*\*.*\((?:[^()]*; )?(\d+) minutes\)$")


def relative_links(path: Path) -> list[str]:
    """The targets of the Markdown links of ``path`` that name a file of the repository."""
    text = CODE.sub("", path.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)]


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_names_a_file_that_exists(path):
    missing = [
        target for target in relative_links(path) if not (path.parent / target.split("#", 1)[0]).resolve().exists()
    ]
    assert not missing, f"{path.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_the_readme_links_every_guide():
    guides = {f"docs/{path.name}" for path in MARKDOWN[1:]}
    assert guides <= set(relative_links(README)), (
        f"the README does not link {sorted(guides - set(relative_links(README)))}"
    )


def test_the_readme_reads_in_five_minutes():
    # About 1,500 words, at some 300 a minute; the rest belongs in docs/.
    words = len(README.read_text(encoding="utf-8").split())
    assert words <= 1700, f"the README has {words} words; move detail into docs/"


def stated_minutes(notebook: Path) -> int:
    first = nbformat.read(notebook, as_version=4).cells[0].source
    found = STATED_TIME.search(first)
    assert found, f"{notebook.name} does not state its reading time ('*About N minutes to read')"
    return int(found.group(1))


def test_the_readmes_map_gives_each_notebook_the_time_it_states():
    text = README.read_text(encoding="utf-8")
    listed = {name: int(minutes) for name, minutes in MAP_ROW.findall(text)}
    stated = {path.name: stated_minutes(path) for path in NOTEBOOKS}
    assert listed == stated, "the README's map of the lessons differs from what the notebooks state"


def test_each_part_of_the_map_adds_up():
    parts: list[tuple[int, int]] = []  # (total the README states, sum of the rows under it)
    for line in README.read_text(encoding="utf-8").splitlines():
        total = PART_TOTAL.match(line)
        row = MAP_ROW.match(line)
        if total:
            parts.append((int(total.group(1)), 0))
        elif row and parts:
            parts[-1] = (parts[-1][0], parts[-1][1] + int(row.group(2)))
    assert len(parts) == 3, "two parts and the appendices, each with its total"
    assert [stated for stated, _ in parts] == [added for _, added in parts]


def test_the_detailed_map_lists_every_notebook():
    links = {Path(target.split("#")[0]).name for target in relative_links(ROOT / "docs" / "lessons.md")}
    assert {path.name for path in NOTEBOOKS} <= links


def test_ci_runs_the_readmes_test_command_which_installs_the_browser_first():
    readme = README.read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if line.startswith("python3 -m venv") and "check.sh" in line)
    assert command.split(" && ")[-2:] == ["bash tools/install_browser.sh", "bash tools/check.sh"]
    # tools/check.sh ends in the whole pytest run, after the lint, format and type checks.
    assert (ROOT / "tools" / "check.sh").read_text(encoding="utf-8").splitlines()[-1] == (
        '"$python" -m pytest -n 3 --dist loadscope "$@"'
    )
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()[-1] == command
    assert "bash tools/lessons.sh" in readme.splitlines(), "the README's first command opens the lessons"


def requirements(path: Path) -> tuple[set[str], set[str]]:
    """The project names a requirements file installs by name, and the extras of this package it asks for."""
    names, extras = set(), set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r "):
            more_names, more_extras = requirements(path.parent / line[3:].strip())
            names |= more_names
            extras |= more_extras
        elif line.startswith("-e ."):
            extras |= set(re.findall(r"\w+", line[4:]))
        elif line:
            names.add(re.split(r"[<>=!\[; ]", line, maxsplit=1)[0].lower())
    return names, extras


def test_the_lessons_environment_has_no_course_tooling():
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names, extras = requirements(ROOT / "requirements.txt")
    todo = list(extras)
    while todo:  # an extra may name others: bleu-scratch[cli,dask]
        for requirement in optional[todo.pop()]:
            own = re.fullmatch(r"bleu-scratch\[([\w,]+)\]", requirement)
            if own:
                todo += [extra for extra in own.group(1).split(",") if extra not in extras]
                extras |= set(own.group(1).split(","))
            else:
                names.add(re.split(r"[<>=!\[; ]", requirement, maxsplit=1)[0].lower())
    assert "nbgrader" not in names and "course" not in extras, (names, extras)
    assert "jupyterlab" in names and "lessons" in extras


def test_every_guide_is_a_page_of_the_site(tmp_path):
    build_site.build_site(tmp_path, notebooks=[])
    guides = MARKDOWN[1:]
    assert {path.name for path in tmp_path.glob("*.html")} == {"index.html"} | {f"{path.stem}.html" for path in guides}
    for guide in guides:
        page = (tmp_path / f"{guide.stem}.html").read_text(encoding="utf-8")
        assert "<math" not in page, f"{guide.name}: a $ read as a formula"
    # With no lesson built, the links to lessons stay links to their notebooks, which exist.
    for broken in build_site.broken_links(tmp_path):
        target = broken.split(" -> ")[1]
        assert target.startswith("../notebooks/") and (ROOT / target[3:].split("#")[0]).is_file(), broken


def test_without_latex2mathml_the_site_build_says_what_to_install(tmp_path):
    """The lessons' environment has no latex2mathml (the tests' has): one line naming it, no traceback."""
    # None in sys.modules makes the import fail as a missing package does.
    code = (
        "import runpy, sys; sys.modules['latex2mathml'] = None; "
        f"sys.argv = ['build_site.py', {str(tmp_path / 'site')!r}]; "
        f"runpy.run_path({str(ROOT / 'tools' / 'build_site.py')!r}, run_name='__main__')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout) == (1, "")
    install = f"{sys.executable} -m pip install latex2mathml==3.81.1"
    said = f"tools/build_site.py needs latex2mathml for the formulas: {install}\n"
    assert result.stderr == said
    assert not (tmp_path / "site").exists()
