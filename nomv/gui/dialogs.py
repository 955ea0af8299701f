"""In-window dialogs: a new game (game, variant, options, players, seats, seed) and a file path
for saving and opening games.  pygame has no native dialogs; these are drawn over the window.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from .. import catalog
from ..ai import DEFAULT_COMPUTER
from ..errors import NomvError
from ..game import Game
from ..options import OptionSpec
from .app import BUTTON, BUTTON_HOVER, INK, MUTED, SEAT_KINDS, game_title, seat_label, wrap
from .i18n import _
from .view import font

SHADE = (0, 0, 0, 120)
BOX = (248, 246, 240)
FIELD = (255, 255, 255)
FOCUS = (60, 110, 200)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value == "":
        return _("(empty)")
    return str(value)


class _Dialog:
    """Shared drawing helpers; subclasses fill ``self.hits`` with (rect, action) while drawing."""

    broken = True  # an exception while drawing closes the dialog instead of repeating

    def __init__(self, app):
        self.app = app
        self.hits: list[tuple[pygame.Rect, Any]] = []
        self.error = ""
        self.focus: str | None = None
        self.fields: dict[str, str] = {}
        pygame.key.start_text_input()

    def close(self) -> None:
        pygame.key.stop_text_input()
        self.app.dialog = None

    def frame(self, surf, w: int, h: int) -> pygame.Rect:
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill(SHADE)
        surf.blit(shade, (0, 0))
        sw, sh = surf.get_size()
        box = pygame.Rect(0, 0, min(w, sw - 20), min(h, sh - 20))
        box.center = (sw // 2, sh // 2)
        pygame.draw.rect(surf, BOX, box, border_radius=10)
        pygame.draw.rect(surf, (160, 150, 130), box, 1, border_radius=10)
        return box

    def button(self, surf, rect: pygame.Rect, label: str, action, active: bool = False, size: int = 15) -> None:
        mouse = pygame.mouse.get_pos()
        bg = BUTTON_HOVER if active or rect.collidepoint(mouse) else BUTTON
        pygame.draw.rect(surf, bg, rect, border_radius=5)
        pygame.draw.rect(surf, (170, 160, 140) if not active else FOCUS, rect, 1 + active, border_radius=5)
        self.app.text(surf, label, (rect.centerx, rect.centery - size // 2 - 2), size, active, INK, "centre")
        self.hits.append((rect, action))

    def field(self, surf, rect: pygame.Rect, key: str) -> None:
        pygame.draw.rect(surf, FIELD, rect, border_radius=4)
        pygame.draw.rect(surf, FOCUS if self.focus == key else (170, 160, 140), rect, 1 + (self.focus == key), border_radius=4)
        text = self.fields.get(key, "")
        f = font(15)
        shown = text
        while shown and f.size(shown)[0] > rect.w - 14:
            shown = shown[1:]
        r = self.app.text(surf, shown, (rect.x + 6, rect.y + 5), 15)
        if self.focus == key and int(time.monotonic() * 2) % 2 == 0:
            pygame.draw.line(surf, INK, (r.right + 1, rect.y + 5), (r.right + 1, rect.bottom - 5))
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
            self.fields[self.focus] = self.fields.get(self.focus, "") + event.text
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.act("ok", False)
            elif event.key == pygame.K_BACKSPACE and self.focus is not None:
                self.fields[self.focus] = self.fields.get(self.focus, "")[:-1]
            elif event.key == pygame.K_TAB and self.fields:
                keys = list(self.fields)
                i = keys.index(self.focus) + 1 if self.focus in keys else 0
                self.focus = keys[i % len(keys)]

    def act(self, action, right: bool) -> None:  # pragma: no cover - overridden
        pass

    def draw_error(self, surf, box: pygame.Rect, y: int) -> None:
        if self.error:
            for i, line in enumerate(wrap(self.error, font(14), box.w - 40)[:3]):
                self.app.text(surf, line, (box.x + 20, y + 18 * i), 14, False, (180, 30, 30))


class PathDialog(_Dialog):
    """A path to save to or open from, with the game records of its folder listed."""

    def __init__(self, app, mode: str, path: str | None = None):
        super().__init__(app)
        self.mode = mode
        if path is None:
            folder = Path.cwd()
            if mode == "save":
                path = str(folder / f"{app.game.name}-{time.strftime('%Y%m%d-%H%M')}.json")
            else:
                path = str(folder) + "/"
        self.fields = {"path": path}
        self.focus = "path"

    def listing(self) -> list[Path]:
        text = self.fields["path"]
        folder = Path(text).expanduser()
        if not text.endswith("/") and not folder.is_dir():
            folder = folder.parent
        try:
            return sorted(p for p in folder.iterdir() if p.suffix == ".json")[:10]
        except OSError:
            return []

    def draw(self, surf) -> None:
        self.hits = []
        box = self.frame(surf, 640, 430)
        title = _("Save the game") if self.mode == "save" else _("Open a game")
        self.app.text(surf, title, (box.x + 20, box.y + 16), 20, True)
        self.app.text(surf, _("File:"), (box.x + 20, box.y + 58), 15)
        self.field(surf, pygame.Rect(box.x + 70, box.y + 52, box.w - 90, 30), "path")
        y = box.y + 94
        files = self.listing()
        if files:
            self.app.text(surf, _("Game records here (click to choose):"), (box.x + 20, y), 13, False, MUTED)
            y += 20
            for p in files:
                r = pygame.Rect(box.x + 20, y, box.w - 40, 20)
                if r.collidepoint(pygame.mouse.get_pos()):
                    pygame.draw.rect(surf, BUTTON_HOVER, r)
                self.app.text(surf, p.name, (r.x + 6, r.y + 2), 14)
                self.hits.append((r, ("pick", str(p))))
                y += 21
        self.draw_error(surf, box, box.bottom - 100)
        ok = _("Save") if self.mode == "save" else _("Open")
        self.button(surf, pygame.Rect(box.right - 240, box.bottom - 46, 100, 32), ok, "ok")
        self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Cancel"), "cancel")

    def act(self, action, right: bool) -> None:
        if action == "cancel":
            self.close()
        elif isinstance(action, tuple) and action[0] == "pick":
            if self.fields["path"] == action[1] and self.mode == "open":
                self.act("ok", False)
            self.fields["path"] = action[1]
        elif action == "ok":
            path = self.fields["path"].strip()
            if not path or path.endswith("/"):
                self.error = _("Give a file name")
                return
            try:
                if self.mode == "save":
                    self.app.save(path)
                else:
                    self.app.open(path)
            except (NomvError, OSError) as exc:
                self.error = str(exc)
                return
            self.close()


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
            self.draw_error(surf, box, box.bottom - 110)
            self.button(surf, pygame.Rect(box.right - 130, box.bottom - 46, 110, 32), _("Cancel"), "cancel")
            return
        app.text(surf, game_title(g), (x, y), 17, True)
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
            label = _("players") if spec.name == "players" else spec.name
            text, size = _fit(label, 114)
            app.text(surf, text, (x, y + 5 + (15 - size) // 2), size)
            vx = x + 120
            value = self.value(spec)
            if spec.choices or spec.type == "bool":
                self.button(surf, pygame.Rect(vx, y, 160, 26), _show(value), ("cycle", spec.name), False, 14)
                hint = spec.allowed()
            elif spec.type == "int":
                self.button(surf, pygame.Rect(vx, y, 30, 26), "−", ("dec", spec.name), False, 16)
                app.text(surf, _show(value), (vx + 65, y + 4), 15, True, INK, "centre")
                self.button(surf, pygame.Rect(vx + 100, y, 30, 26), "+", ("inc", spec.name), False, 16)
                hint = spec.allowed()
            else:
                self.field(surf, pygame.Rect(vx, y, 240, 26), f"opt:{spec.name}")
                hint = ""
            help_text = spec.help or hint
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
        for p in range(1, n + 1):
            name = g.players.names[p - 1] if p <= len(g.players.names) else _("Player {n}").format(n=p)
            app.text(surf, name, (x, y + 4), 15)
            self.button(surf, pygame.Rect(x + 120, y, 200, 24), seat_label(self.seats[p - 1]), ("seat", p), False, 14)
            y += 28
        app.text(surf, _("Seed (empty: random)"), (x, y + 6), 15)
        self.field(surf, pygame.Rect(x + 170, y, 150, 28), "seed")
        self.draw_error(surf, box, box.bottom - 110)
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
            s = self.seats[arg - 1]
            self.seats[arg - 1] = SEAT_KINDS[(SEAT_KINDS.index(s) + 1) % len(SEAT_KINDS)] if s in SEAT_KINDS else "human"
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
            self.app.new_game(g, options, self.variant, seed, self.seats)
        except NomvError as exc:
            self.error = str(exc)
            return
        self.close()


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
        from .i18n import localized
        self.hits = []
        box = self.frame(surf, 640, 460)
        game = self.app.game
        self.app.text(surf, game_title(game), (box.x + 20, box.y + 16), 22, True)
        info = game.info if isinstance(game.info, dict) else {}
        y = box.y + 52
        for label, key in ((_("Author:"), "author"), (_("Source:"), "source")):
            value = localized(info.get(key))
            if value:
                for k, line in enumerate(wrap(f"{label} {value}", font(14), box.w - 40)[:2]):
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


def _fit(text: str, width: int) -> tuple[str, int]:
    """The text and font size (15 down to 11) that fit in width pixels; cut with an ellipsis
    when even the smallest does not."""
    for size in (15, 14, 13, 12, 11):
        if font(size).size(text)[0] <= width:
            return text, size
    while len(text) > 1 and font(11).size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…", 11
