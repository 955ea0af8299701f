"""The steps hook (docs/script-api.md, "Moves step by step"): the moves nomv derives from it are
the moves a moves() lists, its random move is uniform over whole moves however uneven the tree
of partial moves, nomv.has_move, its errors at the author's line with their codes, and the
checker's comparison of a game that has both hooks."""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

import nomv
from nomv.checker import check
from nomv.errors import ScriptError
from nomv.game import seed_words

GAMES = Path(__file__).parent.parent / "games"
RUNTIMES = ["jit", "5.4"]

# Amazons with its moves listed whole as well (the script before it had steps): nomv lists
# moves with moves() and derives the other list from steps().
LISTED = '''
  moves = function(s)
    local out = {}
    for i = 1, g.n do
      if s.board[i] == s.to_move then
        for _, to in ipairs(reach(s.board, i)) do
          for _, arrow in ipairs(reach(s.board, g:at(to), i)) do
            out[#out + 1] = {g.ids[i], to, arrow}
          end
        end
      end
    end
    return out
  end,
'''


def amazons_with_moves(tmp_path: Path) -> Path:
    source = (GAMES / "amazons.lua").read_text(encoding="utf-8")
    source, n = re.subn(r"\n  steps = function", "\n" + LISTED + "\n  steps = function", source, count=1)
    assert n == 1, "games/amazons.lua has no steps hook to put moves beside"
    path = tmp_path / "amazons_listed.lua"
    path.write_text(source, encoding="utf-8")
    return path


def random_moves(pos, n, seed):
    raw = pos.with_state(lambda engine, state: engine.random_moves(state, seed_words(seed), n))
    return [nomv.Move.from_json(m) for m in raw]


def derived_moves(pos):
    return [nomv.Move.from_json(m) for m in pos.with_state(lambda engine, state: engine.steps_moves(state))]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_derived_moves_are_the_listed_moves(tmp_path, runtime):
    game = nomv.Game.load(amazons_with_moves(tmp_path), runtime, isolate=False)
    rng = random.Random(3)
    pos = game.start(seed=2)
    compared = 0
    while pos.outcome() is None and pos.ply < 60:
        if pos.ply % 6 == 0:   # (a few positions: the opening has thousands of moves)
            listed, derived = pos.legal_moves, derived_moves(pos)
            assert derived == listed   # the same moves, in the order steps walks them
            compared += 1
        pos.play(rng.choice(pos.legal_moves))
    assert compared >= 5


def test_the_checker_accepts_a_game_whose_two_hooks_agree(tmp_path):
    report = check(amazons_with_moves(tmp_path), playouts=1, stats_games=2, seconds=0, coverage=False)
    assert report.ok, report.format()


# A tree of partial moves with whole moves at depths 1, 2 and 3, and branches of 1 to 3 whole
# moves: a-x | b-x b-y b-z | c | d-e-f d-e-g d-h (d-q leads to no whole move).  Drawing each step
# uniformly would give a-x a quarter of the draws; uniform over whole moves gives it an eighth.
UNEVEN = '''
return {
  name = "uneven",
  setup = function(opts, rng) return {to_move = 1, n = 0} end,
  steps = function(s, m)
    if #m == 0 then return {"a", "b", "c", "d"} end
    local first = m[1]
    if first == "a" then if #m == 1 then return {"x"} end return nil end
    if first == "b" then if #m == 1 then return {"x", "y", "z"} end return nil end
    if first == "c" then return nil end
    if #m == 1 then return {"e", "h", "q"} end
    if m[2] == "e" then if #m == 2 then return {"f", "g"} end return nil end
    if m[2] == "q" then return {} end
    return nil
  end,
  play = function(s, m) return {to_move = 3 - s.to_move, n = s.n + 1} end,
  scene = function(s) return {} end,   -- every step a button under the board
  result = function(s)
    if s.n >= 3 then return {draw = true} end
    return nil
  end,
}
'''
WHOLE = {("a", "x"), ("b", "x"), ("b", "y"), ("b", "z"), ("c",), ("d", "e", "f"), ("d", "e", "g"), ("d", "h")}


