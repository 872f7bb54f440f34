import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Hypothesis profiles (tests/test_fuzz.py): "ci" by default, about 1,000 examples in all;
# HYPOTHESIS_PROFILE=fuzz for long runs (10,000 examples).
import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=1_000, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          print_blob=True)
settings.register_profile("fuzz", max_examples=10_000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """The suite's parse and grammar caches live in a temporary directory, never the user's."""
    os.environ.setdefault("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("kapsulint-cache")))
    yield


def pytest_addoption(parser):
    parser.addoption("--update-snapshots", action="store_true", default=False,
                     help="rewrite each fixture case's findings.snap from what kapsulint reports now")


@pytest.fixture
def update_snapshots(request) -> bool:
    return request.config.getoption("--update-snapshots")


@pytest.fixture
def running_workers(monkeypatch) -> list[int]:
    """Every parsing worker of the test is the real one, counted while its process runs: the
    list holds one item per worker running."""
    from kapsulint.scan import parallel

    running: list[int] = []
    real = parallel.Worker

    class Counting(real):
        def __init__(self, take, sink=None):
            running.append(1)

            def counted(record):
                if record is None:
                    running.pop()
                if sink is not None:
                    sink(record)

            super().__init__(take, counted)

    monkeypatch.setattr(parallel, "Worker", Counting)
    return running
