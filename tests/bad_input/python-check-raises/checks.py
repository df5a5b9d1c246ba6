def check_divides(game, report):
    total = sum(c.copies for c in game.cards())
    return total / 0
