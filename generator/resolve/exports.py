"""Export profiles (layouts/exports/<name>.yaml) resolved into the model: lengths in
points, the ICC output profile found inside the project and checked to be a CMYK
printer profile."""

from __future__ import annotations

import io
from pathlib import Path

from ..load.yamlfile import Document
from ..model import ExportProfile, ExportSize
from ..paths import Outside, inside
from ..problems import Report, UsageError
from ..formats import FORMATS, PROFILE
from ..images import MAX_PIXELS
from ..colors import cmyk_transform
from ..units import parse_length, show_size
from ..values import Reader
from ..i18n import _

MAX_TEMPLATE_BLEED = 36.0  # points (0.5 in): a print service's bleed is 1/8 in, 3 mm or so
MAX_ICC_BYTES = 16 * 1024 * 1024  # a printer profile is well under 10 MB


class IccError(ValueError):
    """An ICC file that cannot serve as a CMYK output profile; the message says why."""


def icc_description(path: Path) -> str:
    """The profile's description, after checking that it is a CMYK output profile."""
    try:
        size = path.stat().st_size
        if size > MAX_ICC_BYTES:
            raise IccError(_("is {n} MB; an ICC profile is at most {n2} MB",
                             n=size // (1024 * 1024), n2=MAX_ICC_BYTES // (1024 * 1024)))
        data = path.read_bytes()
    except OSError as exc:
        raise IccError(_("cannot be read ({value})", value=exc.strerror or exc)) from None
    if len(data) < 128 or data[36:40] != b"acsp":
        raise IccError(_("is not an ICC profile"))
    space, kind = data[16:20].decode("latin-1").strip(), data[12:16]
    if space != "CMYK":
        raise IccError(_("is {a_space} profile; a CMYK export needs a CMYK printer (output) "
                         "profile, such as your print shop's Japan Color 2001 Coated",
                         a_space=("an " if space[:1] in "AEFHILMNORSX" else "a ") + space))
    if kind != b"prtr":
        raise IccError(_("is a CMYK profile but not a printer (output) profile"))
    from PIL import ImageCms  # littleCMS: only when a CMYK export is asked for
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
        description = (ImageCms.getProfileDescription(profile) or path.stem).strip()
    except (OSError, ImageCms.PyCMSError) as exc:
        raise IccError(_("cannot be read by littleCMS ({exc})", exc=exc)) from None
    try:
        cmyk_transform(data)  # what the export does with it: its tables must be sound
    except (OSError, ImageCms.PyCMSError):
        raise IccError(_("is damaged: its header is sound, but its colour tables are not "
                         "(littleCMS cannot convert colours with it); get the profile again "
                         "from its maker")) \
            from None
    return description


def resolve_export(name: str, doc: Document, root: Path, display, report: Report,
                   icc_override: Path | None = None) -> ExportProfile | None:
    """The profile, or None with located errors. `icc_override` (--icc) replaces the
    profile's `icc:`; a bad one is a usage error naming the option."""
    d = doc.data
    errors = len(report.errors)
    what = _("export profile '{name}'", name=name)
    fmt = d.get("format", "pdf")
    own = FORMATS[fmt]  # what the format gives where the profile says nothing
    # Each key as declared once (formats.PROFILE), the format's own defaults standing in
    read = Reader({**{k: v for k, v in own.DEFAULTS.items() if k not in d}, **d}, doc.locate,
                  what, report)
    v = read.options(PROFILE)
    sizes = _sizes(name, doc, v["dpi"], report)
    if icc_override is not None and v["color"] != "cmyk":
        raise UsageError(_("--icc: export profile '{name}' writes RGB {upper} files, which take "
                           "no CMYK profile; use --icc with a CMYK profile such as jp-print",
                           name=name, upper=fmt.upper()))
    icc, condition = (_icc(name, doc, root, display, report, icc_override, v["output_condition"])
                      if v["color"] == "cmyk" else (None, v["output_condition"]))
    _check_rich_black(name, doc, v["rich_black"], v["max_ink"], report)
    if v["rulebook"] != "none" and own.RASTER:  # (boards are pictures of their own size)
        report.error(_("export profile '{name}' makes {upper} pictures of cards at a "
                       "service's template sizes, which take no {key}: remove {key}:",
                       name=name, upper=fmt.upper(), key="rulebook"),
                     doc.locate(("rulebook",)), "export")
    if len(report.errors) > errors:
        return None
    return ExportProfile(
        name=name, format=fmt, icc=icc, output_condition=condition, sizes=tuple(sizes),
        loc=doc.locate(()), raster=own.RASTER, extension=own.EXTENSION,
        **{k: v[k] for k in ("description", "bleed", "safe", "marks", "color", "black_text",
                             "min_image_dpi", "max_ink", "rich_black", "overprint", "boards",
                             "rulebook", "dpi", "tolerance")})


def _sizes(name: str, doc: Document, dpi: int, report: Report) -> list[ExportSize]:
    """A picture profile's template sizes, each checked against the profile's dpi."""
    sizes = []
    for i, raw in enumerate(doc.data.get("sizes") or []):
        at, where = doc.locate(("sizes", i)), doc.locate(("sizes", i, "pixels"))
        try:
            trim = (parse_length(raw["trim"][0]), parse_length(raw["trim"][1]))
        except ValueError as exc:
            report.error(_("export profile '{name}': size '{raw}': trim: {exc}",
                           name=name, raw=raw['name'], exc=exc),
                         doc.locate(("sizes", i, "trim")), "units")
            continue
        if min(trim) <= 0:
            report.error(_("export profile '{name}': size '{raw}': the trim must be more than 0 "
                           "wide and tall", name=name, raw=raw['name']),
                         doc.locate(("sizes", i, "trim")), "export")
            continue
        pixels = tuple(raw["pixels"])
        around = max((p / dpi * 72 - t) / 2 for t, p in zip(trim, pixels))
        if pixels[0] * pixels[1] > MAX_PIXELS:
            report.error(_("export profile '{name}': size '{raw}': {pixels} x {pixels2} pixels is "
                           "more than an image may have ({n} megapixels)",
                           name=name, raw=raw['name'], pixels=pixels[0], pixels2=pixels[1],
                           n=MAX_PIXELS // 1000000), where, "export")
        elif around > MAX_TEMPLATE_BLEED:  # a face would be drawn at this size, and mostly bleed
            report.error(_("export profile '{name}': size '{raw}': {pixels} x {pixels2} pixels at "
                           "{dpi} dpi leave {n:.2f} in of bleed around its {trim} trim; a "
                           "template's bleed is at most {n2:g} in (are the pixels or the dpi "
                           "wrong?)", name=name, raw=raw['name'], pixels=pixels[0],
                           pixels2=pixels[1], dpi=dpi, n=around / 72, trim=show_size(trim, 'in'),
                           n2=MAX_TEMPLATE_BLEED / 72), where, "export")
        for t, p in zip(trim, pixels):
            if p < t / 72 * dpi - 0.5:
                report.error(_("export profile '{name}': size '{raw}': {p} pixels are less than "
                               "its trim at {dpi} dpi ({n:.1f}); give the template's size "
                               "with its bleed", name=name, raw=raw['name'], p=p, dpi=dpi,
                               n=t / 72 * dpi), where, "export")
        sizes.append(ExportSize(raw["name"], trim, pixels, at))
    return sizes


def _icc(name: str, doc: Document, root: Path, display, report: Report,
         icc_override: Path | None, condition: str | None) -> tuple[str | None, str]:
    """(the ICC output profile's path, the output condition) of a CMYK profile: --icc's, or
    the profile's `icc:` found inside the project and read."""
    d, condition = doc.data, str(condition or "")
    if icc_override is not None:
        shown = str(icc_override)
        if not icc_override.is_file():
            raise UsageError(_("--icc {shown}: no such file", shown=shown))
        try:
            description = icc_description(icc_override)
        except IccError as exc:
            raise UsageError(_("--icc {shown} {exc}", shown=shown, exc=exc)) from None
        return str(icc_override.resolve()), description
    if "icc" not in d:
        report.error(_("export profile '{name}' prints CMYK but names no ICC output profile: "
                       "add icc: with the profile file (or pass --icc)",
                       name=name), doc.locate(()), "export")
        return None, condition
    at = doc.locate(("icc",))
    try:
        path = inside(root, d["icc"])
    except Outside as exc:
        report.error(exc.sentence(_("ICC profile '{file}'", file=d['icc']),
                                  _("the project folder")), at, "path")
        return None, condition
    if not path.is_file():
        report.error(_("export profile '{name}': the ICC profile '{d}' does not exist "
                       "({display})", name=name, d=d['icc'], display=display(root / d['icc'])),
                     at, "path")
        return None, condition
    try:
        description = icc_description(path)
    except IccError as exc:
        report.error(_("export profile '{name}': the ICC profile '{d}' {exc}",
                       name=name, d=d['icc'], exc=exc), at, "export")
        return None, condition
    return str(path), condition or description


def _check_rich_black(name: str, doc: Document, rich_black, max_ink: int,
                      report: Report) -> None:
    """A rich black is written in CMYK, and within the profile's ink limit."""
    if rich_black is not None and len(rich_black) != 4:
        report.error(_("export profile '{name}': rich_black must be written as cmyk(c, m, y, k), "
                       "the plates a large black area prints with",
                       name=name), doc.locate(("rich_black",)), "export")
    elif rich_black is not None and sum(rich_black) * 100 > max_ink + 0.05:
        report.error(_("export profile '{name}': rich_black {d} is {n:.0f} % of ink, more than "
                       "the profile's max_ink of {max_ink} %",
                       name=name, d=doc.data['rich_black'], n=sum(rich_black) * 100,
                       max_ink=max_ink), doc.locate(("rich_black",)), "export")
