def check_broken(game, report)
    pass
