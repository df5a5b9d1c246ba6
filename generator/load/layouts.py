"""Reading card layouts (`layouts/<name>.yaml`) with the chain of layouts they extend."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..paths import Outside, inside, is_name
from ..problems import Location, Report
from . import schema
from .yamlfile import Document, load_yaml
from ..i18n import _

if TYPE_CHECKING:
    from .project import Project


layout_context = schema.item_context("elements", "name", "element")


NOT_LAYOUTS = {"printers"}  # layouts/printers.yaml holds printer profiles


def named_file(folder: Path, shown: str, name: object, what: str, report: Report,
               where: Location) -> Path | None:
    """`folder/<name>.yaml` for a name data gives (a layout, a sheet preset, a board), or
    None. A value that is not a name is left to the format schema, which reports it where
    it was written: it is never made into a path, and None comes back unreported. A name
    whose file is a link leading out of `folder` is reported here."""
    if not is_name(name):
        return None
    try:
        return inside(folder, f"{name}.yaml")
    except Outside as exc:
        file = f"{shown}/{name}.yaml"
        report.error(exc.sentence(_("{what} '{name}' ({file})", what=what, name=name,
                                    file=file), f"{shown}/"),
                     where, "path")
        return None


def load_layout_chain(project: Project, name: str, report: Report,
                      where: Location) -> list[tuple[str, Document]] | None:
    """The layout `name` and every layout it extends, the named one first: each the
    project's (layouts/<name>.yaml), else cardgen's.

    A missing layout or parent, and a cycle, are errors naming the whole chain."""
    folder = project.root / "layouts"
    chain: list[tuple[str, Document]] = []
    current, at = name, where
    while current is not None:
        if not is_name(current):  # the format schema reports it where it was written
            return None
        names = [n for n, _unused in chain]
        if current in names:
            cycle = " -> ".join(names[names.index(current):] + [current])
            report.error(_("layout '{names}' extends a cycle: {cycle}",
                           names=names[-1], cycle=cycle), at, "extends")
            return None
        path = named_file(folder, "layouts", current, _("layout"), report, at)
        if path is None:  # a link that leads out: reported
            return None
        if current not in NOT_LAYOUTS:
            path = project.chosen("layouts", current, path, _("layout"))
        if current in NOT_LAYOUTS or not path.is_file():
            known = [n for n in project.names("layouts") if n not in NOT_LAYOUTS]
            hint = schema.suggest(current, known, "layouts/")
            if chain:
                route = " -> ".join(names + [current])
                report.error(_("layout '{chain}' extends '{current}', which does not exist "
                               "({route}; {hint})",
                                   chain=chain[-1][0], current=current, route=route,
                                   hint=hint), at, "extends")
            else:
                report.error(_("unknown layout '{current}' ({hint})",
                               current=current, hint=hint), at, "reference")
            return None
        doc = load_yaml(path, project.display(path), report)
        if doc is None:
            return None
        data = doc.data  # (checked now: the context is not kept past the check)
        if not schema.check(doc, schema.validator_for("layout"), report,
                            lambda p: layout_context(p, data)):
            return None
        chain.append((current, doc))
        current = doc.data.get("extends")
        at = doc.locate(("extends",))
    return chain
