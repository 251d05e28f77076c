"""Shared by the tests: importing an optional dependency of an adapter.

Without ``QASAB_REQUIRE_EXTRAS`` a missing extra skips its tests (a plain ``pip install``
has none); ``.ci/py`` sets it, so there a missing extra fails them instead.
"""

import importlib
import os

import pytest


def extra(module: str):
    """The module, or a skip (a failure when QASAB_REQUIRE_EXTRAS is set) if it is missing."""
    if os.environ.get("QASAB_REQUIRE_EXTRAS"):
        return importlib.import_module(module)
    return pytest.importorskip(module)
