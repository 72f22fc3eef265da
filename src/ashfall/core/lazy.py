"""Lazy public faces for packages whose exports are expensive to import (the CLI's start-up budget).

A package lists its exports once, as ordinary ``from … import …`` statements under ``if TYPE_CHECKING:``
(so type checkers and readers see every name and where it comes from), and calls :func:`attach`. At run time
nothing is imported until a name is first read; then only the module that defines it is. Why: ``ashfall
validate`` needs the encounter schema, not the turn engine, but ``ashfall.engine.environment`` is a
submodule of ``ashfall.engine``, and importing any submodule runs the package's ``__init__``.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any


def _exports(init_file: str) -> dict[str, tuple[str, str]]:
    """Each name the ``if TYPE_CHECKING:`` block of ``init_file`` imports, with its (module, attribute)."""
    tree = ast.parse(Path(init_file).read_text(encoding="utf-8"))
    found: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module and statement.level == 0:
                    for alias in statement.names:
                        found[alias.asname or alias.name] = (statement.module, alias.name)
    return found


def attach(package: str, init_file: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of a package with lazy exports.

    Args:
        package: The package's ``__name__``.
        init_file: The package's ``__file__`` (its ``__init__.py``, read for the ``TYPE_CHECKING`` imports).

    Returns:
        ``(__getattr__, __dir__)`` to assign at module level. A name is resolved on first use and cached
        in the package's namespace, so later reads cost nothing.
    """
    exports = _exports(init_file)

    def __getattr__(name: str) -> Any:
        try:
            module_name, attribute = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value: Any
        if module_name == package:  # a submodule of the package itself (``from pkg import events``)
            value = importlib.import_module(f"{package}.{attribute}")
        else:
            module: ModuleType = importlib.import_module(module_name)
            value = getattr(module, attribute)
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
