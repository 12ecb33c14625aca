"""``python -m cpscore``: the same as the ``cpscore`` command."""

from cpscore.cli import main

if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess test
    main(prog_name="cpscore")
