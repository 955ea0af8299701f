"""The examples in the docs run: every complete game shown in a ```lua block of the tutorial and
the script API page (a block with `return {` alone on a line) is checked by nomv check."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from nomv.checker import check

DOCS = Path(__file__).parent.parent / "docs"


def complete_games():
    out = []
    for name in ("tutorial.md", "script-api.md"):
        text = (DOCS / name).read_text(encoding="utf-8")
        for k, block in enumerate(re.findall(r"```lua\n(.*?)```", text, re.S)):
            if re.search(r"^return \{\s*$", block, re.M):  # `return {` alone on its line
                out.append(pytest.param(block, id=f"{name}-{k}"))
    return out


GAMES = complete_games()


def test_the_docs_show_complete_games():
    assert len(GAMES) >= 4


@pytest.mark.parametrize("block", GAMES)
def test_doc_game_checks_without_errors(block, tmp_path):
    path = tmp_path / "example.lua"
    path.write_text(block, encoding="utf-8")
    report = check(path, playouts=3, seconds=0, stats_games=20, coverage=False)
    assert report.ok, "\n" + report.format()


def test_readme_links_the_docs():
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    for link in ("docs/tutorial.md", "docs/checker.md", "docs/script-api.md"):
        assert link in readme
    assert "nomv check" in readme and "nomv new" in readme


def test_readme_python_example_runs(tmp_path, monkeypatch):
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", readme, re.S)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)
    assert namespace["pos"].ply == 0 and (tmp_path / "game.json").is_file()
