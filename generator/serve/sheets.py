"""The preview's Sheets view: the sheets as `build` imposes them, each drawn when the page
first asks for it and kept by its identity (identity.page_identity)."""

from __future__ import annotations


def sheets_of(faces, keys: dict | None = None) -> tuple[list[dict], dict]:
    """The sheets as `build` imposes them (without a printer's offset): for each, its decks
    (two or more where decks share it) and their names, its cards and its front and back
    pages' names, with their identities as their versions; and name -> (page, identity).
    The pages are drawn when the page asks for them. `keys` (faces_to_png's `known`) gives
    the identities of the faces the gallery drew."""
    from ..identity import page_identity
    from ..impose import impose_game
    from ..write.png import identity_in
    known = {i: (face, identity_in(key)) for i, (face, key) in (keys or {}).items()}
    imposition = impose_game(faces)
    decks_of: dict[int, list[str]] = {}  # a sheet's decks, in order: two share a sheet
    for deck, numbers in imposition.decks:
        for n in numbers:
            decks_of.setdefault(n, []).append(deck)
    names = {d.deck.id: d.deck.name for d in faces.decks}
    shared: dict = {}
    sheets, pages = [], {}
    for n, (front, back) in enumerate(zip(imposition.fronts, imposition.backs), 1):
        decks = decks_of.get(n - 1, [])
        entry = {"n": n, "decks": decks, "deck_names": [names.get(d) or d for d in decks],
                 "cards": sum(1 for p in front.placements if p.label),
                 "blank": sum(1 for p in back.placements if not p.label),  # filler slots
                 "duplex": imposition.sheets[n - 1].duplex}
        for side, page in (("front", front), ("back", back)):
            name = f"sheets/{n}-{side}.png"
            pages[name] = (page, page_identity(page, shared, known))
            entry[side], entry[side + "_v"] = name, pages[name][1]
        sheets.append(entry)
    return sheets, pages


SHEET_DPI = 60  # a sheet in the sheet view: the imposition at a glance, every card readable
SHEETS_KEPT = 64  # drawn sheets the server keeps (by identity), at most


def sheet_picture(preview, name: str) -> tuple[bytes | None, str | None]:
    """A sheet of the sheet view as PNG, drawn on request and kept by its identity, and
    that identity (its URL's version: of the very sheet drawn, from one look)."""
    from ..write.png import rasterise
    with preview.lock:
        page, identity = preview.sheet_pages.get(name, (None, None))
        picture, font = preview.sheet_pictures.get(identity), preview.font
    if page is None or picture is not None:
        return picture, identity
    picture = rasterise([page], SHEET_DPI, font)[0]
    with preview.lock:
        while len(preview.sheet_pictures) >= SHEETS_KEPT:  # the first drawn goes first
            del preview.sheet_pictures[next(iter(preview.sheet_pictures))]
        preview.sheet_pictures[identity] = picture
    return picture, identity
