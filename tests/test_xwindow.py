"""The window in a real X server (Xvfb, started here; skipped where it is not installed): closing
it from the window manager's side while the computer thinks ends `nomv play` at once, silently,
with no worker process left behind."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None or ctypes.util.find_library("X11") is None,
                                reason="needs Xvfb and libX11 (.ci/run installs them)")


class XEvent(ctypes.Union):
    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                    ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]
    _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]


class XTextProperty(ctypes.Structure):
    _fields_ = [("value", ctypes.c_char_p), ("encoding", ctypes.c_ulong), ("format", ctypes.c_int),
                ("nitems", ctypes.c_ulong)]


class X11:
    """The few Xlib calls a window manager's close button makes."""

    def __init__(self, display: str):
        x = self.x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XDefaultRootWindow.restype = ctypes.c_ulong
        x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                                 ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                 ctypes.POINTER(ctypes.c_uint)]
        x.XGetWMName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(XTextProperty)]
        x.XInternAtom.restype = ctypes.c_ulong
        x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
        x.XFlush.argtypes = [ctypes.c_void_p]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.d = x.XOpenDisplay(display.encode())
        assert self.d, f"cannot open display {display}"

    def windows(self) -> dict[int, str]:
        """The top-level windows and their names."""
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        self.x.XQueryTree(self.d, self.x.XDefaultRootWindow(self.d), ctypes.byref(root), ctypes.byref(parent),
                          ctypes.byref(children), ctypes.byref(count))
        out = {}
        for i in range(count.value):
            name = XTextProperty()   # (SDL names its windows in UTF-8, which XFetchName refuses)
            if self.x.XGetWMName(self.d, children[i], ctypes.byref(name)) and name.value:
                out[children[i]] = name.value.decode(errors="replace")
        return out

    def close(self, window: int) -> None:
        """WM_DELETE_WINDOW: what a click on the title bar's close button sends."""
        event = XEvent()
        event.xclient.type = 33  # ClientMessage
        event.xclient.window = window
        event.xclient.message_type = self.x.XInternAtom(self.d, b"WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data[0] = self.x.XInternAtom(self.d, b"WM_DELETE_WINDOW", 0)
        self.x.XSendEvent(self.d, window, 0, 0, ctypes.byref(event))
        self.x.XFlush(self.d)

    def disconnect(self) -> None:
        self.x.XCloseDisplay(self.d)


@pytest.fixture
def xserver():
    server = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        number = server.stdout.readline().decode().strip()
        assert number.isdigit(), "Xvfb did not say which display it took"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def children_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    if int(f.read().rsplit(b")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_closing_the_window_while_the_computer_thinks_ends_at_once_and_silently(xserver, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(DISPLAY=xserver, XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    # Both seats think ten seconds a move: the close comes in the middle of the first search.
    window = subprocess.Popen([sys.executable, "-m", "nomv", "play", "trinim", "--gui", "--players",
                               "mcts:10s,mcts:10s", "--seed", "1"], cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    x = X11(xserver)
    try:
        end = time.monotonic() + 60
        found = None
        while found is None and time.monotonic() < end:
            found = next((w for w, name in x.windows().items() if name.startswith("nomv")), None)
            assert window.poll() is None, window.stderr.read().decode()
            time.sleep(0.05)
        assert found is not None, "no window appeared"
        # the computer is thinking: a worker process busy with its search
        end = time.monotonic() + 30
        while time.monotonic() < end and not any(_busy(p) for p in children_of(window.pid)):
            time.sleep(0.05)
        time.sleep(0.5)
        workers = children_of(window.pid)
        assert workers and window.poll() is None
        x.close(found)
        start = time.monotonic()
        out, err = window.communicate(timeout=30)
        took = time.monotonic() - start
    finally:
        x.disconnect()
        if window.poll() is None:
            window.kill()
            window.wait()
    assert window.returncode == 0
    assert err.decode() == "" and out.decode() == ""
    assert took < 5, f"closing took {took:.1f} s: it waited for the computer's search"
    # ended with the window, not a moment later by themselves (when a worker notices its parent
    # is gone, it may first try to answer through the closed pipe, and say so on the terminal)
    assert not [p for p in workers if _alive(p)]


def _busy(pid: int) -> bool:
    """Whether a process has used CPU time recently (a worker in its search)."""
    def cpu() -> int:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            return 0
    before = cpu()
    time.sleep(0.2)
    return cpu() - before >= 5


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False
