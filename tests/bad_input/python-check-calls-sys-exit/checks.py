import sys


def check_done(game, report):
    sys.exit(0)
