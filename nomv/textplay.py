"""Playing in the terminal: moves typed in the game's notation, computer seats played by the
agents of nomv/ai.

This is the text front end of ``nomv play``; it never loses the game on bad input.  It speaks
the window's languages (``--lang``), the script's own texts included where the script gives
them in several.
"""
from __future__ import annotations

import random
from typing import Callable, TextIO

from .ai import make_agent, parse_players
from .errors import NomvError
from .game import Position
from .gui import i18n
from .gui.i18n import _
from .gui.labels import describe_outcome, game_title, player_name
from .record import Record
from .scenetext import scene_text


def help_text() -> str:
    return "\n".join([
        _("Type a move in the game's notation, or one of:"),
        "  moves        " + _("list the legal moves"),
        "  undo         " + _("take back your last move (and the computer's reply)"),
        "  redo         " + _("play again a move taken back"),
        "  save FILE    " + _("save the game record"),
        "  help         " + _("this text"),
        "  quit         " + _("stop (save first with 'save FILE' to keep the game)")])


def parse_seats(text: str | None, players: int) -> list[str]:
    """'human,mcts:2s' -> one seat per player; missing seats are computer players."""
    return parse_players(text, players)


def play_text(pos: Position, seats: list[str], read: Callable[[str], str] | None = None,
              out: TextIO | None = None, rng: random.Random | None = None, lang: str | None = None) -> int:
    import sys
    if lang is not None or not i18n.configured:
        i18n.setup(lang)
    out = out or sys.stdout
    read = read or input
    rng = rng or random.Random(pos.seed)
    game = pos.game

    def say(*parts: object) -> None:
        print(*parts, file=out, flush=True)

    def name(p: int) -> str:
        return player_name(game, p)

    def picture(player: int | None) -> str:
        """The position as text: the game's own text() with the scene's status under it, or a
        picture of the scene; in the player's language where the script gives several."""
        try:
            scene = pos.scene(player=player)
        except NomvError:
            scene = {}
        if "text" in game.hooks:
            status = i18n.localized(scene.get("status"))
            return pos.text(player) + ("\n" + status if status else "")
        return scene_text(scene, i18n.language) or pos.text(player)

    seated = ", ".join(f"{name(p + 1)} ({s})" for p, s in enumerate(seats))
    say(_("{title}: {players}. Type 'help' for commands.").format(title=game_title(game), players=seated))
    shown: object = -1
    agents = {}   # computer seats, kept for the whole game (their search trees carry over)
    failed = -1   # the ply at which a computer player failed: the people decide what next
    humans = [p for p in range(1, pos.players + 1) if seats[p - 1] == "human"]
    hidden = "view" in game.hooks
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
            say(picture(viewer if hidden and outcome is None and viewer else None))
            shown = (pos.ply, viewer)
        if outcome is not None:
            say("\n" + _("Game over: {result}").format(result=describe_outcome(game, outcome)))
            return 0
        assert player is not None, "a game that has not ended has a player to move (nil there is the checker's E063)"
        if seats[player - 1] != "human" and failed != pos.ply:
            try:
                if player not in agents:
                    agents[player] = make_agent(seats[player - 1], rng.randrange(2**31))
                move = agents[player].choose(pos)
                text = pos.notation(move)
                pos.play(move)
            except NomvError as exc:
                failed = pos.ply
                say(_("The computer player ({kind}) failed: {error}").format(kind=seats[player - 1], error=exc))
                say(_("Type its move yourself, or 'undo', 'save FILE' or 'quit'."))
                continue
            last = agents[player].last
            if last and "value" in last:
                say(_("{name} plays {move} (expects {percent}%)").format(
                    name=name(player), move=text, percent=round(100 * last["value"])))
            else:
                say(_("{name} plays {move}").format(name=name(player), move=text))
            continue
        try:
            line = read(f"{name(player)}> ").strip()
        except EOFError:
            say()
            return 0
        if not line:
            continue
        word, _sep, rest = line.partition(" ")
        try:
            if word == "quit":
                return 0
            elif word == "help":
                say(help_text())
            elif word == "moves":
                say(" ".join(pos.notations()))
            elif word == "undo":
                if pos.ply == 0:
                    say(_("nothing to undo"))
                    continue
                pos.undo()
                while pos.ply and pos.to_move is not None and seats[pos.to_move - 1] != "human":
                    pos.undo()
                shown = -1
            elif word == "redo":
                # Undo took back the computer's replies too: bring them back with your move.
                pos.redo()
                while pos.can_redo and pos.to_move is not None and seats[pos.to_move - 1] != "human":
                    pos.redo()
            elif word == "save":
                if not rest:
                    say(_("save needs a file name: save FILE"))
                    continue
                Record.from_position(pos, players=seats).save(rest.strip())
                say(_("saved to {path}").format(path=rest.strip()))
            else:
                pos.play(line)
        except (NomvError, OSError) as exc:
            say(f"{exc}")
