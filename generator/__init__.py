"""cardgen: print-ready card sheets, boards and rulebooks from YAML game data.

The package is the pipeline, one module or package per stage, in order:
load -> resolve -> validate -> layout -> impose -> write, with `rulebook` branching off
after validate (`pipeline` runs them; `cli` is the command). An earlier stage never
imports a later one. `draw` is the drawing library that `write` and `rulebook` call.
"""

__version__ = "0.1.0"
