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

The keys of an export profile are declared here, once (`PROFILE`, options.py): their
schema, the values resolve reads, and the tables of docs/printing.md and docs/ja/printing.md
are made from it; a format's `DEFAULTS` may give only declared keys, each a value of its
kind (tests/test_options.py).

Adding a format is adding a module here and its line in docs/printing.md.
"""

from __future__ import annotations

from types import ModuleType

from ..i18n import N_
from ..options import Option, Options
from ..registry import discover
from ..units import DEFAULT_DPI

FORMATS: dict[str, ModuleType] = discover(__path__, __name__, {"picture"})

# The keys of an export profile (layouts/exports/<name>.yaml) besides `format`, `icc` and
# `sizes` (schemas/export.json). A default a format gives (its DEFAULTS) stands in for
# the one here.
PROFILE = Options(
    Option("description", "text", N_("what the profile is for, for people"), ""),
    Option("bleed", "length", N_("the bleed on every side of the trim"),
           low="0mm", high="20mm"),
    Option("safe", "length", N_("what must not be cut (text, pictures, frames) stays this far "
                                "inside the trim"), "3mm", low="0mm", high="30mm"),
    Option("marks", "choice", N_("tombo (Japanese trim marks) or none"),
           choices=("tombo", "none")),
    Option("color", "choice", N_("the colours of the files: CMYK with the ICC profile, or RGB"),
           choices=("cmyk", "rgb")),
    Option("output_condition", "text", N_("what the output intent calls the printing "
                                          "condition"), "",
           schema={"minLength": 1}, shown_default=N_("the ICC profile's description")),
    Option("black_text", "choice", N_("k-only: text in black and greys prints on K alone; "
                                      "convert: as any colour"),
           "k-only", choices=("k-only", "convert")),
    Option("max_ink", "integer", N_("percent: the most ink (all four plates) the shop takes "
                                    "anywhere"), 300, low=100, high=400),
    Option("rich_black", "color", N_("the CMYK black of large black areas, cmyk(c, m, y, k)"),
           shown_default=N_("the ICC profile's own black")),
    Option("overprint", "choice", N_("black: K100 text, lines and small fills overprint; "
                                     "none: nothing does"),
           "black", choices=("black", "none")),
    Option("boards", "flag", N_("the game's boards too, one file each (a picture profile: at "
                                "the board's own size, at its dpi)"), False),
    Option("rulebook", "choice", N_("single-pages: the rulebook too, page by page (PDF only)"),
           "none", choices=("single-pages", "none")),
    Option("min_image_dpi", "integer", N_("warn about pictures printed below this resolution"),
           DEFAULT_DPI, low=1, high=2400),
    Option("dpi", "integer", N_("the pictures' resolution (PNG, JPEG)"), DEFAULT_DPI,
           low=72, high=1200),
    Option("tolerance", "length", N_("how far a card may differ from a template's trim"),
           "1mm", low="0mm", high="5mm"),
)


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


def profile_default(key: str, fmt: str) -> object:
    """What a profile of format `fmt` has for `key` where it writes none, as written:
    the format's own default, else the declared one."""
    return FORMATS[fmt].DEFAULTS.get(key, PROFILE[key].default)


def profile_defaults_shown(key: str) -> dict[str, object]:
    """The formats' own defaults of `key`, by format (for the docs tables)."""
    return {name: module.DEFAULTS[key] for name, module in FORMATS.items()
            if key in getattr(module, "DEFAULTS", {})}
