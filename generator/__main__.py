"""The `cardgen` command: `python -m generator`, and the `cardgen` script."""

import gc


def main() -> None:
    # Python's cycle collector is off from the start: loading cardgen's modules makes
    # thousands of objects and nothing to collect (see cli.run, which decides for the rest).
    gc.disable()
    from .cli import run

    run()


if __name__ == "__main__":
    main()
