"""The course tools: a student edition without solutions, its autograder, and an nbgrader course.

::

    bleu-classroom release OUT_DIR [--force] [--source CHECKOUT]
    bleu-classroom grade DIR [--json] [--only NAME] [--budget SECONDS] [--memory-mb MB] [--seed N]
    bleu-classroom tag-nbgrader [NOTEBOOK_DIR]
    bleu-classroom nbgrader-course COURSE_DIR [--assignment NAME] [--notebooks 01 02 ...]
    bleu-classroom course-grades COURSE_DIR [--assignment NAME] [--feedback] [--json | --csv FILE]

Solutions are marked the way nbgrader marks them: the lines between a
``### BEGIN SOLUTION`` comment line and a ``### END SOLUTION`` comment line,
in the package's lesson functions and in the notebooks' exercise cells.

- ``markers``: finding the marked regions and replacing them by nbgrader's stub;
- ``release``: the student edition of the repository, written to a folder;
- ``leaks``: the search that stops a release if a solution line can still be read;
- ``readme``: the edition's README for students (template ``student_README.md``);
- ``edition_conftest.py``: the edition's ``conftest.py``, which skips what is not written yet;
- ``nbgrader_tags``: nbgrader's cell metadata for the notebooks;
- ``nbgrader_course``: an nbgrader course directory (the assignment's source and nbgrader's config);
- ``gradebook``: nbgrader's notebook points and the grader's package points, by lesson, and the
  package's marks in nbgrader's feedback pages; ``kernel``: autograde's kernels, in bubblewrap;
- ``units``, ``cases``, ``oracle``: the graded functions, their cases (fixed and drawn), NLTK's answers;
- ``jail``: running code in a bubblewrap sandbox, every limit kept from outside;
- ``sandbox``: what runs one student function in there, and values as typed JSON between it and
  the grader; ``plain``: the grader's markers and readable values;
- ``grader``: what holds the answers, starts a sandbox per function and marks;
  ``feedback``: where a wrong answer first differs, and how;
- ``report``: the marks as a table or JSON; ``command``: the command line.

The lessons and the command line never import this package; it builds on them.
"""

# The nbgrader assignment's name unless the instructor gives one; here, not in
# nbgrader_course.py, so that the command line can name it without importing
# what releases an edition (which imports the lessons, and a student's may not import).
DEFAULT_ASSIGNMENT = "bleu"
