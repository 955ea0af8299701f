"""In-window dialogs: a new game (game, variant, options, players, seats, seed), a file to save
to or open from, the rules, and a question before the game in progress is replaced.  pygame has
no native dialogs; these are drawn over the window.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Callable

import pygame

from .. import catalog
from ..ai import DEFAULT_COMPUTER
from ..errors import NomvError
from ..game import Game
from ..options import OptionSpec
from ..play import wording
from ..play.match import window_seats
from ..play.words import _, language, localized
from . import theme
from .table import data_dir, next_seat_kind, replaced_dir
from .theme import BUTTON, BUTTON_HOVER, FOCUS, INK, MUTED, font, wrap

#: The folder the last save or open used (this session): the next dialog starts there.
_last_folder: Path | None = None


def documents_dir() -> Path | None:
    """The user's documents folder (XDG_DOCUMENTS_DIR, else ~/Documents), if it exists."""
    home = Path.home()
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "user-dirs.dirs"
    try:
        for line in config.read_text(encoding="utf-8").splitlines():
            m = re.fullmatch(r'\s*XDG_DOCUMENTS_DIR\s*=\s*"(.*)"\s*', line)
            if m:
                folder = Path(m.group(1).replace("$HOME", str(home)))
                if folder.is_dir() and folder != home:
                    return folder
    except OSError:
        pass
    folder = home / "Documents"
    return folder if folder.is_dir() else None


def saved_games_dir() -> Path:
    """Where saved games go unless the player chooses: the documents folder, else a ``saved``
    folder in nomv's data folder (made when the first game is saved there)."""
    return documents_dir() or data_dir() / "saved"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value == "":
        return _("(empty)")
    return str(value)


