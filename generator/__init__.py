"""cardgen: print-ready card sheets, boards and rulebooks from YAML game data.

The package is the pipeline, one module or package per stage, in order:
load -> resolve -> validate -> layout -> render -> impose -> write
(`pipeline` runs them; `cli` is the command). An earlier stage never imports a later one.
"""

__version__ = "0.1.0"
