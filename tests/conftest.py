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
