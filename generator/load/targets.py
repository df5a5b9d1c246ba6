"""Print targets (`targets:` in game.yaml): which a game declares, and game.yaml and its
layouts as one target sees them."""

from __future__ import annotations

from ..values import MAX_TARGETS
from ..paths import Outside, inside, is_name
from ..problems import Report
from .project import Project
from .limits import game_limits
from .yamlfile import Document, load_yaml
from ..i18n import _


def target_names(project: Project, game_id: str) -> tuple[str, ...]:
    """The print targets a game declares (`targets:` in game.yaml), in order; () if none, or
    if game.yaml cannot be read. Read with the one YAML reader and its budgets; its problems
    are reported when the game is loaded."""
    try:
        path = inside(project.game_folder(game_id), "game.yaml")
    except Outside:
        return ()
    doc = load_yaml(path, project.display(path), Report(), limits=game_limits())
    return declared_targets(doc.data if doc is not None else None)


def too_many_targets(project: Project, game_id: str) -> bool:
    """Whether game.yaml declares more targets than a game holds (which the schema says
    where they are written, when the game is loaded as written)."""
    try:
        path = inside(project.game_folder(game_id), "game.yaml")
    except Outside:
        return False
    doc = load_yaml(path, project.display(path), Report(), limits=game_limits())
    targets = doc.data.get("targets") if doc is not None and isinstance(doc.data, dict) else None
    return isinstance(targets, dict) and len(targets) > MAX_TARGETS


def declared_targets(data) -> tuple[str, ...]:
    """The target names of game.yaml's data that can be names (in files), in order."""
    targets = data.get("targets") if isinstance(data, dict) else None
    if not isinstance(targets, dict) or len(targets) > MAX_TARGETS:  # (more: the schema says
        return ()  # so, once, where the game is loaded; not once for each of 5,000 targets)
    return tuple(name for name in targets if isinstance(name, str) and is_name(name))


def _apply_target(doc: Document, target: str, report: Report) -> Document:
    """game.yaml as one print target sees it: each deck's `sheet`, `front` and `back` taken
    from the target (its `decks:` entry for the deck first, then the target itself), each
    located where the target says it. The target's `size` is applied to the layouts when
    they are loaded (load_game)."""
    import copy
    spec = doc.data["targets"][target]
    data = copy.deepcopy(doc.data)
    decks = [d.get("id") for d in data.get("decks") or [] if isinstance(d, dict)]
    # (a value of the wrong type is the schema's to report, where it is written)
    per_deck = spec.get("decks") if isinstance(spec.get("decks"), dict) else {}
    for name in per_deck:
        if name not in decks:
            report.error(_("target '{target}': no deck '{name}' in the game (decks: {join})",
                           target=target, name=name, join=', '.join(map(str, decks))),
                         doc.locate(("targets", target, "decks", name), key=True), "reference",
                         target=target)
    value_locs, key_locs = dict(doc.value_locs), dict(doc.key_locs)
    for i, deck in enumerate(data.get("decks") or []):
        if not isinstance(deck, dict):
            continue
        own = per_deck.get(deck.get("id"))
        own = own if isinstance(own, dict) else {}
        for key in ("sheet", "front", "back"):
            source = ("targets", target, "decks", deck.get("id"), key) if key in own else \
                ("targets", target, key) if key in spec else None
            if source is None:
                continue
            deck[key] = copy.deepcopy(own[key] if key in own else spec[key])
            prefix = ("decks", i, key)
            for table in (value_locs, key_locs):
                for path in [p for p in table if p[:3] == prefix]:
                    del table[path]
            for path, where in doc.value_locs.items():
                if path[:len(source)] == source:
                    value_locs[prefix + path[len(source):]] = where
            for path, where in doc.key_locs.items():
                if path[:len(source)] == source:
                    key_locs[prefix + path[len(source):]] = where
    return Document(doc.file, data, value_locs, key_locs)


def _sized(chain: list, size, at: tuple, doc: Document) -> list:
    """A layout chain with a target's card size written on top: the layout as it is, at
    that size (its `orientation` still applies)."""
    top = Document(doc.file, {"size": size},
                   {("size",) + p[len(at):]: w for p, w in doc.value_locs.items()
                    if p[:len(at)] == at} | {(): doc.locate(at)}, {})
    return [(chain[0][0], top), *chain]
