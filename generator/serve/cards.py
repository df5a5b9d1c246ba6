"""The preview's gallery: each card's entry on the page (its id, deck, copies, size, drafts
and fields as written), and which of its faces are drawn now or held at their last good
pictures."""

from __future__ import annotations


def card_entries(faces, faulty: set, last: dict, before: dict) -> tuple[list, list, list]:
    """Each card's entry on the page, and the faces to draw (their picture names, in order):
    a card in `faulty`, or not laid out, is held at its last good pictures if it has them."""
    order, face_list, cards = [], [], []
    for deck in faces.decks:
        for card in deck.deck.cards:
            names = {side: f"{deck.deck.id}/{card.id}-{side}.png" for side in ("front", "back")}
            laid = card.id in deck.fronts and card.id in deck.backs
            had = all(n in last for n in names.values())
            if not laid and not had:
                continue  # not laid out (a bad value), and never shown before: its problems say
            entry = card_entry(deck, card, before.get(card.id, {}))
            entry.update(names)
            if (card.id in faulty or not laid) and had:
                entry["held"] = True  # its last good version: its problems say why
            else:
                for side, face in (("front", deck.fronts[card.id]), ("back", deck.backs[card.id])):
                    order.append(names[side])
                    face_list.append(face)
            cards.append(entry)
    return order, face_list, cards


def card_entry(deck, card, shown: dict) -> dict:
    """What the page shows of a card; `shown`: as last published (a held card's size)."""
    face = deck.fronts.get(card.id)
    return {"id": card.id, "deck": deck.deck.id, "copies": card.copies,
            "name": str(card.fields.get("name", card.id)),
            "w_mm": round(face.width / 72 * 25.4, 2) if face else shown.get("w_mm", 0),
            "h_mm": round(face.height / 72 * 25.4, 2) if face else shown.get("h_mm", 0),
            "draft": bool(card.drafts()),
            "fields": {k: as_written(v) for k, v in card.fields.items()}}


def as_written(value) -> str:
    """A card's value as the designer wrote it in YAML: [japanese, beowulf], true, 3; not
    Python's ['japanese', 'beowulf'] or True."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:  # the common scalars, without an emitter
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, int):
        return str(value)
    import yaml
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True,
                          width=10 ** 6).strip().removesuffix("...").strip()
