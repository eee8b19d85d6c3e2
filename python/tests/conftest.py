# Shared settings of the Python suite: Hypothesis runs few, derandomised examples (fast and the
# same on every run, as `make test` needs); the long searches belong in `make bench`.
import os
import shutil

import pytest

try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("linlayout", max_examples=40, deadline=None, derandomize=True,
                              database=None,
                              suppress_health_check=[HealthCheck.too_slow,
                                                     HealthCheck.filter_too_much])
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "linlayout"))
except ImportError:  # the property tests skip themselves
    pass

SOURCE_DIR = os.environ.get("LINLAYOUT_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(
                                os.path.abspath(__file__)))))


def _cli():
    path = os.environ.get("LINLAYOUT_BIN") or os.path.join(SOURCE_DIR, "build", "bin", "linlayout")
    return path if os.path.exists(path) else shutil.which("linlayout")


@pytest.fixture(scope="session")
def cli():
    """The `linlayout` binary of this build; the test skips, saying so, without it."""
    path = _cli()
    if not path:
        pytest.skip("no linlayout binary (set LINLAYOUT_BIN or build build/bin/linlayout)")
    return path
