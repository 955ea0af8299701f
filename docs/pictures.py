"""Draws the window pictures of docs/gui.md: each seed game after one move of the person and the
computer's reply, in the default 1100x720 window (and, with --small, at 760x560).

    python docs/pictures.py [--small] [--lang it] [--out DIR]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

import nomv  # noqa: E402
from nomv.gui import i18n  # noqa: E402
from nomv.gui.app import App  # noqa: E402

GAMES = ["trinim", "3verse", "nipple", "nonads", "nibble"]


def picture(name: str, size: tuple[int, int], out: Path) -> Path:
    pos = nomv.Game.load(name).start(seed=3)
    app = App(pos, ["human", "mcts:1s"], size=size, autosave=None, watch=False, ai_delay=0)
    app.step()
    app.table.play_index(len(app.input.moves) // 3)      # the person's move
    app.wait_for_computer(timeout=120)                   # and the computer's reply
    # the pointer rests on a place that may be clicked
    target = sorted(app.input.next_steps)[len(app.input.next_steps) // 2] if app.input.next_steps else None
    if target is not None and target in app.view.by_id:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=app.view.centre_px(target), rel=(0, 0),
                                             buttons=(0, 0, 0)))
    app.step()
    pygame.image.save(app.screen, str(out))
    app.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="760x560 instead of 1100x720")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "images"))
    args = parser.parse_args()
    i18n.setup(args.lang)
    size = (760, 560) if args.small else (1100, 720)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = ("-small" if args.small else "") + ("" if args.lang == "en" else f"-{args.lang}")
    for name in GAMES:
        print(picture(name, size, folder / f"{name}{suffix}.png"))


if __name__ == "__main__":
    main()
