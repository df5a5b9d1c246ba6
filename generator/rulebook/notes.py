"""Boxes the rulebook sets a blockquote in: a note of the rules (`> ...`), and what the
game's editor adds (`> [!EDITOR]`), labelled and grey, so that it is never read as one of
the game's rules (docs/rulebook.md)."""

from __future__ import annotations

import re

from reportlab.platypus import Table

from ..model import EDITOR_NOTE
from .tables import table_style

EDITOR_GREY = (0.42, 0.42, 0.42)
_EDITOR = re.compile(r"^\s*\[!EDITOR\]\s*")


def is_editor_note(tokens, i: int) -> bool:
    """Whether the blockquote opening at tokens[i] is an editor's note (its first line is
    `[!EDITOR]`); the marker is taken out of its text."""
    if i + 2 >= len(tokens) or tokens[i + 1].type != "paragraph_open":
        return False
    inline = tokens[i + 2]
    if not _EDITOR.match(inline.content or ""):
        return False
    first = next((c for c in inline.children or [] if c.type == "text"), None)
    if first is not None:
        first.content = _EDITOR.sub("", first.content, count=1)
    while inline.children and (inline.children[0].type in ("softbreak", "hardbreak") or
                               inline.children[0].type == "text"
                               and not inline.children[0].content):
        inline.children.pop(0)
    return True


def note_box(setter, inner: list):
    """A note of the rules: on the accent's lightest tint, a rule of the accent at its left."""
    look = setter.look
    light = tuple(1 - (1 - c) * 0.1 for c in look.accent[:3])
    box = Table([[inner]], colWidths=[setter.width])
    box.setStyle(table_style(look, [
        ("BACKGROUND", (0, 0), (-1, -1), light),
        ("LINEBEFORE", (0, 0), (0, -1), 2.5, look.accent),
        ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
    ]))
    box.spaceAfter = look.size
    return box


def editor_box(setter, inner: list):
    """What the editor adds: under its label (model.EDITOR_NOTE, in the rulebook's
    language), in grey, in a dashed frame."""
    look = setter.look
    label = setter.text(f"<b>{EDITOR_NOTE[setter.lang]}</b>", look.size * 0.9, look.body,
                        color=EDITOR_GREY, align="left", after=look.size * 0.3)
    for flow in inner:  # its paragraphs in grey, as the label
        if hasattr(flow, "atoms"):
            flow.atoms = [a._replace(color=EDITOR_GREY) for a in flow.atoms]
    box = Table([[[label, *inner]]], colWidths=[setter.width])
    box.setStyle(table_style(look, [
        ("BOX", (0, 0), (-1, -1), 0.6, EDITOR_GREY, None, (2, 2)),
        ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
    ]))
    box.spaceAfter = look.size
    return box
