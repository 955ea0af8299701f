"""nomv/play: the wording every face reads (whose turn, results, offers, seats, options) and the
policies every face follows (draws and takebacks with computer seats, what ends a match, whose
view a reader gets), on matches a player meets, in English and Italian."""
from __future__ import annotations

import pytest

import nomv
from nomv.play import policy, wording
from nomv.play.match import (COMPUTER, OPEN, PERSON, WAITING, MatchView, Result, Seat, Takeback,
                             window_seats)

WHITE, BLACK = {"en": "White", "it": "Bianco"}, {"en": "Black", "it": "Nero"}


def online(you: int | None = 1) -> tuple[Seat, ...]:
    """alice plays White, the computer (medium) Black; ``you``: the reader's seat."""
    return (Seat(1, WHITE, PERSON, name="alice", you=you == 1),
            Seat(2, BLACK, COMPUTER, spec="medium", you=you == 2, expects=0.62))


@pytest.mark.parametrize("lang,yours,others,spectator", [
    ("en", "Your turn (White)", "Black (computer) to move", "White (alice) to move"),
    ("it", "Tocca a te (Bianco)", "Muove Nero (computer)", "Muove Bianco (alice)"),
])
def test_the_turn_line_names_the_person_and_the_role(lang, yours, others, spectator):
    assert wording.turn_line(MatchView(online(), to_move=1), lang).text == yours
    assert wording.turn_line(MatchView(online(), to_move=1), lang).kind == wording.YOURS
    assert wording.turn_line(MatchView(online(), to_move=2), lang).text == others
    assert wording.turn_line(MatchView(online(None), to_move=1), lang).text == spectator


@pytest.mark.parametrize("lang,result,expected", [
    ("en", Result((1, 2), (3, 1), "three in a row"), "You win (White) (3, 1): three in a row"),
    ("it", Result((1, 2), (3, 1), {"en": "three in a row", "it": "tris"}), "Hai vinto (Bianco) (3, 1): tris"),
    ("en", Result((2, 1)), "Black (computer) wins"),
    ("it", Result((2, 1)), "Vince Nero (computer)"),
    ("en", Result((1, 1)), "Draw"),
    ("it", Result((1, 1)), "Patta"),
    ("en", policy.resigned(2, 1), "Black (computer) wins: you resigned"),
    ("it", policy.resigned(2, 2), "Hai vinto (Bianco): Nero (computer) ha abbandonato"),
    ("en", policy.timed_out(2, 1), "Black (computer) wins: your time ran out"),
    ("it", policy.agreed_draw(2), "Patta concordata"),
])
def test_the_result_names_the_winner_and_how_it_ended(lang, result, expected):
    line = wording.turn_line(MatchView(online(), result=result), lang)
    assert line.text == expected and line.kind == wording.RESULT


def test_three_players_read_their_places():
    seats = (Seat(1, "Red", PERSON, name="ann"), Seat(2, "Blue", PERSON, name="bob", you=True),
             Seat(3, "Green", COMPUTER, spec="random"))
    view = MatchView(seats, result=Result((2, 1, 3)))
    assert wording.result_text(view, "en") == \
        "You win (Blue); places: 1. Blue (bob), 2. Red (ann), 3. Green (computer)"
    assert wording.result_text(view, "it") == \
        "Hai vinto (Blue); classifica: 1. Blue (bob), 2. Red (ann), 3. Green (computer)"
    shared = MatchView(seats, result=policy.resigned(3, 2))
    assert wording.result_text(shared, "en") == "Red (ann) and Green (computer) share the win: you resigned"
    assert wording.result_text(shared, "it") == "Vincono insieme Red (ann) e Green (computer): hai abbandonato"


def test_a_seat_without_a_name_in_the_script_is_player_n_in_the_readers_language():
    seats = window_seats([], ["human", "mcts:1s"])
    assert wording.turn_line(MatchView(seats, to_move=2), "it").text == "Muove Giocatore 2 (computer)"
    assert wording.player_label(seats[1], "it") == "computer (medio, 1 s)"
    assert wording.player_label(seats[0], "it") == "umano"


def test_people_at_one_screen_are_named_by_their_roles():
    seats = window_seats([WHITE, BLACK], ["human", "human"])
    assert not any(s.you for s in seats)
    assert wording.turn_line(MatchView(seats, to_move=2), "en").text == "Black to move"
    assert wording.result_text(MatchView(seats, result=policy.resigned(2, 2)), "it") == "Vince Bianco: Nero ha abbandonato"