class _Dialog:
    """Shared drawing and editing; subclasses fill ``self.hits`` with (rect, action) while
    drawing.  Text fields are ``self.fields[key]`` (plain strings) with a caret and a
    selection each: typing replaces the selection, Ctrl+A selects everything."""

    broken = True  # an exception while drawing closes the dialog instead of repeating

    def __init__(self, app):
        self.app = app
        self.hits: list[tuple[pygame.Rect, Any]] = []
        self.error = ""
        self.note = ""
        self.focus: str | None = None
        self.fields: dict[str, str] = {}
        self._carets: dict[str, tuple[str, int, int]] = {}   # key -> (text, anchor, caret)
        pygame.key.start_text_input()

    def close(self) -> None:
        pygame.key.stop_text_input()
        if self.app.dialog is self:
            self.app.dialog = None

    def draw(self, surf) -> None:
        """Draws the dialog and fills ``self.hits``: each kind of dialog has its own."""
        raise NotImplementedError

    # -- text fields ----------------------------------------------------------------------------

    def caret(self, key: str) -> tuple[int, int]:
        """(anchor, caret) of a field: the selection runs between them.  A field whose text was
        set from outside has its caret at the end."""
        text = self.fields.get(key, "")
        saved = self._carets.get(key)
        if saved is None or saved[0] != text:
            return len(text), len(text)
        return saved[1], saved[2]

    def set_field(self, key: str, text: str, anchor: int | None = None, caret: int | None = None) -> None:
        caret = len(text) if caret is None else max(0, min(len(text), caret))
        anchor = caret if anchor is None else max(0, min(len(text), anchor))
        self.fields[key] = text
        self._carets[key] = (text, anchor, caret)

    def _type(self, key: str, typed: str) -> None:
        text = self.fields.get(key, "")
        a, c = sorted(self.caret(key))
        self.set_field(key, text[:a] + typed + text[c:], caret=a + len(typed))

    def _edit_key(self, key: str, event) -> bool:
        """Editing keys in a field; True when the key was one."""
        text = self.fields.get(key, "")
        anchor, caret = self.caret(key)
        ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        shift = event.mod & pygame.KMOD_SHIFT
        a, c = sorted((anchor, caret))
        if ctrl and event.key == pygame.K_a:
            self.set_field(key, text, 0, len(text))
        elif event.key == pygame.K_BACKSPACE:
            if a != c:
                self.set_field(key, text[:a] + text[c:], caret=a)
            elif ctrl:
                cut = len(re.sub(r"[^/\s]*[/\s]?$", "", text[:caret]))
                self.set_field(key, text[:cut] + text[caret:], caret=cut)
            elif caret > 0:
                self.set_field(key, text[:caret - 1] + text[caret:], caret=caret - 1)
        elif event.key == pygame.K_DELETE:
            if a != c:
                self.set_field(key, text[:a] + text[c:], caret=a)
            else:
                self.set_field(key, text[:caret] + text[caret + 1:], caret=caret)
        elif event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END):
            if event.key == pygame.K_LEFT:
                to = caret - 1 if shift or a == c else a
            elif event.key == pygame.K_RIGHT:
                to = caret + 1 if shift or a == c else c
            else:
                to = 0 if event.key == pygame.K_HOME else len(text)
            to = max(0, min(len(text), to))
            self.set_field(key, text, anchor if shift else to, to)
        else:
            return False
        return True

    # -- drawing --------------------------------------------------------------------------------

    def frame(self, surf, w: int, h: int) -> pygame.Rect:
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill(theme.SHADE)
        surf.blit(shade, (0, 0))
        sw, sh = surf.get_size()
        box = pygame.Rect(0, 0, min(w, sw - 20), min(h, sh - 20))
        box.center = (sw // 2, sh // 2)
        pygame.draw.rect(surf, theme.BOX, box, border_radius=10)
        pygame.draw.rect(surf, theme.BOX_EDGE, box, 1, border_radius=10)
        return box

    def button(self, surf, rect: pygame.Rect, label: str, action, active: bool = False, size: int = 15) -> None:
        mouse = pygame.mouse.get_pos()
        bg = BUTTON_HOVER if active or rect.collidepoint(mouse) else BUTTON
        pygame.draw.rect(surf, bg, rect, border_radius=5)
        pygame.draw.rect(surf, (170, 160, 140) if not active else FOCUS, rect, 1 + active, border_radius=5)
        self.app.painter.ink.centred(surf, label, rect, size, active, INK)
        self.hits.append((rect, action))

    def field(self, surf, rect: pygame.Rect, key: str) -> None:
        pygame.draw.rect(surf, theme.FIELD, rect, border_radius=4)
        focused = self.focus == key
        pygame.draw.rect(surf, FOCUS if focused else (170, 160, 140), rect, 1 + focused, border_radius=4)
        text = self.fields.get(key, "")
        anchor, caret = self.caret(key)
        f = font(15)
        room = rect.w - 14
        # Scroll so that the caret shows: drop characters from the left while it would not.
        start = 0
        while start < caret and f.size(text[start:caret])[0] > room:
            start += 1
        shown = text[start:]
        while shown and f.size(shown)[0] > room:
            shown = shown[:-1]
        x0, y0 = rect.x + 6, rect.y + (rect.h - f.get_height()) // 2
        a, c = sorted((anchor, caret))
        if focused and a != c:
            sx = x0 + f.size(text[start:max(a, start)])[0]
            ex = x0 + f.size(text[start:min(c, start + len(shown))])[0]
            pygame.draw.rect(surf, theme.SELECTION, (sx, y0, max(0, ex - sx), f.get_height()))
        self.app.text(surf, shown, (x0, y0), 15)
        if focused and int(time.monotonic() * 2) % 2 == 0:
            cx = x0 + f.size(text[start:caret])[0]
            pygame.draw.line(surf, INK, (cx + 1, rect.y + 5), (cx + 1, rect.bottom - 5))
        self.hits.append((rect, ("focus", key)))

    def handle(self, event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            for rect, action in reversed(self.hits):
                if rect.collidepoint(event.pos):
                    if isinstance(action, tuple) and action[0] == "focus":
                        self.focus = action[1]
                    else:
                        self.act(action, event.button == 3)
                    return
        elif event.type == pygame.TEXTINPUT and self.focus is not None:
            self._type(self.focus, event.text)
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.act("ok", False)
            elif self.focus is not None and self._edit_key(self.focus, event):
                pass
            elif event.key == pygame.K_TAB and self.fields:
                keys = list(self.fields)
                i = keys.index(self.focus) + 1 if self.focus in keys else 0
                self.focus = keys[i % len(keys)]

    def act(self, action, right: bool) -> None:  # pragma: no cover - overridden
        pass

    def draw_message(self, surf, box: pygame.Rect, y: int) -> None:
        """The dialog's error (red) or note (plain) at y."""
        text, col = (self.error, theme.WARN) if self.error else (self.note, INK)
        if text:
            for i, line in enumerate(wrap(text, font(14), box.w - 40)[:3]):
                self.app.text(surf, line, (box.x + 20, y + 18 * i), 14, False, col)


class ConfirmDialog(_Dialog):
    """A question before something that cannot be taken back: yes runs ``action``."""

    def __init__(self, app, title: str, text: str, yes: str, action: Callable[[], None]):
        super().__init__(app)
        pygame.key.stop_text_input()
        self.title, self.text, self.yes, self.action = title, text, yes, action

    def draw(self, surf) -> None:
        self.hits = []
        lines = wrap(self.text, font(15), min(520, surf.get_width() - 20) - 40)[:4]
        box = self.frame(surf, 520, 130 + 21 * len(lines))
        self.app.text(surf, self.title, (box.x + 20, box.y + 16), 19, True, width=box.w - 40)
        y = box.y + 54
        for line in lines:
            self.app.text(surf, line, (box.x + 20, y), 15)
            y += 21
        self.draw_message(surf, box, y + 4)
        yes_w = max(130, font(15).size(self.yes)[0] + 30)
        self.button(surf, pygame.Rect(box.right - yes_w - 140, box.bottom - 46, yes_w, 32), self.yes, "ok")
        self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Cancel"), "cancel")

    def act(self, action, right: bool) -> None:
        if action == "cancel":
            self.close()
        elif action == "ok":
            try:
                self.action()
            except NomvError as exc:
                self.error = str(exc)
                return
            self.close()


class PathDialog(_Dialog):
    """A file to save the game to or to open a game from: the records of its folder are listed
    (newest first), with shortcuts to the saved games, the replaced games and the autosave."""

    def __init__(self, app, mode: str, path: str | None = None):
        super().__init__(app)
        self.mode = mode
        self._confirm_overwrite: str | None = None
        if path is None:
            folder = _last_folder or saved_games_dir()
            if mode == "save":
                path = str(folder / f"{app.game.name}-{time.strftime('%Y%m%d-%H%M')}.json")
            else:
                path = str(folder) + os.sep
        self.fields = {"path": path}
        self.focus = "path"
        if mode == "save":
            # the name selected, so that typing replaces it and the folder stays
            name = Path(path).name
            stem = len(path) - len(name) + len(Path(name).stem)
            self.set_field("path", path, len(path) - len(name), stem)

    def folder(self) -> Path:
        text = self.fields["path"]
        folder = Path(text).expanduser()
        if not text.endswith(("/", os.sep)) and not folder.is_dir():
            folder = folder.parent
        return folder

    def listing(self) -> list[Path]:
        try:
            files = [p for p in self.folder().iterdir() if p.suffix == ".json" and p.is_file()]
        except OSError:
            return []
        return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)[:10]

    def shortcuts(self) -> list[tuple[str, Path]]:
        out = [(_("Saved games"), saved_games_dir())]
        autosave = self.app.table.autosave
        if autosave is not None:
            out.append((_("Replaced games"), replaced_dir(autosave)))
            if self.mode == "open":
                out.append((_("Autosave"), autosave))
        return out

    def draw(self, surf) -> None:
        self.hits = []
        box = self.frame(surf, 660, 470)
        title = _("Save the game") if self.mode == "save" else _("Open a game")
        self.app.text(surf, title, (box.x + 20, box.y + 16), 20, True)
        self.app.text(surf, _("File:"), (box.x + 20, box.y + 58), 15)
        self.field(surf, pygame.Rect(box.x + 70, box.y + 52, box.w - 90, 30), "path")
        x = box.x + 20
        y = box.y + 92
        for label, where in self.shortcuts():
            w = font(13).size(label)[0] + 20
            self.button(surf, pygame.Rect(x, y, w, 24), label, ("goto", str(where)), False, 13)
            x += w + 8
        y += 34
        files = self.listing()
        if files:
            self.app.text(surf, _("Game records here (click to choose):"), (box.x + 20, y), 13, False, MUTED)
            y += 20
            for p in files:
                if y > box.bottom - 120:
                    break
                r = pygame.Rect(box.x + 20, y, box.w - 40, 20)
                if r.collidepoint(pygame.mouse.get_pos()):
                    pygame.draw.rect(surf, BUTTON_HOVER, r)
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime))
                date_w = font(13).size(when)[0]
                self.app.text(surf, p.name, (r.x + 6, r.y + 2), 14, width=r.w - date_w - 24)
                self.app.text(surf, when, (r.right - 6, r.y + 3), 13, False, MUTED, "right")
                self.hits.append((r, ("pick", str(p))))
                y += 21
        else:
            folder = self.folder()
            note = _("{folder} will be made when the game is saved").format(folder=folder) \
                if self.mode == "save" and folder == data_dir() / "saved" and not folder.exists() \
                else _("No game records in {folder}").format(folder=folder)
            self.app.text(surf, note, (box.x + 20, y), 13, False, MUTED, width=box.w - 40)
        self.draw_message(surf, box, box.bottom - 100)
        ok = _("Save") if self.mode == "save" else _("Open")
        self.button(surf, pygame.Rect(box.right - 240, box.bottom - 46, 100, 32), ok, "ok")
        self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Cancel"), "cancel")

    def act(self, action, right: bool) -> None:
        global _last_folder
        if action == "cancel":
            self.close()
        elif isinstance(action, tuple) and action[0] == "goto":
            where = Path(action[1])
            self.set_field("path", str(where) if where.suffix == ".json" else str(where) + os.sep)
            self.error = ""
        elif isinstance(action, tuple) and action[0] == "pick":
            if self.fields["path"] == action[1] and self.mode == "open":
                self.act("ok", False)
                return
            self.set_field("path", action[1])
            self.error = ""
        elif action == "ok":
            text = self.fields["path"].strip()
            if not text or text.endswith(("/", os.sep)) or Path(text).expanduser().is_dir():
                self.error = _("Give a file name")
                return
            path = Path(text).expanduser()
            if self.mode == "save":
                if not self._save(path):
                    return
            else:
                try:
                    pos, seats = self.app.table.read(path)
                except NomvError as exc:
                    self.error = str(exc)
                    return
                self.close()
                _last_folder = path.parent
                self.app.replace(lambda: self.app.table.show_opened(text, pos, seats))
                return
            _last_folder = path.parent
            self.close()

    def _save(self, path: Path) -> bool:
        folder = path.parent
        if not folder.is_dir():
            if folder == data_dir() / "saved":
                folder.mkdir(parents=True, exist_ok=True)   # nomv's own folder: made when first used
            else:
                self.error = _("There is no folder {folder}").format(folder=folder)
                return False
        if path.exists() and self._confirm_overwrite != str(path):
            self._confirm_overwrite = str(path)
            self.error = ""
            self.note = _("{name} exists: Save again to replace it").format(name=path.name)
            return False
        try:
            self.app.table.save(path)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.error = _("Cannot save to {path}: {reason}").format(path=path, reason=reason)
            return False
        except NomvError as exc:
            self.error = str(exc)
            return False
        return True


