"""The preview's pictures drawn at their own resolutions: the gallery's cards (GALLERY_DPI),
a card opened or shown on a screen of twice the pixels (ZOOM_DPI, with its guides when
asked), a rulebook or board page opened to be read (LARGE_DPI)."""

from __future__ import annotations

import re


GALLERY_DPI = 80  # the gallery's pictures (a screen of a higher pixel ratio: ZOOM_DPI's)
LARGE_DPI = 150  # a rulebook or board page opened to be read (shown at 60 and 40 dpi)


def large_page(preview, name: str) -> bytes | None:  # (preview: the server's Preview)
    """A rulebook or board page of the last good build drawn at LARGE_DPI, when it is first
    opened (by name only; None for a name the build did not make)."""
    from ..write.png import pdf_to_pngs, rasterise
    with preview.lock:
        source, drawn = preview.large.get(name), preview.drawn_large.get(name)
    if drawn is not None or source is None:
        return drawn
    if source[0] == "pdf":
        import io
        from ..write.pdfium import opened
        out = io.BytesIO()
        with opened(source[1]) as document, opened() as single:
            single.import_pages(document, [source[2]])
            single.save(out)
        data = pdf_to_pngs(out.getvalue(), LARGE_DPI)[0]
    else:
        data = rasterise([source[1]], LARGE_DPI, source[2])[0]
    with preview.lock:
        if preview.large.get(name) is source:  # (not a page of a build since)
            preview.drawn_large[name] = data
    return data


# A zoomed face is shown at its print size (96 CSS px to the inch): drawn at 200 dpi, it has
# more than two image pixels for each CSS pixel, sharp on a 2x display too.
ZOOM_DPI = 200


def with_guides(game, name: str):
    """The face an image name stands for (<deck>/<card>-<side>.png), laid out again with
    its guides (the trim in red, the bleed and safe lines, every element's box and name, as
    `build --guides` draws them), or None."""
    from dataclasses import replace
    from ..layout import layout_game
    from ..problems import Report
    found = re.fullmatch(r"([^/]+)/(.+)-(front|back)\.png", name)
    if game is None or found is None:
        return None
    deck_id, card_id, side = found.groups()
    deck = next((d for d in game.decks if d.id == deck_id), None)
    if deck is None:
        return None
    card = next((c for c in deck.cards if c.id == card_id), None)
    if card is None:
        return None
    one = replace(game, decks=(replace(deck, cards=(card,)),), boards=())
    faces = layout_game(one, Report(), guides=True)
    laid = faces.decks[0].fronts if side == "front" else faces.decks[0].backs
    return laid.get(card_id)


def zoomed(preview, face) -> bytes:  # (preview: the server's Preview)
    """A card face as PNG at ZOOM_DPI, drawn once (the PNG cache keeps it) and, with the
    others asked for at once, in one go (gallery.Gallery.picture)."""
    from ..write.png import face_key
    return preview.gallery.picture(face_key(face, ZOOM_DPI, False), face, ZOOM_DPI)