def test_offers_pending_and_waiting_for_players():
    view = MatchView(online(), to_move=1, draw_offer=(2,), takeback=Takeback(1, 3, (1,)))
    assert wording.offer_lines(view, "en") == ["Black (computer) offers a draw", "You asked to take back a move"]
    assert wording.offer_lines(MatchView(online(2), to_move=1, draw_offer=(1,)), "it") == ["Bianco (alice) propone la patta"]
    waiting = MatchView((Seat(1, WHITE, PERSON, name="alice", you=True), Seat(2, BLACK, OPEN, accepted=False)), WAITING)
    assert wording.turn_line(waiting, "it").text == "In attesa di Nero (posto libero)"
    challenged = MatchView((Seat(1, WHITE, PERSON, name="alice"), Seat(2, BLACK, PERSON, name="bob", you=True,
                                                                         accepted=False)), WAITING)
    assert wording.turn_line(challenged, "en").text == "You are challenged: accept or decline"


def test_seat_notes_say_you_thinking_and_the_computers_estimate():
    view = MatchView(online(), to_move=2, thinking=2)
    assert wording.seat_notes(view, view.seat(1), "en") == ["you"]
    assert wording.seat_notes(view, view.seat(2), "it") == ["sta pensando"]
    view = MatchView(online(), to_move=1)
    assert wording.seat_notes(view, view.seat(2), "it") == ["prevede 62%"]


def test_options_read_in_the_readers_language():
    source = '''
local g = nomv.grid.square(3, 1)
return {
  name = "opts", players = {min = 2, max = 3},
  options = {size = {default = 3, min = 3, max = 9, label = {en = "size", it = "lato"},
                     help = {en = "side of the board", it = "lato della scacchiera"}},
             fast = {default = false}},
  setup = function() return {to_move = 1} end,
  moves = function(s) return {{"a1"}} end,
  play = function(s, m) return {to_move = 1} end,
  result = function(s) return nil end,
}'''
    with nomv.Game(source, "opts.lua") as game:
        specs = game.options.specs
        assert wording.option_label(specs["size"], "it") == "lato"
        assert wording.option_help(specs["size"], "it") == "lato della scacchiera"
        assert wording.option_help(specs["fast"], "it") == "true, false" and wording.option_label(specs["fast"], "it") == "fast"
        assert wording.option_label(specs["players"], "it") == "giocatori"
        assert wording.option_help(specs["players"], "it") == "numero di giocatori"
        assert wording.option_allowed(specs["size"], "it") == "un numero intero da 3 a 9"
        assert specs["size"].allowed() == "a whole number from 3 to 9"      # messages and records stay English


def test_an_option_help_that_is_no_text_is_the_scripts_error():
    source = '''return {name = "bad", options = {size = {default = 3, help = {1, 2}}},
      setup = function() return {to_move = 1} end, moves = function() return {} end,
      play = function(s) return s end, result = function() return nil end}'''
    with pytest.raises(nomv.ScriptError, match=r"options.size.help must be a text"):
        nomv.Game(source, "bad.lua")


# -- policies ---------------------------------------------------------------------------------------

def test_a_computer_accepts_a_draw_when_it_expects_half_or_less():
    assert policy.computer_accepts_draw(0.5) and policy.computer_accepts_draw(0.2)
    assert not policy.computer_accepts_draw(0.51) and not policy.computer_accepts_draw(None)
    assert policy.computers_answer_draw([]).accepted
    answer = policy.computers_answer_draw([(2, 0.3), (3, None)])
    assert not answer.accepted and answer.declined_by == 3 and answer.expects is None
    view = MatchView(online(), to_move=1)
    assert wording.draw_declined(view, 2, 0.62, "it") == "Nero (computer) rifiuta la patta: prevede il 62%"


def test_a_takeback_goes_back_before_the_askers_last_move():
    assert policy.takeback_ply([1, 2, 1, 2, 1], {1}) == 4
    assert policy.takeback_ply([2, 1, 2], {1}) == 1
    assert policy.takeback_ply([2], {1}) is None
    assert policy.computer_accepts_takeback()


def test_resigning_and_whose_view_a_reader_gets():
    assert policy.resigning_seat([1], 2) == 1 and policy.resigning_seat([1, 2], 2) == 2
    assert policy.resigning_seat([1, 3], 2) is None
    assert policy.resigned(2, 1) == Result((2, 1), how="resign", by=1)
    assert policy.viewer(True, [1], 1) is policy.WHOLE                     # after the end: everything
    assert policy.viewer(False, [], 1) == policy.SPECTATOR
    assert policy.viewer(False, [], 1, sees_all=True) is policy.WHOLE
    assert policy.viewer(False, [1, 2], 2) == 2 and policy.viewer(False, [1, 2], None) == 1


def test_an_outcome_as_servers_kept_it_is_read_with_who_resigned():
    old = {"winner": 2, "ranks": [2, 1], "scores": None, "reason": "x", "text": "x", "how": "resign"}
    assert Result.from_json(old) == Result((2, 1), None, None, "resign", 1)
    assert Result.from_json(Result((1, 2), (3.0, 1.0), "r").to_json()) == Result((1, 2), (3.0, 1.0), "r")