def load_text(tmp_path: Path, text: str, runtime: str = "jit", name: str = "game.lua"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return nomv.Game.load(path, runtime, isolate=False)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_random_move_is_uniform_over_whole_moves_of_an_uneven_tree(tmp_path, runtime):
    pos = load_text(tmp_path, UNEVEN, runtime).start()
    assert {m.steps for m in pos.legal_moves} == WHOLE and len(pos.legal_moves) == len(WHOLE)
    n = 8000
    counts = Counter(m.steps for m in random_moves(pos, n, seed=11))
    assert set(counts) == WHOLE
    expected = n / len(WHOLE)
    chi2 = sum((counts[m] - expected) ** 2 / expected for m in WHOLE)
    assert chi2 < 24.3, f"chi-square {chi2:.1f} over 7 degrees of freedom (p < 0.001): {counts}"


def test_the_checker_passes_the_uneven_game(tmp_path):
    path = tmp_path / "uneven.lua"
    path.write_text(UNEVEN, encoding="utf-8")
    report = check(path, playouts=2, stats_games=10, seconds=0, coverage=False)
    assert report.ok, report.format()


HAS_MOVE = '''
return {
  name = "stuck",
  setup = function(opts, rng) return {to_move = 1, open = opts.open} end,
  options = {open = {default = 1, min = 0, max = 1}},
  steps = function(s, m)
    if #m == 0 then return {"a"} end
    if #m == 1 and s.open == 1 then return {"b"} end
    if #m == 1 then return {} end            -- "a" leads nowhere: no whole move
    return nil
  end,
  play = function(s, m) return {to_move = 2, open = 0} end,
  result = function(s)
    if not nomv.has_move(s) then return {winner = 3 - s.to_move, reason = "stuck"} end
    return nil
  end,
}
'''


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_has_move_finds_a_whole_move_and_not_a_dead_end(tmp_path, runtime):
    game = load_text(tmp_path, HAS_MOVE, runtime)
    pos = game.start()
    assert pos.outcome() is None and [m.steps for m in pos.legal_moves] == [("a", "b")]
    pos.play("a-b")
    assert pos.outcome().winner == 1 and pos.legal_moves == []
    assert game.start(options={"open": 0}).outcome().winner == 2


# Each names the line of steps() that broke the contract (found once steps() has returned, by
# asking it again under a debug hook), not the line where steps() begins (4).
BAD = {
    "a string, not a list": ('if #m == 1 then return nil end\n    return "a"', "E050", "steps must return a list", 6),
    "never whole": ('return {"a"}', "E050", "more than 200 steps", 5),
    "changes partial": ('if #m == 1 then return nil end\n    m[1] = "z"\n    return {"a"}', "E050",
                        "changed the partial move", 6),
    "changes partial on returning": ('if #m == 1 then return nil end\n    return {"a", (table.insert(m, "z"))}', "E050",
                                     "changed the partial move", 6),
}


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_steps_is_named_with_its_code_and_line(tmp_path, runtime, case):
    body, code, words, line = BAD[case]
    text = ("return {\n  name = \"bad\",\n  setup = function(opts, rng) return {to_move = 1} end,\n"
            f"  steps = function(s, m)\n    {body}\n  end,\n"
            "  play = function(s, m) return {to_move = 3 - s.to_move} end,\n"
            "  result = function(s) return nil end,\n}\n")
    pos = load_text(tmp_path, text, runtime).start()
    for ask in (lambda: pos.legal_moves, lambda: random_moves(pos, 1, 1)):
        with pytest.raises(ScriptError) as info:
            ask()
        err = info.value
        assert (err.code, err.line, err.hook) == (code, line, "steps") and words in err.message, err


def test_a_game_needs_moves_or_steps(tmp_path):
    text = ("return {name = \"none\", setup = function() return {to_move = 1} end,\n"
            "  play = function(s, m) return s end, result = function(s) return nil end}\n")
    with pytest.raises(ScriptError, match=r"no 'moves' function \(or 'steps'\)"):
        load_text(tmp_path, text)
    path = tmp_path / "game.lua"
    report = check(path, playouts=1, stats_games=0, seconds=0, coverage=False)
    assert [d.code for d in report.diagnostics] == ["E010"]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_amazons_from_steps_on_both_runtimes(runtime):
    game = nomv.Game.load("amazons", runtime, isolate=False)
    pos = game.start()
    assert pos.perft(1) == 2176 and "steps" in game.hooks and "moves" not in game.hooks
    legal = set(pos.legal_moves)
    assert all(m in legal for m in random_moves(pos, 50, seed=4))
    stats = game.playout(3, seed=1)
    assert stats.games == 3 and stats.unfinished == 0 and sum(stats.wins) == 3


# A tree whose every whole move has three steps, with lists of last steps of uneven lengths
# and dead ends (an empty list, a partial move with no second step), under a promise of at
# most 4 next steps: the draw that does not ask for every list stays uniform.
BOUNDED = '''
return {
  name = "bounded",
  most_next_steps = 4,
  setup = function(opts, rng) return {to_move = 1, n = 0} end,
  steps = function(s, m)
    if #m == 0 then return {"a", "b", "c"} end
    if #m == 1 then
      if m[1] == "a" then return {"p", "q", "r", "s"} end
      if m[1] == "b" then return {"p"} end
      return {}                                     -- c leads nowhere
    end
    if #m == 2 then
      if m[1] == "a" and m[2] == "p" then return {"1", "2", "3", "4"} end
      if m[1] == "a" and m[2] == "q" then return {"1"} end
      if m[1] == "a" and m[2] == "r" then return {} end
      if m[1] == "a" then return {"1", "2"} end
      return {"1", "2", "3"}
    end
    return nil
  end,
  play = function(s, m) return {to_move = 3 - s.to_move, n = s.n + 1} end,
  scene = function(s) return {} end,
  result = function(s)
    if s.n >= 3 then return {draw = true} end
    return nil
  end,
}
'''
BOUNDED_WHOLE = ({("a", "p", x) for x in "1234"} | {("a", "q", "1")} | {("a", "s", x) for x in "12"}
                 | {("b", "p", x) for x in "123"})


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("most", [4, 100])
def test_with_most_next_steps_the_random_move_stays_uniform(tmp_path, runtime, most):
    # 4: drawn again until a list keeps its draw; 100: every list asked for (the cheaper way
    # when the promise is far above the lists' lengths).
    pos = load_text(tmp_path, BOUNDED.replace("most_next_steps = 4,", f"most_next_steps = {most},"), runtime).start()
    assert {m.steps for m in pos.legal_moves} == BOUNDED_WHOLE and len(pos.legal_moves) == 10
    n = 8000
    counts = Counter(m.steps for m in random_moves(pos, n, seed=5))
    assert set(counts) == BOUNDED_WHOLE
    expected = n / len(BOUNDED_WHOLE)
    chi2 = sum((counts[m] - expected) ** 2 / expected for m in BOUNDED_WHOLE)
    assert chi2 < 27.9, f"chi-square {chi2:.1f} over 9 degrees of freedom (p < 0.001): {counts}"


BROKEN_PROMISES = {
    "a longer list": ("most_next_steps = 3,", "steps() returned 4 next steps, more than most_next_steps (3)"),
    "uneven moves": ('most_next_steps = 4,\n  moves_end_early = true,', "every whole move must have the same number of steps"),
}


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(BROKEN_PROMISES))
def test_a_broken_promise_of_most_next_steps_is_e050_at_its_line(tmp_path, runtime, case):
    field, words = BROKEN_PROMISES[case]
    text = BOUNDED.replace("most_next_steps = 4,", field)
    if "moves_end_early" in field:
        text = text.replace("  moves_end_early = true,\n", "").replace(
            'if m[1] == "b" then return {"p"} end', 'if m[1] == "b" then return nil end')
        culprits = ['if m[1] == "b" then return nil end'] * 2     # a move of one step
    else:
        # Four steps: listing finds the list of second steps first; the random draw asks only
        # for lists of last steps (a-p's).
        culprits = ['if m[1] == "a" then return {"p", "q", "r", "s"} end',
                    'if m[1] == "a" and m[2] == "p" then return {"1", "2", "3", "4"} end']
    lines = [next(i for i, t in enumerate(text.split("\n"), 1) if c in t) for c in culprits]
    pos = load_text(tmp_path, text, runtime).start()
    for ask, line in zip((lambda: pos.legal_moves, lambda: random_moves(pos, 50, 1)), lines):
        with pytest.raises(ScriptError) as info:
            ask()
        err = info.value
        assert (err.code, err.hook, err.line) == ("E050", "steps", line) and words in err.message, err


