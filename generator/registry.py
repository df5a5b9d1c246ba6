"""How an extension point finds its plug-ins: every module of a package, by its NAME.

Element types (elements/), board shapes (boards/), export formats (formats/), checks
(validate/) and statistics (stats/kinds/) are each a package of one module per kind;
`discover` imports them in name order (so that lists and messages are the same on every
machine) and maps each module's NAME to it. A registry that holds its modules to a
contract checks each with `breaches` and `refuse`, which name what a module lacks.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from types import ModuleType


class NotAPlugin(TypeError):
    """A module of a registry's package that does not declare what its kind must (a bug)."""


def breaches(module: ModuleType, required: Mapping[str, type | tuple[type, ...]],
             does: Iterable[str] = ()) -> list[str]:
    """What `module` lacks or mistypes of a registry's contract: each name of `required`
    with a value of its type, each name of `does` a function."""
    wrong = [key for key, kind in required.items()
             if not isinstance(getattr(module, key, None), kind)]
    return wrong + [name for name in does if not callable(getattr(module, name, None))]


def refuse(module: ModuleType, wrong: list[str], what: str, where: str,
           error: type[NotAPlugin] = NotAPlugin) -> ModuleType:
    """`module` if it breaches nothing; else `error`, naming what it lacks."""
    if wrong:
        raise error(f"{what} module '{module.__name__}' lacks or mistypes "
                    f"{', '.join(wrong)} ({where})")
    return module


def discover(package_path, package: str,
             skip: frozenset | set = frozenset()) -> dict[str, ModuleType]:
    """NAME -> module for each module of `package` (its `__path__`) but those in `skip`."""
    found = {}
    for info in sorted(pkgutil.iter_modules(package_path), key=lambda i: i.name):
        if info.name in skip:
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        found[module.NAME] = module
    return found
