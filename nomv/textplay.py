"""Playing in the terminal: moves typed in the game's notation, computer seats played by the
agents of nomv/ai.

This is the text front end of ``nomv play``; it never loses the game on bad input.  It speaks
the window's languages (``--lang``), the script's own texts included where the script gives
them in several.
"""
from __future__ import annotations

import random
import shutil
import time
from pathlib import Path
from typing import Any, Callable, TextIO

from .ai import make_agent, parse_players
from .autosave import replaced_dir
from .errors import NomvError
from .game import Outcome, Position
from .play import words, wording
from .play.match import ENDED, RUNNING, MatchView, Result, window_seats
from .play.words import _, language, localized
from .record import Record
from .scenetext import scene_text


def help_text() -> str:
    return "\n".join([
        _("Type a move in the game's notation, or one of:"),
        "  moves        " + _("list the legal moves"),
        "  undo         " + _("take back your last move (and the computer's reply)"),
        "  redo         " + _("play again a move taken back"),
        "  save FILE    " + _("save the game record"),
        "  resume       " + _("go on with the unfinished game autosaved earlier (when one is offered)"),
        "  help         " + _("this text"),
        "  quit         " + _("stop (save first with 'save FILE' to keep the game)")])


def parse_seats(text: str | None, players: int) -> list[str]:
    """'human,mcts:2s' -> one seat per player; missing seats are computer players."""
    return parse_players(text, players)


