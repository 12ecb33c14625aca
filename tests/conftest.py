import pathlib
import tomllib

import pytest

HERE = pathlib.Path(__file__).parent


def worked_deals():
    with open(HERE / "worked_deals.toml", "rb") as file:
        return tomllib.load(file)["case"]


@pytest.fixture
def examples():
    return HERE.parent / "examples"
