"""The desktop GUI (pygame-ce): ``nomv play`` opens it, ``nomv render`` draws with it headless.

view.py draws scenes and finds what a pixel hits; app.py is the window and its event loop;
dialogs.py the in-window dialogs; render.py headless PNGs.  Nothing here is game-specific.
"""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # we make no sound; do not probe audio devices


def headless_if_no_display() -> None:
    """Uses SDL's dummy video driver when there is no display (for render and tests)."""
    import sys
    if "SDL_VIDEODRIVER" in os.environ:
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