def play_text(pos: Position, seats: list[str], read: Callable[[str], str] | None = None,
              out: TextIO | None = None, rng: random.Random | None = None, lang: str | None = None,
              autosave: Path | None = None, resume: Record | None = None) -> int:
    """Plays in the terminal until the game ends or the player quits.

    ``autosave``: a file the game is saved to after every change (the window's autosave, so
    either front end resumes it).  ``resume``: an unfinished game found there, offered with
    the ``resume`` command until the first move of this one."""
    import sys
    if lang is not None or not words.configured:
        words.setup(lang)
    out = out or sys.stdout
    read = read or input
    rng = rng or random.Random(pos.seed)
    game = pos.game

    def say(*parts: object) -> None:
        print(*parts, file=out, flush=True)

    def match(outcome: Outcome | None = None, player: int | None = None) -> MatchView:
        """The game as the person at the keyboard sees it (nomv.play.match), for the wording."""
        seats = window_seats(game.players.name_texts, seats_now[0], game.players.colours)
        result = None if outcome is None else Result(outcome.ranks, outcome.scores, outcome.reason)
        return MatchView(seats, ENDED if result else RUNNING, player, result, ply=pos.ply)

    def name(p: int) -> str:
        return wording.role(match().seat(p), language())

    def picture(player: int | None) -> str:
        """The position as text: the game's own text() with the scene's status under it, or a
        picture of the scene; in the player's language where the script gives several.  When
        the script's text() fails, the picture of the scene stands in (the error is shown)."""
        try:
            scene = pos.scene(player=player)
        except NomvError as exc:   # the state as text stands in; the player sees why
            scene = {}
            say(_("The script failed: {error}").format(error=exc))
        if "text" in game.hooks:
            status = localized(scene.get("status"))
            try:
                return pos.text(player) + ("\n" + status if status else "")
            except NomvError as exc:
                say(_("The script failed: {error}").format(error=exc))
        seats = [(game.players.name(p, language()), game.players.colours[p - 1])
                 for p in range(1, min(pos.players, len(game.players.colours)) + 1)]
        return scene_text(scene, language(), seats) or (pos.text(player) if "text" not in game.hooks else "")

    def save_autosave() -> None:
        nonlocal resume
        if autosave is None:
            return
        try:
            if resume is not None and autosave.is_file():
                # The unfinished game offered is replaced by this one: kept, as the window does.
                keep = replaced_dir(autosave) / f"{time.strftime('%Y%m%d-%H%M%S')}-{resume.game}.json"
                keep.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(autosave, keep)
                resume = None
            autosave.parent.mkdir(parents=True, exist_ok=True)
            Record.from_position(pos, players=seats).save(autosave)
        except (OSError, NomvError) as exc:
            say(_("Autosave failed: {error}").format(error=exc))

    seats_now = [seats]   # (the seats may change with 'resume': match() reads them here)
    seated = "; ".join(f"{name(p + 1)}: {wording.player_label(match().seat(p + 1), language())}"
                       for p in range(len(seats)))
    say(_("{title}: {players}. Type 'help' for commands.").format(title=localized(game.title_text, game.name),
                                                                 players=seated))
    if resume is not None:
        say(_("An unfinished game of {game} ({moves}) was autosaved.").format(
            game=resume.game, moves=len(resume.moves)) + " " + _("Type 'resume' to go on with it."))
    shown: object = -1
    agents: dict[int, Any] = {}   # computer seats, kept for the whole game (their search trees carry over)
    failed = -1   # the ply at which a computer player failed: the people decide what next
    broken = -1   # the ply at which the script failed: the game stays, the player decides
    humans = [p for p in range(1, pos.players + 1) if seats[p - 1] == "human"]
    hidden = "view" in game.hooks
    viewer = humans[0] if humans else None
    saved = list(pos.history_notation)   # the moves autosaved last (a new game: not yet)
    while True:
        if list(pos.history_notation) != saved:
            save_autosave()
            saved = list(pos.history_notation)
        try:
            outcome = pos.outcome()
            player = pos.to_move
            if hidden and outcome is None and player in humans:
                viewer = player
            if shown != (pos.ply, viewer):
                say()
                # Hidden information (Knownads' targets): show what the person at the keyboard
                # may see; everything once the game is over.
                say(picture(viewer if hidden and outcome is None and viewer else None))
                line = wording.turn_line(match(outcome, player), language()).text
                if outcome is None and line:
                    say(line)
                shown = (pos.ply, viewer)
        except NomvError as exc:
            # A script error (or a time limit) in result, to_move or text: the game stays;
            # undo goes back to before the move that led here.
            outcome, player = None, None
            if broken != pos.ply:
                broken = pos.ply
                say(_("The script failed: {error}").format(error=exc))
                say(_("The game is kept: type 'undo', 'save FILE' or 'quit'."))
        if outcome is not None:
            say("\n" + _("Game over: {result}").format(result=wording.result_text(match(outcome), language())))
            return 0
        if player is not None and seats[player - 1] != "human" and failed != pos.ply:
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
            line = read(f"{name(player)}> " if player is not None else "> ").strip()
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
            elif word == "resume" and resume is not None:
                record = resume
                pos = record.replay(runtime=game.runtime, where="the autosave", limits=game.limits)
                game = pos.game
                seats = parse_seats(",".join(record.players or []) or None, pos.players)
                seats_now[0] = seats
                humans = [p for p in range(1, pos.players + 1) if seats[p - 1] == "human"]
                hidden = "view" in game.hooks
                viewer = humans[0] if humans else None
                agents, resume, shown, failed, broken = {}, None, -1, -1, -1
                saved = list(pos.history_notation)
                say(_("Resumed: {title}, {moves}.").format(title=localized(game.title_text, game.name),
                                                          moves=wording.count_moves(pos.ply, language())))
            elif word == "moves":
                say(" ".join(pos.notations()))
            elif word == "undo":
                if pos.ply == 0:
                    say(_("nothing to undo"))
                    continue
                pos.undo()
                while pos.ply and _computer_to_move(pos, seats):
                    pos.undo()
                shown = -1
            elif word == "redo":
                # Undo took back the computer's replies too: bring them back with your move.
                pos.redo()
                while pos.can_redo and _computer_to_move(pos, seats):
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


def _computer_to_move(pos: Position, seats: list[str]) -> bool:
    """Whether a computer seat is to move (False where the script cannot tell: the person
    decides what to do there)."""
    try:
        p = pos.to_move
    except NomvError:
        return False
    return p is not None and seats[p - 1] != "human"
