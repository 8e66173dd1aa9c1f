"""Solution markers: the lines between ``### BEGIN SOLUTION`` and ``### END SOLUTION``, as nbgrader marks them.

``strip_solutions`` replaces each marked region (of a lesson function or an exercise cell) by nbgrader's stub.
"""

import ast
from dataclasses import dataclass

from bleu_scratch.notebook.exercises import STUB as CODE_STUB

from .errors import ClassroomError

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
TEXT_STUB = ("YOUR ANSWER HERE",)  # nbgrader's stub for a Markdown answer


@dataclass
class Region:
    """One marked solution: where it starts and the lines it hides."""

    where: str  # "path" or "path cell N", for messages
    line: int  # 1-based line of the BEGIN marker
    lines: list[str]

    @property
    def place(self) -> tuple[str, int | None]:
        """The file, and the notebook cell (1-based) or None."""
        path, _, cell = self.where.partition(" cell ")
        return path, int(cell) if cell else None


def strip_solutions(text: str, stub: tuple[str, ...], where: str = "<text>") -> tuple[str, list[Region]]:
    """Replace each marked region of ``text`` by ``stub``, indented like its BEGIN marker.

    >>> source = "def f(x):\\n    check(x)\\n    ### BEGIN SOLUTION\\n    return 2 * x\\n    ### END SOLUTION\\n"
    >>> stripped, regions = strip_solutions(source, CODE_STUB)
    >>> print(stripped, end="")
    def f(x):
        check(x)
        # YOUR CODE HERE
        raise NotImplementedError()
    >>> regions[0].line, regions[0].lines
    (3, ['    return 2 * x'])
    """
    out: list[str] = []
    regions: list[Region] = []
    current: Region | None = None
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        marker = marker_in(line, where, number)
        if marker == BEGIN:
            if current is not None:
                raise ClassroomError(
                    f"{where}:{number}: BEGIN SOLUTION inside the region opened at line {current.line}"
                )
            current = Region(where, number, [])
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(f"{indent}{stub_line}\n" for stub_line in stub)
        elif marker == END:
            if current is None:
                raise ClassroomError(f"{where}:{number}: END SOLUTION without a BEGIN SOLUTION before it")
            regions.append(current)
            current = None
            if not line.endswith("\n"):
                # The END marker was the last line: keep the text's missing final newline.
                out[-1] = out[-1].rstrip("\n")
        elif current is not None:
            current.lines.append(line.rstrip("\r\n"))
        else:
            out.append(line)
    if current is not None:
        raise ClassroomError(f"{where}:{current.line}: BEGIN SOLUTION is never closed by END SOLUTION")
    return "".join(out), regions


def marker_in(line: str, where: str, number: int) -> str | None:
    stripped = line.strip()
    if stripped in (BEGIN, END):
        return stripped
    # nbgrader takes any line that names a marker; a near miss of ours would
    # ship its solution silently, so it is an error, not plain text.
    if stripped.startswith("#") and ("BEGIN SOLUTION" in stripped or "END SOLUTION" in stripped):
        raise ClassroomError(f"{where}:{number}: malformed marker {stripped!r}; write exactly {BEGIN!r} or {END!r}")
    return None


def marked_functions(source: str) -> list[str]:
    """The names of the functions whose bodies contain a solution region.

    >>> marked_functions("def f():\\n    ### BEGIN SOLUTION\\n    pass\\n    ### END SOLUTION\\n")
    ['f']
    """
    _, regions = strip_solutions(source, CODE_STUB)
    functions = [
        node for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    names = []
    for region in regions:
        enclosing = [f for f in functions if f.lineno < region.line <= f.end_lineno]
        # The innermost function is the one that starts last.
        name = max(enclosing, key=lambda f: f.lineno).name if enclosing else "<module>"
        if name not in names:
            names.append(name)
    return names