class NewGameDialog(_Dialog):
    """Pick the game, its variant and options, the number of players, who plays each seat."""

    def __init__(self, app):
        super().__init__(app)
        self.games = catalog.all_games()
        self.loaded: dict[str, Game | str] = {}
        self.name = app.game.name
        self.loaded[self.name] = app.game
        self.variant: str | None = None
        self.values: dict[str, Any] = dict(app.pos.chosen) if app.game else {}
        self.seats = list(app.seats)
        self.fields = {"seed": ""}
        self.scroll = 0
        self._string_fields()

    @property
    def game(self) -> Game | None:
        g = self.loaded.get(self.name)
        return g if isinstance(g, Game) else None

    def select(self, name: str) -> None:
        if name not in self.loaded:
            found = next((f for f in self.games if f.name == name), None)
            try:
                self.loaded[name] = Game.load(str(found.path) if found else name,
                                              limits=self.app.game.limits if self.app.game else None)
            except NomvError as exc:
                self.loaded[name] = str(exc)
        self.name = name
        self.variant = None
        self.values = {}
        self.error = "" if self.game else str(self.loaded[name])
        self.fields = {"seed": self.fields.get("seed", "")}
        self._string_fields()

    def _string_fields(self) -> None:
        g = self.game
        if g is None:
            return
        for spec in g.options.ordered():
            if spec.type in ("string", "number") and not spec.choices:
                self.fields[f"opt:{spec.name}"] = _plain(self.value(spec))

    def value(self, spec: OptionSpec) -> Any:
        assert self.game is not None, "an option's value is asked only of a game that loaded"
        if spec.name in self.values:
            return self.values[spec.name]
        preset = self.game.options.variants.get(self.variant, {}) if self.variant else {}
        if spec.name in preset:
            return preset[spec.name]
        if spec.name == "players":
            return self.game.players.default
        return spec.default

    def players(self) -> int:
        g = self.game
        if g is None:
            return 2
        spec = g.options.specs.get("players")
        return int(self.value(spec)) if spec else g.players.min

    def draw(self, surf) -> None:
        self.hits = []
        box = self.frame(surf, 860, 600)
        app = self.app
        app.text(surf, _("New game"), (box.x + 20, box.y + 14), 20, True)
        # the games
        y = box.y + 52
        app.text(surf, _("Game"), (box.x + 20, y), 15, True)
        y += 24
        for f in self.games:
            r = pygame.Rect(box.x + 20, y, 170, 26)
            self.button(surf, r, f.name, ("game", f.name), f.name == self.name, 14)
            y += 30
            if y > box.bottom - 60:
                break
        x = box.x + 210
        y = box.y + 52
        g = self.game
        if g is None:
            self.draw_message(surf, box, box.bottom - 110)
            self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Cancel"), "cancel")
            return
        app.text(surf, localized(g.title_text, g.name), (x, y), 17, True, width=box.right - 20 - x)
        y += 30
        if g.variants:
            app.text(surf, _("Variant"), (x, y + 5), 15)
            vx = x + 120
            for v in [None] + g.variants:
                label = _("standard") if v is None else v
                w = font(14).size(label)[0] + 22
                self.button(surf, pygame.Rect(vx, y, w, 26), label, ("variant", v), v == self.variant, 14)
                vx += w + 6
            y += 36
        for spec in g.options.ordered():
            if y > box.bottom - 170:
                break
            label = wording.option_label(spec, language())
            text, size = theme.fit(label, 114, 15, False, 11)
            app.text(surf, text, (x, y + 5 + (15 - size) // 2), size)
            vx = x + 120
            value = self.value(spec)
            if spec.choices or spec.type == "bool":
                self.button(surf, pygame.Rect(vx, y, 160, 26), _show(value), ("cycle", spec.name), False, 14)
                hint = wording.option_allowed(spec, language())
            elif spec.type == "int":
                self.button(surf, pygame.Rect(vx, y, 30, 26), "−", ("dec", spec.name), False, 16)
                app.text(surf, _show(value), (vx + 65, y + 4), 15, True, INK, "centre")
                self.button(surf, pygame.Rect(vx + 100, y, 30, 26), "+", ("inc", spec.name), False, 16)
                hint = wording.option_allowed(spec, language())
            else:
                self.field(surf, pygame.Rect(vx, y, 240, 26), f"opt:{spec.name}")
                hint = ""
            help_text = wording.option_help(spec, language()) if spec.help or spec.name == "players" else hint
            if help_text:
                hx = vx + (250 if spec.type in ("string", "number") and not spec.choices else 170)
                room = box.right - 20 - hx
                lines = wrap(help_text, font(12), room - font(12).size(" …")[0]) if room > 40 else [""]
                shown = lines[0] + (" …" if len(lines) > 1 else "")
                app.text(surf, shown, (hx, y + 6), 12, False, MUTED)
            y += 32
        # seats
        y += 4
        app.text(surf, _("Who plays"), (x, y), 15, True)
        y += 24
        n = self.players()
        self.seats = (self.seats + [DEFAULT_COMPUTER] * n)[:n]
        seats = window_seats(g.players.name_texts, self.seats, g.players.colours)
        for seat in seats:
            p = seat.number
            app.text(surf, wording.role(seat, language()), (x, y + 4), 15, width=115)
            self.button(surf, pygame.Rect(x + 120, y, 200, 24), wording.player_label(seat, language()), ("seat", p),
                        False, 14)
            y += 28
        app.text(surf, _("Seed (empty: random)"), (x, y + 6), 15, width=165)
        self.field(surf, pygame.Rect(x + 170, y, 150, 28), "seed")
        self.draw_message(surf, box, box.bottom - 110)
        self.button(surf, pygame.Rect(box.right - 250, box.bottom - 46, 110, 32), _("Start"), "ok")
        self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Cancel"), "cancel")

    def act(self, action, right: bool) -> None:
        if action == "cancel":
            self.close()
            return
        if action == "ok":
            self.start()
            return
        kind, arg = action
        g = self.game
        if kind == "game":
            self.select(arg)
        elif kind == "variant":
            self.variant = arg
            self.values = {}
            self._string_fields()
        elif kind == "seat":
            self.seats[arg - 1] = next_seat_kind(self.seats[arg - 1])
        elif g is not None and kind in ("cycle", "inc", "dec"):
            spec = g.options.specs[arg]
            value = self.value(spec)
            if kind == "cycle":
                choices = list(spec.choices) if spec.choices else [False, True]
                i = choices.index(value) if value in choices else 0
                value = choices[(i + (-1 if right else 1)) % len(choices)]
            else:
                value = int(value) + (1 if kind == "inc" else -1)
                if spec.min is not None:
                    value = max(int(spec.min), value)
                if spec.max is not None:
                    value = min(int(spec.max), value)
            self.values[arg] = value
            self.error = ""

    def start(self) -> None:
        g = self.game
        if g is None:
            return
        options = dict(self.values)
        preset = g.options.variants.get(self.variant, {}) if self.variant else {}
        for key, text in self.fields.items():
            if key.startswith("opt:"):
                name = key[4:]
                current = _plain(self.value(g.options.specs[name]))
                if text != current or name in self.values:
                    options[name] = text
        seed_text = self.fields.get("seed", "").strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.error = _("The seed must be a whole number")
            return
        try:
            # values set here override the variant's; unchanged ones keep the variant's
            options = {k: v for k, v in options.items() if not (k in preset and preset[k] == v and k not in self.values)}
            pos = g.start(options, self.variant, seed=seed, text=True)
        except NomvError as exc:
            self.error = str(exc)
            return
        seats = list(self.seats)
        self.close()
        self.app.replace(lambda: self.app.table.show(pos, seats))


def _plain(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class RulesDialog(_Dialog):
    """The game's title, author, source and rules text from the script's ``info`` table, in the
    player's language when the script gives several."""

    def __init__(self, app):
        super().__init__(app)
        pygame.key.stop_text_input()

    def draw(self, surf) -> None:
        self.hits = []
        box = self.frame(surf, 640, 460)
        game = self.app.game
        self.app.text(surf, localized(game.title_text, game.name), (box.x + 20, box.y + 16), 22, True, width=box.w - 40)
        info = game.info if isinstance(game.info, dict) else {}
        y = box.y + 52
        for label, key in ((_("Author:"), "author"), (_("Source:"), "source")):
            value = localized(info.get(key))
            if value:
                for line in wrap(f"{label} {value}", font(14), box.w - 40)[:2]:
                    self.app.text(surf, line, (box.x + 20, y), 14, False, MUTED)
                    y += 18
        y += 10
        rules = localized(info.get("rules")) or _("This script gives no rules text.")
        room = max(1, (box.bottom - 70 - y) // 21)
        for line in wrap(rules, font(16), box.w - 40)[:room]:
            self.app.text(surf, line, (box.x + 20, y), 16)
            y += 21
        self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Close"), "ok")

    def act(self, action, right: bool) -> None:
        self.close()
