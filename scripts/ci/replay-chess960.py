#!/usr/bin/env python3
"""Replays every game of a Chess960 PGN with python-chess (an independent referee): each game
must carry [Variant "Chess960"], start from its FEN, and consist of legal moves only.

Usage: replay-chess960.py GAMES.pgn   (needs the `chess` package: pip install chess)
"""
import sys

import chess.pgn


def main():
    games = castles = 0
    with open(sys.argv[1]) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            where = f"game {games + 1} (round {game.headers.get('Round')})"
            if game.headers.get("Variant") != "Chess960":
                sys.exit(f"{where}: no [Variant \"Chess960\"] tag")
            if game.errors:
                sys.exit(f"{where}: {game.errors}")
            board = game.board()
            if not board.chess960:
                sys.exit(f"{where}: python-chess did not read it as Chess960")
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    sys.exit(f"{where}: illegal move {move} in {board.fen()}")
                castles += board.is_castling(move)
                board.push(move)
            games += 1
    if games == 0:
        sys.exit("no games")
    print(f"{games} games replayed by python-chess {chess.__version__}, "
          f"{castles} castlings, no errors")


if __name__ == "__main__":
    main()
