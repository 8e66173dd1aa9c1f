"""How many examples a property test runs: all of them, or a tenth in the quick loop (``pytest -m "not slow"``).

``tests/conftest.py`` sets ``QUICK`` before the test modules are collected.
"""

QUICK = False


def examples(count: int) -> int:
    """``count``, or a tenth of it (at least 20) in the quick loop."""
    return max(20, count // 10) if QUICK else count