# A list of next steps that holds a step twice: the move is listed twice (E051), at the line
# that added the step the second time; the list longer than the promise, at the line that
# added the step one too many.
GROWING = '''local g = nomv.grid.square(3, 1)
return {
  name = "growing",
  grid = g,
  most_next_steps = 3,
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  steps = function(s, m)
    if #m == 1 then return nil end
    local out = {}
    for i = 1, 3 do
      if s.board[i] == 0 then out[#out + 1] = g.ids[i] end
    end
    if #out == 3 then out[#out + 1] = out[1] end  -- the first step again
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g.index[m[1]]] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s) if s.board[3] ~= 0 then return {winner = 1} end end,
}
'''


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_step_listed_twice_is_e051_at_the_line_that_added_it(tmp_path, runtime):
    path = tmp_path / "growing.lua"
    path.write_text(GROWING.replace("  most_next_steps = 3,\n", "  \n"))
    report = check(path, runtime=runtime, playouts=2, stats_games=0, seconds=0, coverage=False)
    assert [(d.code, d.line) for d in report.errors] == [("E051", 13)], report.format()
    path.write_text(GROWING)
    with pytest.raises(ScriptError) as info:
        nomv.Game.load(str(path), runtime).start().legal_moves
    assert (info.value.code, info.value.line) == ("E050", 13) and "more than most_next_steps (3)" in info.value.message


