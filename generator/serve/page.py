"""What the preview page is set in and lists besides the pictures: the fonts of the game's
language (page_fonts), each sent as the bytes its name stands for (font_bytes), and a
report's problems as the page shows them (as_shown; late_problems for those found after
the cards were shown)."""

from __future__ import annotations

from .. import fonts, i18n
from ..problems import DataProblems


def page_fonts(game) -> dict[str, str]:
    """The fonts the page is set in, by weight ("regular", "bold"; "fallback-regular",
    "fallback-bold" for the characters the first lack): the game's main family (gothic),
    or in a game in English the first of its families made for Latin type (one with no
    kana: the shipped latin), its Japanese from the main family. Only fonts read from a
    file (the page fetches them)."""
    main, family = game.main_family, game.main_family
    if game.lang == "en":
        family = next((f for f in game.fonts.values() if not fonts.missing_glyphs(f.regular, "A")
                       and fonts.missing_glyphs(f.regular, "あ")), main)
    weights = [("regular", family.regular), ("bold", family.bold)]
    if family is not main:
        weights += [("fallback-regular", main.regular), ("fallback-bold", main.bold)]
    return {weight: name for weight, name in weights if fonts.file_of(name) is not None}


def font_bytes(name: str) -> bytes | None:
    """The bytes a served font's name stands for (fonts.content's check, as every use of a
    font makes); None when its file was saved since: the next build serves the new one."""
    try:
        return fonts.content(name)
    except (DataProblems, fonts.FontFileError):
        return None


def as_shown(report) -> list[dict]:
    """The report's problems as the page lists them (in the language being spoken): "message"
    in English, "text" as it shows, "card" the id of the card it is about, "cards" those of
    a problem said once for many (a box most cards do not fit)."""
    return [{**p.as_dict(), "message": str(p.message), "text": p.text, "card": p.card,
             "cards": list(p.cards)} for p in report.sorted()]


def late_problems(preview, report, declared: str) -> None:
    """Problems found after the cards were shown (a rulebook past its page budget, which
    only typesetting finds), listed with the others in the language of the page (`declared`:
    the game's lang:): the build is not good, and the last good pages stay."""
    with i18n.speaking(preview.asked, game=declared):
        problems = as_shown(report)
    with preview.lock:
        preview.problems, preview.ok = preview.problems + problems, False
        preview.bump()
