"""Which games a command runs on: the names it was given, checked (or every game of the
project), its --target checked against a game's targets, and the language a line about one
game is said in."""

from __future__ import annotations

import sys

from .. import i18n, pipeline
from ..i18n import _, shown
from ..load import Project
from ..load.targets import too_many_targets
from ..load.schema import suggest
from ..paths import NAME_RULE, is_name
from ..problems import UsageError, printable


def _target(project: Project, game_id: str, args) -> str | None:
    """The --target a command was given, checked against the game's targets."""
    if not args.target:
        return None
    names = pipeline.target_names(project, game_id)
    if args.target in names:
        return args.target
    if too_many_targets(project, game_id):
        return None  # the game is loaded as written, where the schema says how many it holds
    raise UsageError(_("game '{game_id}' has no target '{args_target}' (targets: {value})",
                       game_id=game_id, args_target=args.target,
                       value=', '.join(names) or _("none declared")))


def _games(project: Project, names: list[str]) -> list[str]:
    for name in names:
        if not is_name(name):
            raise UsageError(_("'{name}' cannot name a game: a game's name is {NAME_RULE}",
                               name=name, NAME_RULE=NAME_RULE))
    known = project.games()
    if not names:
        for folder in sorted(set(project.game_folders()) - set(known)):
            print(shown(_("cardgen: warning: {display} is not a game: its folder name must be "
                          "{NAME_RULE}; rename it",
                          display=printable(project.display(project.cards / folder)),
                          NAME_RULE=NAME_RULE)), file=sys.stderr)
    if not known:
        raise UsageError(_("no games in {display} (a game is a folder with a game.yaml)",
                           display=project.display(project.cards)))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(_("unknown game '{unknown}' ({suggest})",
                           unknown=unknown[0], suggest=suggest(unknown[0], known, 'cards/')))
    return names or known


def _in_its_language(project: Project, game_id: str):
    """Within: the language the game says it is in (the lang: line of its game.yaml, which
    holds while a file of the game does not load), where the command line and the locale
    leave it open: what a command over several games says about one of them."""
    return i18n.speaking(game=i18n.declared(project.cards / game_id / "game.yaml") or "")