@pytest.mark.parametrize("value, words", [
    ("0", "must be a whole number from 1 to 1000000"),
    ("2.5", "must be a whole number from 1 to 1000000"),
    ('"35"', "must be a whole number from 1 to 1000000"),
])
def test_most_next_steps_must_be_a_whole_number(tmp_path, value, words):
    with pytest.raises(ScriptError, match=words) as info:
        load_text(tmp_path, BOUNDED.replace("most_next_steps = 4,", f"most_next_steps = {value},"))
    assert info.value.line == 4


def test_most_next_steps_needs_steps(tmp_path):
    text = ("return {name = \"x\", most_next_steps = 3, setup = function() return {to_move = 1} end,\n"
            "  moves = function(s) return {{\"a\"}} end, play = function(s, m) return s end,\n"
            "  result = function(s) return nil end}\n")
    with pytest.raises(ScriptError, match="most_next_steps is a promise about what steps"):
        load_text(tmp_path, text)


def test_the_checker_passes_the_bounded_game_and_amazons(tmp_path):
    path = tmp_path / "bounded.lua"
    path.write_text(BOUNDED, encoding="utf-8")
    for p in (path, GAMES / "amazons.lua"):
        report = check(p, playouts=2, stats_games=10, seconds=0, coverage=False)
        assert report.ok, report.format()


def test_a_seed_gives_the_same_random_moves_whatever_ran_before(tmp_path):
    # The draw with most_next_steps chooses its way by the position alone, never by what the
    # runtime drew before: a seed must always give the same games.
    for text in (BOUNDED.replace("most_next_steps = 4,", "most_next_steps = 8,"), None):
        pos = (load_text(tmp_path, text) if text else nomv.Game.load("amazons", isolate=False)).start()
        first = random_moves(pos, 40, seed=3)
        random_moves(pos, 500, seed=9)
        pos.game.playout(5, seed=2)
        assert random_moves(pos, 40, seed=3) == first
