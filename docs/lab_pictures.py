"""Draws the pictures of the lab's pages in docs/lab.md from reports already written by
`nomv analyze GAME --html GAME.html` (Trinim's and Nibble's with --skill): parts of each page at
a desktop's width (1280) and a phone's (390), in headless Chromium.  With --pages DIR, each whole
page at both widths too, to look at.  Needs Chromium (/usr/bin/chromium) and Playwright:
`python docs/lab_pictures.py trinim.html nibble.html [--pages DIR]`."""
from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent / "images"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
WIDTHS = {"desktop": 1280, "phone": 390}
#: (picture, report, width, the first heading shown, the heading it stops before; None: the
#: page's top, or its end).
PICTURES = [
    ("lab-trinim.png", "trinim", "desktop", None, "Branching over the game"),
    ("lab-trinim-board.png", "trinim", "desktop", "Board coverage", "Kinds of moves"),
    ("lab-trinim-skill.png", "trinim", "desktop", "Skill ladder", "Openings"),
    ("lab-nibble.png", "nibble", "desktop", "Board coverage", "Skill ladder"),
    ("lab-nibble-phone.png", "nibble", "phone", None, "How games end"),
]
#: The top of a heading's part of the page, or the page's own top or end (a heading not shown).
EXTENT = """([first, stop]) => {
  const top = (text) => { const h = [...document.querySelectorAll('h2')].find(e => e.textContent === text);
                          return h ? h.getBoundingClientRect().top + window.scrollY - 12 : null; };
  const end = document.documentElement.scrollHeight;
  return [first === null ? 0 : top(first), stop === null ? end : (top(stop) ?? end)];
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+", type=Path, help="the reports, named after their game (trinim.html)")
    ap.add_argument("--pages", type=Path, help="also each whole page at both widths, in this folder")
    ap.add_argument("--out", type=Path, default=OUT, help="the folder of the pictures (default: docs/images)")
    args = ap.parse_args()
    reports = {path.stem: path.resolve() for path in args.reports}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for size, width in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:")
                       else route.continue_())                    # (a report fetches nothing)
            for game, path in reports.items():
                page.goto(path.as_uri())
                if args.pages:
                    args.pages.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(args.pages / f"{game}-{width}.png"), full_page=True)
                for name, report, shown_at, first, stop in PICTURES:
                    if report != game or shown_at != size:
                        continue
                    y0, y1 = page.evaluate(EXTENT, [first, stop])
                    if y0 is None:
                        raise SystemExit(f"{path}: no heading {first!r}")
                    page.screenshot(path=str(args.out / name), full_page=True,
                                    clip={"x": 0, "y": y0, "width": width, "height": y1 - y0})
                    print(args.out / name)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
