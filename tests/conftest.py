import importlib.util
import pathlib
import tomllib

from hypothesis import settings

HERE = pathlib.Path(__file__).parent


def worked_deals():
    with open(HERE / "worked_deals.toml", "rb") as file:
        return tomllib.load(file)["case"]


# No timed assertions: a slow moment on a busy machine must not fail a property.
settings.register_profile("cpscore", deadline=None)
settings.load_profile("cpscore")


def pytest_ignore_collect(collection_path, config):
    """The browser tests need Selenium (the ``browser`` extra): without it, the
    default run (``pip install '.[test]'``, which leaves them out: they are
    slow-marked) does not collect them; a run that asks for the slow set
    collects them, and fails saying what to install."""
    if collection_path.name != "test_serve_browser.py" or importlib.util.find_spec("selenium") is not None:
        return None
    marks = config.getoption("markexpr") or ""
    return "slow" not in marks or "not slow" in marks
