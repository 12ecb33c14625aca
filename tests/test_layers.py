"""The package's shape, checked on its source: only the command layer imports
click, only the views import tabulate, the library never prints or exits, and
no module imports another's underscore names (a name is private to its module,
a module whose name starts with ``_`` to its package)."""

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).parent.parent / "cpscore"

#: The views: the only modules that draw tables (tabulate).
VIEWS = {"cpscore.formatting", "cpscore.session_views", "cpscore.arrange_views", "cpscore.stats_views"}
#: Scripts that rebuild generated modules (``python -m cpscore.tablegen``): they may print.
SCRIPTS = {"cpscore.tablegen", "cpscore.presetgen", "cpscore.baselinegen", "cpscore.__main__"}


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path, ast.parse(path.read_text(encoding="utf-8"))


MODULES = list(modules())
IDS = [name for name, _, _ in MODULES]


def imports(tree):
    """(line, module, name or None) for every import, at any depth (lazy ones too)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.lineno, node.module, alias.name


def private(part):
    return part.startswith("_") and not part.startswith("__")


def in_commands(name):
    return name == "cpscore.commands" or name.startswith("cpscore.commands.") or name == "cpscore.cli"


@pytest.mark.parametrize(("name", "path", "tree"), MODULES, ids=IDS)
def test_only_the_command_layer_imports_click(name, path, tree):
    if in_commands(name):
        return
    found = [line for line, module, _ in imports(tree) if module.split(".")[0] == "click"]
    assert not found, f"{path}:{found[0]} imports click"


@pytest.mark.parametrize(("name", "path", "tree"), MODULES, ids=IDS)
def test_only_the_views_import_tabulate(name, path, tree):
    found = [line for line, module, _ in imports(tree) if module.split(".")[0] == "tabulate"]
    assert name in VIEWS or not found, f"{path}:{found[0]} imports tabulate"


@pytest.mark.parametrize(("name", "path", "tree"), MODULES, ids=IDS)
def test_no_module_imports_another_modules_underscore_names(name, path, tree):
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for line, module, imported in imports(tree):
        parts = module.split(".")
        if module == "__future__":
            continue
        # A private module is its package's: only that package's modules import it.
        for depth, part in enumerate(parts):
            if private(part):
                owner = ".".join(parts[:depth])
                assert package == owner or package.startswith(owner + "."), f"{path}:{line} imports {module}"
        if imported is not None and private(imported):
            # ``from cpscore import _tables``: a private module of this package is fine; a private name is not.
            is_module = (PACKAGE.parent / module.replace(".", "/") / f"{imported}.py").exists()
            assert is_module and package.startswith(module), f"{path}:{line} imports {imported} from {module}"


@pytest.mark.parametrize(("name", "path", "tree"), MODULES, ids=IDS)
def test_the_library_never_prints_or_exits(name, path, tree):
    if in_commands(name) or name in SCRIPTS:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            called = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
            owner = getattr(function, "value", None)
            owner_name = owner.id if isinstance(owner, ast.Name) else ""
            assert called != "print", f"{path}:{node.lineno} prints"
            assert not (called == "exit" and owner_name in ("sys", "os", "")), f"{path}:{node.lineno} exits"
            assert not (owner_name == "sys" and called == "_exit"), f"{path}:{node.lineno} exits"


def test_the_night_is_read_in_one_place():
    """``Ledger`` is made by the night alone: every command reads a night through it."""
    for name, path, tree in MODULES:
        if name in ("cpscore.night", "cpscore.session"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Ledger":
                pytest.fail(f"{path}:{node.lineno} makes a Ledger: read the night through cpscore.night.Night")
