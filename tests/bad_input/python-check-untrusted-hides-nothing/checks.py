def check_two_players_only(game, report):
    for i, row in enumerate(game.data["setup"]["tables"]):
        if row["players"] != 3:
            report.error(f"{row['players']} players: this game is for 3", at=("setup", "tables", i, "players"))
    for card in game.cards():
        if card.copies < 3:
            report.warning(f"card '{card.id}': only {card.copies} copies", at=card)
