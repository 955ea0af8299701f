"""Playing in the terminal: moves typed in the game's notation, computer seats played by the
agents of nomv/ai.

This is the text front end of ``nomv play``; it never loses the game on bad input.
"""
from __future__ import annotations

import random
from typing import Callable, TextIO

from .ai import make_agent, parse_players
from .errors import NomvError
from .game import Position

HELP = """Type a move in the game's notation, or one of:
  moves        list the legal moves
  undo         take back your last move (and the computer's reply)
  redo         play again a move taken back
  save FILE    save the game record
  help         this text
  quit         stop (save first with 'save FILE' to keep the game)"""


def parse_seats(text: str | None, players: int) -> list[str]:
    """'human,mcts:2s' -> one seat per player; missing seats are computer players."""
    return parse_players(text, players)


def play_text(pos: Position, seats: list[str], read: Callable[[str], str] | None = None,
              out: TextIO | None = None, rng: random.Random | None = None) -> int:
    import sys
    out = out or sys.stdout
    read = read or input
    rng = rng or random.Random(pos.seed)
    names = pos.game.players

    def say(*parts: object) -> None:
        print(*parts, file=out, flush=True)

    say(f"{pos.game.title}: {', '.join(f'{names.name(p + 1)} ({s})' for p, s in enumerate(seats))}."
        " Type 'help' for commands.")
    shown = -1
    agents = {}   # computer seats, kept for the whole game (their search trees carry over)
    while True:
        if shown != pos.ply:
            say()
            say(pos.text())
            shown = pos.ply
        outcome = pos.outcome()
        if outcome is not None:
            say(f"\nGame over: {outcome.describe(names)}")
            return 0
        player = pos.to_move
        if seats[player - 1] != "human":
            if player not in agents:
                agents[player] = make_agent(seats[player - 1], rng.randrange(2**31))
            move = agents[player].choose(pos)
            text = pos.notation(move)
            pos.play(move)
            last = agents[player].last
            expects = f" (expects {round(100 * last['value'])}%)" if last and "value" in last else ""
            say(f"{names.name(player)} plays {text}{expects}")
            continue
        try:
            line = read(f"{names.name(player)}> ").strip()
        except EOFError:
            say()
            return 0
        if not line:
            continue
        word, _, rest = line.partition(" ")
        try:
            if word == "quit":
                return 0
            elif word == "help":
                say(HELP)
            elif word == "moves":
                say(" ".join(pos.notations()))
            elif word == "undo":
                if pos.ply == 0:
                    say("nothing to undo")
                    continue
                pos.undo()
                while pos.ply and seats[pos.to_move - 1] != "human":
                    pos.undo()
                shown = -1
            elif word == "redo":
                # Undo took back the computer's replies too: bring them back with your move.
                pos.redo()
                while pos.can_redo and pos.to_move is not None and seats[pos.to_move - 1] != "human":
                    pos.redo()
            elif word == "save":
                if not rest:
                    say("save needs a file name: save FILE")
                    continue
                pos.record(players=seats).save(rest.strip())
                say(f"saved to {rest.strip()}")
            else:
                pos.play(line)
        except (NomvError, OSError) as exc:
            say(f"{exc}")
