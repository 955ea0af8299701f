"""The text board (`nomv show`, text play) of a game without a text hook: ranks on the rows and
files under the columns of a square board, a hexagonal board, a scene's own button, and pieces
that never print alike, with a legend that names the players."""
from __future__ import annotations

from pathlib import Path

import nomv
from nomv.cli import main
from nomv.scenetext import scene_text

HERE = Path(__file__).parent / "scripts" / "text"


def test_a_square_board_has_ranks_and_files_and_names_the_players(capsys):
    assert main(["show", "othello"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[:10] == [
        "8  . . . . . . . .",
        "7  . . . . . . . .",
        "6  . . . . . . . .",
        "5  . . . X O . . .",
        "4  . . . O X . . .",
        "3  . . . . . . . .",
        "2  . . . . . . . .",
        "1  . . . . . . . .",
        "   a b c d e f g h",
        ""]
    assert lines[10] == "X = Black, O = White"     # player 1 first, by name, not "#202020"
    # Ten ranks: the labels line up.
    assert main(["show", "amazons"]) == 0
    out = capsys.readouterr().out.split("\n")
    assert out[0] == "10  . . . O . . O . . ." and out[9] == " 1  . . . X . . X . . ." and out[10] == "    a b c d e f g h i j"


def test_a_hexagonal_board_names_three_players():
    with nomv.Game.load(str(HERE / "hexa.lua")) as game:
        text = game.start().text()
    assert text.split("\n")[:9] == [
        "c5      .",
        "b5    .   .",
        "a5  A   .   O",
        "b4    .   .",
        "a4  .   X   .",
        "b3    .   .",
        "a3  .   .   .",
        "b2    .   .",
        "c1      ."]
    assert "X = Red, O = Green, A = Blue" in text and "#c03030" not in text


def test_a_scene_button_prints_as_a_button(capsys):
    assert main(["show", str(HERE / "passer.lua")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2  . . O\n1  X . .\n   a b c\n\n[pass]\n\nX = black, O = white\nBlack to move\n"), out
    assert "pa\n" not in out and "pass  " not in out.split("\n")[4]


def test_two_players_pieces_never_print_alike():
    # Both sides' amazons labelled "A": upper case for one, lower case for the other.
    cells = [{"id": f"{f}1", "shape": "rect", "x": x, "y": 0, "w": 1, "h": 1} for x, f in enumerate("abc")]
    pieces = [{"shape": "circle", "x": 0, "y": 0, "r": 0.4, "fill": "#f4f4f4", "label": "A"},
              {"shape": "circle", "x": 1, "y": 0, "r": 0.4, "fill": "#202020", "label": "A"},
              {"shape": "circle", "x": 2, "y": 0, "r": 0.4, "fill": "#202020"}]
    text = scene_text({"items": cells + pieces}, players=[("White", "#F4F4F4"), ("Black", "#202020")])
    assert text is not None
    board, files, _, legend = text.split("\n")
    assert board == "1  A a O" and files == "   a b c"
    # Every symbol drawn; the players' own letters first, player 1 first (White, with no
    # unlabelled piece on the board, keeps X).
    assert legend == "X = White, O = Black, A = White A, a = Black A"


def kalah_from_the_docs() -> str:
    import re
    text = (Path(__file__).parent.parent / "docs" / "script-api.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```lua\n(.*?)```", text, re.S) if 'name = "minikalah"' in b]
    return block


def test_numbers_on_cells_kalah_from_the_docs():
    # pieces(v) gives any seed count a piece labelled with it; labels(state) writes on the cells.
    with nomv.Game(kalah_from_the_docs(), "minikalah.lua") as game:
        pos = game.start()
        pos.play("p3")                       # its 3 seeds go to s1, q1 and q2
        items = pos.scene()["items"]
        labels = {(round(i["x"], 2), round(i["y"], 2)): i.get("label") for i in items
                  if i.get("shape") == "circle" and not i.get("id")}
        assert labels[(4, 0.5)] == 1 and labels[(3, 0)] == 4 and labels[(1, 1)] == 3
        assert (3, 1) not in labels          # the emptied pit has no piece
        cells = {i["id"]: i.get("label") for i in items if i.get("id")}
        assert cells["s1"] == "S" and cells["s2"] == "N" and cells["p1"] is None
        assert pos.text().split("\n")[:3] == ["q3    3 4 4", "s2  N       1", "p1    3 3 ."]


def test_pieces_and_labels_that_return_the_wrong_thing_are_named(tmp_path):
    import pytest
    source = kalah_from_the_docs()
    bad = source.replace('return {fill = "#d9b26f", label = seeds}', 'return "seeds"')
    with nomv.Game(bad, "bad.lua") as game, pytest.raises(nomv.ScriptError) as err:
        game.start().scene()
    assert 'pieces(3, 1) must return a piece {fill=, label=} or nil, got "seeds"' in err.value.message
    assert err.value.code == "E091"
    bad = source.replace('return {s1 = "S", s2 = "N"}', 'return "S"')
    with nomv.Game(bad, "bad.lua") as game, pytest.raises(nomv.ScriptError) as err:
        game.start().scene()
    assert "labels must return a table of texts by cell (index or id)" in err.value.message


def test_a_piece_of_no_player_is_named_by_a_plain_colour():
    # An Amazons arrow belongs to nobody: the legend names its colour in words, not "#b5651d".
    cells = [{"id": f"{f}1", "shape": "rect", "x": x, "y": 0, "w": 1, "h": 1} for x, f in enumerate("ab")]
    pieces = [{"shape": "circle", "x": 0, "y": 0, "r": 0.4, "fill": "#f4f4f4"},
              {"shape": "circle", "x": 1, "y": 0, "r": 0.4, "fill": "#b5651d"}]
    text = scene_text({"items": cells + pieces}, players=[("White", "#f4f4f4"), ("Black", "#202020")])
    assert text is not None and text.split("\n")[-1] == "X = White, O = Black, A = brown"


def test_othello_names_the_players_in_one_order_all_game(capsys):
    # Player 1 (Black) first at the start and a few moves later, whoever has more discs or
    # moves next; every symbol on the board is in the legend.
    for moves in ([], ["d3"], ["d3", "c3"], ["d3", "c3", "c4", "e3"], ["f5", "f6", "e6", "f4", "c3"]):
        assert main(["show", "othello", "--moves", *moves]) == 0
        lines = capsys.readouterr().out.split("\n")
        board = "".join(line[3:] for line in lines[:8])
        legend = lines[10]
        assert legend == "X = Black, O = White", (moves, legend)
        assert set(board) - {" ", "."} <= {"X", "O"}


def test_a_player_with_no_piece_on_the_board_keeps_their_letter():
    cells = [{"id": f"{f}1", "shape": "rect", "x": x, "y": 0, "w": 1, "h": 1} for x, f in enumerate("abc")]
    only_white = [{"shape": "circle", "x": 1, "y": 0, "r": 0.4, "fill": "#f4f4f4"}]
    players = [("Black", "#202020"), ("White", "#f4f4f4")]
    text = scene_text({"items": cells + only_white}, players=players)
    assert text is not None and text.split("\n")[0] == "1  . O ." and text.split("\n")[-1] == "X = Black, O = White"
    # A label drawn by one player only stands for itself, and is in the legend too; a number
    # (a count) is not.
    labelled = [{"shape": "circle", "x": 0, "y": 0, "r": 0.4, "fill": "#202020", "label": "K"},
                {"shape": "circle", "x": 2, "y": 0, "r": 0.4, "fill": "#f4f4f4", "label": "3"}]
    text = scene_text({"items": cells + labelled}, players=players)
    assert text is not None and text.split("\n")[0] == "1  K . 3" and text.split("\n")[-1] == "K = Black"
