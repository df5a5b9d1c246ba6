"""The `cardgen` command: `python -m generator`, and the `cardgen` script."""

import gc
import sys

from .startup import guard, say_interrupted, standard_streams


def main() -> None:
    # The interrupt's guard first: Ctrl-C while the modules load (a second, longer on a
    # busy machine) ends the run in cardgen's own line, not in a traceback (startup.py).
    guard()
    standard_streams()  # a closed stderr (2>&-) on the null device, not an internal error
    try:
        # Python's cycle collector is off from the start: loading cardgen's modules makes
        # thousands of objects and nothing to collect (see cli.run, which decides for the rest).
        gc.disable()
        from .cli import run

        run()
    except KeyboardInterrupt:  # before the command began, or after it ended
        sys.exit(say_interrupted(sys.argv[1:]))


if __name__ == "__main__":
    main()
