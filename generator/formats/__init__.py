"""The file formats an export profile can write (`format:` in layouts/exports/<name>.yaml):
one module per format, found here by itself.

A format's module declares everything about it:
- `NAME` (as profiles write it), `EXTENSION` (of the files it writes), and `RASTER`: a
  picture per face at a template's pixel size, or (False) a PDF page per face;
- `DEFAULTS`: the profile keys it gives a value of its own where the profile gives none
  (`color`, `marks`, `bleed`, as a profile would write them);
- `SCHEMA`: what it requires of a profile that names it (added to the export profile
  schema where `format` names it, schemas/export.json);
- for a picture, `PIL` (the format Pillow reads it back as, for preflight) and
  `encode(image, dpi)`: the file's bytes from an RGB Pillow image (picture.py has what
  every picture format shares); for a PDF,
  `finish(data, profile, title, icc)`: the page's file as the shop takes it.

Adding a format is adding a module here and its line in docs/printing.md.
"""

from __future__ import annotations

from types import ModuleType

from ..registry import discover

FORMATS: dict[str, ModuleType] = discover(__path__, __name__, {"picture"})


def register(module: ModuleType) -> None:
    """Add a format from elsewhere (a test's own): it joins the schema and every export."""
    FORMATS[module.NAME] = module


def unregister(name: str) -> None:
    FORMATS.pop(name, None)


def schema_parts() -> dict:
    """The export profile schema's part that depends on the formats: the `format` enum, and
    what each format requires, applied where `format` names it."""
    rules = [{"if": {"properties": {"format": {"const": name}}, "required": ["format"]},
              "then": module.SCHEMA} for name, module in FORMATS.items() if module.SCHEMA]
    return {"format": {"enum": list(FORMATS)}, "allOf": rules}
