"""The course tools (``bleu-classroom``): a student edition without solutions, its grader, an nbgrader course.

Solutions are marked as nbgrader marks them, between ``### BEGIN SOLUTION`` and ``### END SOLUTION``
lines (``markers``). The edition: ``release``, ``leaks``, ``readme``, ``edition_conftest.py``. nbgrader:
``nbgrader_tags``, ``nbgrader_course``, ``kernel``, ``gradebook``. The grader, which never imports the
lessons: ``units``, ``cases``, ``oracle``, ``jail``, ``sandbox``, ``grader``, ``feedback``, ``report``.
``command`` is the command line. The lessons and their command never import this package.
"""
