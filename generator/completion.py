"""Shell completion: `cardgen completion bash|zsh|fish` prints a script for the shell.

The commands and each command's options come from the command line's own parser (one
definition); the names a project has (games, decks, print targets, export profiles,
printer profiles, sheet presets) are asked of cardgen as the user types, by the hidden
`cardgen _complete WHAT`, which reads the project's files with the one YAML reader and
prints nothing it cannot read.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Protocol

from .load import Project, target_names
from .load.yamlfile import load_yaml
from .paths import is_name
from .problems import Report

SHELLS = ("bash", "zsh", "fish")
# What follows an option: the project's names it completes with (`cardgen _complete WHAT`).
VALUES = {"--profile": "profiles", "--target": "targets", "--deck": "decks",
          "--decks": "decks", "--printer": "printers", "--sheet": "sheets"}


class _Command(Protocol):
    """A command's parser that keeps its options and their help (cli.parser's)."""

    @property
    def options(self) -> list[tuple[tuple[str, ...], str | None]]: ...


class Commands(Protocol):
    """The command line's parser, which keeps its commands' parsers (cli.parser's)."""

    @property
    def commands(self) -> Mapping[str, _Command]: ...


def commands(parser: Commands) -> dict[str, list[tuple[str, str]]]:
    """Each command and its options with their help: {command: [(option, help), ...]}."""
    return {name: [(o, words or "") for names, words in sub.options for o in names
                   if o.startswith("--") and words != argparse.SUPPRESS]
            for name, sub in parser.commands.items()}


def names(project: Project, what: str) -> list[str]:
    """The project's names of one kind, for the shell to offer."""
    if what == "games":
        return project.games()
    if what == "profiles":
        return [name for name in project.names("layouts/exports") if is_name(name)]
    if what == "sheets":
        return [name for name in project.names("layouts/sheets") if is_name(name)]
    if what == "printers":
        return _printers(project)
    if what == "targets":
        return sorted({t for game in project.games() for t in target_names(project, game)})
    if what == "decks":
        found = set()
        for game in project.games():
            path = project.game_folder(game) / "game.yaml"
            doc = load_yaml(path, project.display(path), Report()) if path.is_file() else None
            decks = doc.data.get("decks") if doc is not None and isinstance(doc.data, dict) \
                else None
            for deck in decks if isinstance(decks, list) else ():
                if isinstance(deck, dict) and isinstance(deck.get("id"), str) \
                        and is_name(deck["id"]):
                    found.add(deck["id"])
        return sorted(found)
    return []


def script(shell: str, parser: Commands) -> str:
    """The completion script for `shell`."""
    table = commands(parser)
    if shell == "fish":
        return _fish(table)
    bash = _bash(table)
    if shell == "zsh":  # zsh runs the bash completion through bashcompinit
        return "autoload -U +X bashcompinit && bashcompinit\n" + bash
    return bash


def _bash(table: dict) -> str:
    options = "\n".join(f"    {name}) opts=\"{' '.join(o for o, _ in opts)}\" ;;"
                        for name, opts in table.items())
    values = "|".join(VALUES)
    cases = "\n".join(f"      {option}) what={what} ;;" for option, what in VALUES.items())
    return f"""# cardgen completion for bash: eval "$(cardgen completion bash)"
_cardgen() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  local cmd="${{COMP_WORDS[1]}}" opts="" what=games
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{' '.join(table)} --version --help" -- "$cur")); return
  fi
  case "$cmd" in
{options}
  esac
  case "$prev" in
    {values})
      case "$prev" in
{cases}
      esac
      COMPREPLY=($(compgen -W "$(cardgen _complete $what 2>/dev/null)" -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur")); return
  fi
  COMPREPLY=($(compgen -W "$(cardgen _complete games 2>/dev/null)" -- "$cur"))
}}
complete -F _cardgen cardgen
"""


def _fish(table: dict) -> str:
    def quoted(text: str) -> str:
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    lines = ["# cardgen completion for fish: cardgen completion fish | source",
             "complete -c cardgen -f",
             f"complete -c cardgen -n __fish_use_subcommand -a {quoted(' '.join(table))}",
             "complete -c cardgen -n 'not __fish_use_subcommand' -a '(cardgen _complete games "
             "2>/dev/null)'"]
    for name, opts in table.items():
        for option, words in opts:
            line = f"complete -c cardgen -n '__fish_seen_subcommand_from {name}' -l {option[2:]}"
            if option in VALUES:
                line += f" -r -a '(cardgen _complete {VALUES[option]} 2>/dev/null)'"
            lines.append(line + (f" -d {quoted(words[:60])}" if words else ""))
    return "\n".join(lines) + "\n"


def _printers(project: Project) -> list[str]:
    """The printers of the project's layouts/printers.yaml and of cardgen's."""
    found: set[str] = set()
    for path in (project.root / "layouts/printers.yaml",
                 project.shipped_file("layouts/printers.yaml")):
        doc = load_yaml(path, "layouts/printers.yaml", Report()) \
            if path is not None and path.is_file() else None
        printers = doc.data.get("printers") if doc is not None and isinstance(doc.data, dict) \
            else None
        if isinstance(printers, dict):
            found.update(k for k in printers if isinstance(k, str) and is_name(k))
    return sorted(found)
