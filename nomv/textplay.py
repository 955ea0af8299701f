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
from .record import Record

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
    failed = -1   # the ply at which a computer player failed: the people decide what next
    humans = [p for p in range(1, pos.players + 1) if seats[p - 1] == "human"]
    hidden = "view" in pos.game.hooks
    viewer = humans[0] if humans else None
    while True:
        outcome = pos.outcome()
        player = pos.to_move
        if hidden and outcome is None and player in humans:
            viewer = player
        if shown != (pos.ply, viewer):
            say()
            # Hidden information (Knownads' targets): show what the person at the keyboard may
            # see; everything once the game is over.
            say(pos.text(viewer if hidden and outcome is None and viewer else None))
            shown = (pos.ply, viewer)
        if outcome is not None:
            say(f"\nGame over: {outcome.describe(names)}")
            return 0
        if seats[player - 1] != "human" and failed != pos.ply:
            try:
                if player not in agents:
                    agents[player] = make_agent(seats[player - 1], rng.randrange(2**31))
                move = agents[player].choose(pos)
                text = pos.notation(move)
                pos.play(move)
            except NomvError as exc:
                failed = pos.ply
                say(f"The computer player ({seats[player - 1]}) failed: {exc}")
                say("Type its move yourself, or 'undo', 'save FILE' or 'quit'.")
                continue
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
                Record.from_position(pos, players=seats).save(rest.strip())
                say(f"saved to {rest.strip()}")
            else:
                pos.play(line)
        except (NomvError, OSError) as exc:
            say(f"{exc}")
