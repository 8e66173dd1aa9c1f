"""The course tools' error: a release or grading problem to report to the user, not a bug in the tools."""


class ClassroomError(Exception):
    """A release or grading problem to report to the user (not a bug in these tools)."""
