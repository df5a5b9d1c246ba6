"""How an extension point finds its plug-ins: every module of a package, by its NAME.

Element types (elements/), board shapes (boards/) and export formats (formats/) are each a
package of one module per kind; `discover` imports them in name order (so that lists and
messages are the same on every machine) and maps each module's NAME to it.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


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
