"""The `nomv` script library: the portable RNG, grids, and helpers, under both runtimes."""
from __future__ import annotations


import pytest

import nomv
from nomv.game import seed_words

M1, M2 = 4294967087, 4294944443


def reference_mrg32k3a(seed, count):
    """MRG32k3a written from L'Ecuyer's published recurrence, independently of rng.lua."""
    s = list(seed)
    out = []
    for _ in range(count):
        p1 = (1403580 * s[1] - 810728 * s[0]) % M1
        s[0], s[1], s[2] = s[1], s[2], p1
        p2 = (527612 * s[5] - 1370589 * s[3]) % M2
        s[3], s[4], s[5] = s[4], s[5], p2
        z = p1 - p2
        out.append(z + M1 if z <= 0 else z)
    return out


def run(script, lua, body):
    """Runs Lua `body` (which must `return` plain data) in a game's setup and returns the data."""
    path = script(
        "return {name = 'probe',\n"
        "  setup = function(opts, rng)\n" + body + "\n  end,\n"
        "  moves = function(s) return {{'x'}} end, play = function(s) return s end,\n"
        "  result = function(s) return {winner = 1} end}\n")
    return nomv.Game.load(str(path), runtime=lua).start(seed=42).state()["out"]


def test_rng_matches_the_published_recurrence(script, lua):
    values = run(script, lua, "local t = {} for i = 1, 2000 do t[i] = rng:next() end return {out = t}")
    assert values == reference_mrg32k3a(seed_words(42), 2000)


# Positions of the generator whose next step is an exact multiple of its modulus (k = 1, 2,
# 100, 1000, -1 and -3 for M2; 100 and 1000 for M1): where a quotient estimated with 1/m rounds
# to one below the whole number (1 * M2 times 1/M2 is just below 1), the rare case rng.lua's
# mod() must still get exactly right.
EXACT_MULTIPLES = [(415325, 1087039), (303038, 803489), (378764, 1797958), (94356, 8385457),
                   (112287, 283550), (336861, 850650)]
EXACT_MULTIPLES_M1 = [(176045, 407687), (5975, 3063460)]


def test_rng_is_exact_where_its_steps_are_multiples_of_the_modulus(script, lua):
    positions = ([[7, 8, 9, x, 11, y] for x, y in EXACT_MULTIPLES]
                 + [[x, y, 9, 10, 11, 12] for x, y in EXACT_MULTIPLES_M1])
    table = "{" + ", ".join("{" + ", ".join(map(str, p)) + "}" for p in positions) + "}"
    values = run(script, lua, f"local t = {{}} for _, p in ipairs({table}) do rng:load(p)\n"
                              "for _ = 1, 3 do t[#t + 1] = rng:next() end end return {out = t}")
    assert values == [v for p in positions for v in reference_mrg32k3a(p, 3)]


def test_rng_is_identical_on_both_runtimes(script):
    body = ("local t = {}\n"
            "for i = 1, 300 do t[#t+1] = rng:int(6); t[#t+1] = rng:int(-5, 5); t[#t+1] = rng:float() end\n"
            "local l = {1,2,3,4,5,6,7,8,9,10}; rng:shuffle(l); t[#t+1] = l\n"
            "local f = rng:fork(); t[#t+1] = f:int(1000000)\n"
            "t[#t+1] = rng:pick({'a','b','c'}); t[#t+1] = rng:chance(0.5)\n"
            "return {out = t}")
    a, b = run(script, "jit", body), run(script, "5.4", body)
    assert a == b
    ints = a[0:900:3]
    assert set(ints) == {1, 2, 3, 4, 5, 6}
    floats = a[2:900:3]
    assert all(0 < f < 1 for f in floats) and 0.4 < sum(floats) / len(floats) < 0.6
    assert sorted(a[900]) == list(range(1, 11))


def test_rng_rejects_bad_ranges(script, lua):
    with pytest.raises(nomv.ScriptError, match="empty range 5..4"):
        run(script, lua, "return {out = rng:int(5, 4)}")
    with pytest.raises(nomv.ScriptError, match="rng:int needs whole numbers"):
        run(script, lua, "return {out = rng:int(2.5)}")


def test_rng_state_lives_in_the_game_state(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(seed=3)
    rng = pos.with_state(lambda engine, state: engine.dump(state))["_rng"]   # (pos.state() leaves it out)
    assert len(rng) == 6 and all(isinstance(v, int) for v in rng)


def test_square_grid(script, lua):
    out = run(script, lua, """
      local g = nomv.grid.square(8, 8)
      local i = g:at('d4')
      local nb = {}
      for _, j in ipairs(g.adj[i]) do nb[#nb+1] = g.ids[j] end
      local ray = {}
      for _, j in ipairs(g:ray('a1', 'ne')) do ray[#ray+1] = g.ids[j] end
      local line = g:line('a1', 'a8')
      return {out = {g.n, g.ids[1], g.ids[64], nb, ray, #line, g:line('a1', 'b3') == nil,
                     g.x[g:at('a1')], g.y[g:at('a1')], g.y[g:at('a8')], g.dirs[g.opposite[g.dir.ne]]}}
    """)
    assert out == [64, "a1", "h8", ["d5", "e4", "d3", "c4"],
                   ["b2", "c3", "d4", "e5", "f6", "g7", "h8"], 8, True, 0.5, 7.5, 0.5, "sw"]


def test_hexhex_grid_labels_follow_the_documented_scheme(script, lua):
    out = run(script, lua, """
      local h = nomv.grid.hexhex(5)
      local corners = {}
      for i = 1, h.n do if #h.adj[i] == 3 then corners[#corners+1] = h.ids[i] end end
      table.sort(corners)
      local around = {}
      for d = 1, 6 do around[d] = h.ids[h.step[d][h:at('e5')]] end
      local h8 = nomv.grid.hexhex(8)
      local c8 = {}
      for i = 1, h8.n do if #h8.adj[i] == 3 then c8[#c8+1] = h8.ids[i] end end
      table.sort(c8)
      return {out = {h.n, corners, around, h.q[h:at('e5')], h.r[h:at('e5')], h8.n, c8}}
    """)
    assert out[0] == 61
    assert out[1] == ["a5", "a9", "e1", "e9", "i1", "i5"]
    assert out[2] == ["e6", "f5", "f4", "e4", "d5", "d6"]  # n ne se s sw nw, in cyclic order
    assert out[3:5] == [0, 0]
    assert out[5] == 169 and out[6] == ["a15", "a8", "h1", "h15", "o1", "o8"]


def test_hexhex_cell_counts(script, lua):
    out = run(script, lua, "return {out = {nomv.grid.hexhex(4).n, nomv.grid.hexhex(5).n, nomv.grid.hexhex(6).n}}")
    assert out == [37, 61, 91]


def test_triangle_grids(script, lua):
    out = run(script, lua, """
      local t = nomv.grid.triangle(5, {upper = true})
      local nb = {}
      for _, j in ipairs(t:neighbours('C4')) do nb[#nb+1] = t.ids[j] end
      table.sort(nb)
      local line = {}
      for _, j in ipairs(t:line('D4', 'D2')) do line[#line+1] = t.ids[j] end
      local tri = nomv.grid.triangle(3, {cell = 'triangle'})
      local degrees = {}
      for i = 1, tri.n do degrees[i] = #tri.adj[i] end
      return {out = {t.n, nb, #t.adj[t:at('E1')], line, t:line('A5', 'C4') == nil, tri.n, degrees}}
    """)
    assert out[0] == 15
    assert out[1] == ["B4", "B5", "C3", "C5", "D3", "D4"]
    assert out[2] == 2
    assert out[3] == ["D4", "D3", "D2"]
    assert out[4] is True
    assert out[5] == 9 and out[6] == [1, 2, 3, 2, 1, 3, 2, 3, 1]


def test_free_cells_find_neighbours_by_shared_edges(script, lua):
    out = run(script, lua, """
      local sq = function(id, x, y) return {id = id, x = x, y = y,
        poly = {x - .5, y - .5, x + .5, y - .5, x + .5, y + .5, x - .5, y + .5}} end
      local g = nomv.grid.cells({sq('a', 0, 0), sq('b', 1, 0), sq('c', 1, 1), sq('d', 3, 3)})
      local l = nomv.grid.cells({{id = 'p', x = 0, y = 0}, {id = 'q', x = 5, y = 0}}, {{'p', 'q'}})
      return {out = {#g.adj[1], #g.adj[2], #g.adj[3], #g.adj[4], #l.adj[1]}}
    """)
    assert out == [1, 2, 1, 0, 1]


def test_groups_flood_and_connected(script, lua):
    out = run(script, lua, """
      local g = nomv.grid.square(4, 1)
      local v = {1, 1, 0, 1}
      local groups = g:groups(function(i) if v[i] ~= 0 then return v[i] end end)
      local sizes = {}
      for k, gr in ipairs(groups) do sizes[k] = #gr end
      return {out = {sizes, #g:flood(1, function(j) return v[j] == 1 end),
                     g:connected(function(i) return v[i] == 1 end),
                     g:connected(function(i) return i <= 2 end)}}
    """)
    assert out == [[2, 1], 2, False, True]


def test_grid_lines(script, lua):
    out = run(script, lua, """
      local g = nomv.grid.square(3, 3)
      local lines, through = g:lines(3)
      local c4 = nomv.grid.square(7, 6)
      local c4lines, c4through = c4:lines(4)
      local ids = {}
      for _, l in ipairs(lines) do
        local t = {}
        for k, c in ipairs(l) do t[k] = g.ids[c] end
        ids[#ids + 1] = table.concat(t, " ")
      end
      table.sort(ids)
      return {out = {ids, #through[5], #through[2], #c4lines, #c4through[c4:at('d3')],
                     #g:lines(1), #g:lines(4)}}
    """)
    ids, centre, edge, c4, c4_centre, singles, too_long = out
    assert ids == sorted(["a1 a2 a3", "b1 b2 b3", "c1 c2 c3", "a1 b1 c1", "a2 b2 c2", "a3 b3 c3",
                          "a1 b2 c3", "a3 b2 c1"])       # each line once, from one end
    assert (centre, edge) == (4, 2)
    assert (c4, c4_centre) == (69, 13)       # Connect Four's 69 lines; 4 + 3 + 3 + 3 through d3
    assert (singles, too_long) == (9, 0)


def test_copy_and_helpers(script, lua):
    out = run(script, lua, """
      local a = {x = {1, 2}, y = 'k'}
      local b = nomv.copy(a); b.x[1] = 9
      local s = nomv.shallow(a)
      return {out = {a.x[1], b.x[1], s.x == a.x, nomv.sorted_keys({b = 1, a = 2, [3] = 0}),
                     nomv.count({1, 2, 1}, 1), nomv.contains({1, 2}, 3), nomv.split('b/bb//g', '/')}}
    """)
    assert out == [1, 9, True, [3, "a", "b"], 2, False, ["b", "bb", "", "g"]]


def test_copy_keeps_every_key_whatever_the_table_looks_like(script, lua):
    out = run(script, lua, """
      local holes = {1, nil, 3}; holes[5] = 5
      local mixed = {7, 8, 9, k = 'v', [0] = 'zero', [-1] = 'minus', [2.5] = 'half'}
      local late = {}; late[3] = 'c'; late[2] = 'b'; late[1] = 'a'   -- 1..3 in the hash part
      local function keys(t)
        local out = {}
        for _, k in ipairs(nomv.sorted_keys(t)) do out[#out + 1] = tostring(k) .. '=' .. tostring(t[k]) end
        return table.concat(out, ' ')
      end
      local m = nomv.copy(mixed)
      return {out = {keys(nomv.copy(holes)), keys(m), keys(nomv.copy(late)), m ~= mixed}}
    """)
    assert out == ["1=1 3=3 5=5", "-1=minus 0=zero 1=7 2=8 2.5=half 3=9 k=v", "1=a 2=b 3=c", True]


def test_copy_copies_the_tables_in_a_list_and_long_lists(script, lua):
    # The list part is copied by a sized constructor, then its tables replaced by copies: a
    # slot left shared would let play() change its input through the copy.  Lists longer than
    # the constructors (1000 slots) take the loop.
    out = run(script, lua, """
      local rows = {{1, 2}, {3, {4}}, 5, to_move = 1}
      local c = nomv.copy(rows)
      c[1][1], c[2][2][1], c[3], c.to_move = 9, 9, 9, 2
      local long = {}
      for i = 1, 1500 do long[i] = {i} end
      long.k = 'v'
      local d = nomv.copy(long)
      d[1500][1] = 0
      return {out = {rows[1][1], rows[2][2][1], rows[3], rows.to_move, c[2] ~= rows[2],
                     #d, long[1500][1], d[1499][1], d.k}}
    """)
    assert out == [1, 4, 5, 1, True, 1500, 1500, 1499, "v"]


def test_copy_keeps_every_key_whatever_order_the_keys_were_set_in(script, lua):
    # Slots 1..n set out of order with other keys among them: some land in the hash part, where
    # key #t can come after other keys in the walk (a copy that walked on from #t lost those).
    out = run(script, lua, """
      local lost = 0
      for trial = 1, 400 do
        local keys, t = {}, {}
        for i = 1, trial % 7 + 1 do keys[#keys + 1] = i end
        keys[#keys + 1] = 'k'; keys[#keys + 1] = 'z' .. trial; keys[#keys + 1] = 2.5
        for i = #keys, 2, -1 do
          local j = (trial * 7919 + i * 31) % i + 1
          keys[i], keys[j] = keys[j], keys[i]
        end
        for _, k in ipairs(keys) do t[k] = {k} end
        local c = nomv.copy(t)
        for _, k in ipairs(keys) do
          if c[k] == nil or c[k] == t[k] or c[k][1] ~= k then lost = lost + 1 end
        end
      end
      return {out = lost}
    """)
    assert out == 0


def test_rays_are_the_cells_along_each_direction(script, lua):
    out = run(script, lua, """
      local g = nomv.grid.square(4, 3, {adjacency = 8})
      local function ids(list) local t = {} for k, i in ipairs(list) do t[k] = g.ids[i] end return t end
      local same = true
      for d = 1, #g.dirs do
        for i = 1, g.n do
          local a, b = g.rays[d][i], g:ray(i, d)
          if #a ~= #b then same = false end
          for k = 1, #b do if a[k] ~= b[k] then same = false end end
        end
      end
      return {out = {ids(g.rays[g.dir.e][g:at('a1')]), ids(g.rays[g.dir.ne][g:at('b1')]),
                     #g.rays[g.dir.s][g:at('a1')], same}}
    """)
    assert out == [["b1", "c1", "d1"], ["c2", "d3"], 0, True]


def test_legal_gives_the_moves_listed_once(script, lua):
    # result() asks nomv.legal(s) whether the player to move can move; the host lists the
    # moves once per state for result, the random choice and a request alike.
    path = script("""
      local listed = 0
      return {name = 'counter', players = 1,
        setup = function() return {n = 0, to_move = 1} end,
        moves = function(s)
          listed = listed + 1
          if s.n >= 3 then return {} end
          return {{'a'}, {'b'}}
        end,
        play = function(s, m) return {n = s.n + 1, to_move = 1} end,
        result = function(s)
          if #nomv.legal(s) == 0 then return {winner = 1, reason = 'listed ' .. listed} end
        end,
        text = function(s) return tostring(#nomv.legal(s)) .. ' of ' .. tostring(listed) end}
    """)
    pos = nomv.Game.load(str(path), runtime=lua).start(seed=1)
    assert pos.text() == "2 of 1"                # listed once for result, moves and text
    for _ in range(3):
        pos.play(pos.legal_moves[0])
    assert pos.outcome().reason == "listed 4"    # once for each of the four states
    game = nomv.Game.load(str(path), runtime=lua)
    stats = game.playout(10, seed=1)
    assert stats.wins == [10] and stats.plies == 30
    assert game.start(seed=1).text() == "2 of 41"   # random games: once a state for result and the choice
    with pytest.raises(nomv.ScriptError, match=r"nomv.legal\(state\): the state must be a table"):
        nomv.Game(path.read_text().replace("#nomv.legal(s) == 0", "#nomv.legal(7) == 0"), "bad.lua", lua).start(seed=1).outcome()


@pytest.mark.parametrize("n, bits, first", [(9, 1, 1), (64, 2, 1), (122, 4, 4), (200, 3, 2), (2000, 1, 3)])
def test_packed_boards(script, lua, n, bits, first):
    # Cell i gets (i * 7) mod 2^bits, then cell 1 of a copy changes; the numbers in the slots must
    # be exactly the digits' sum, on either runtime.
    out = run(script, lua, f"""
      local L = nomv.packed({n}, {bits}, {first})
      local t = L:clear({{}})
      if L.first > 1 then t[1] = 'before' end           -- another field of the state
      for i = 1, L.n do L:set(t, i, (i * 7) % L.base) end
      local c = L:copy(t)
      L:set(c, 1, (L:get(c, 1) + 1) % L.base)
      local got, slots = {{}}, {{}}
      for i = 1, L.n do got[i] = L:get(t, i) end
      for k = L.first, L.last do slots[#slots + 1] = t[k] end
      return {{out = {{got, slots, L:get(c, 1), L.first == 1 or c[1] == 'before', #c == #t, L.first, L.last}}}}
    """)
    got, slots, first_of_copy, kept, same_length, first_slot, last_slot = out
    base, per = 2**bits, 52 // bits
    values = [(i * 7) % base for i in range(1, n + 1)]
    assert got == values
    assert slots == [sum(v << (bits * k) for k, v in enumerate(values[j:j + per])) for j in range(0, n, per)]
    assert first_of_copy == (values[0] + 1) % base and kept and same_length
    assert (first_slot, last_slot) == (first, first + (n - 1) // per)


def test_copy_list(script, lua):
    out = run(script, lua, """
      local t = {}
      for i = 1, 1500 do t[i] = i * 3 end
      local a, b, c = nomv.copy_list(t), nomv.copy_list(t, 2), nomv.copy_list({'x', {1}})
      a[1] = -1
      return {out = {#a, a[1500], t[1], #b, b[2], c[1], c[2][1], #nomv.copy_list({})}}
    """)
    assert out == [1500, 4500, 3, 2, 6, "x", 1, 0]
    with pytest.raises(nomv.ScriptError, match="nomv.copy_list: the length must be a whole number from 0 to 2\\^24, got 2.5"):
        run(script, lua, "return {out = nomv.copy_list({1, 2, 3}, 2.5)}")


def test_packed_board_refuses_bad_sizes(script, lua):
    with pytest.raises(nomv.ScriptError, match="nomv.packed: bits must be a whole number from 1 to 26, got 0"):
        run(script, lua, "return {out = nomv.packed(10, 0)}")


@pytest.mark.parametrize("a, b", [(0, 0), (5, 3), (0xFFFFFFFF, 0x0F0F0F0F), (2**31, 2**31 + 1), (12345, 67890)])
def test_bit_operations_agree_with_python(script, lua, a, b):
    out = run(script, lua, f"""
      local B = nomv.bit
      return {{out = {{B.band({a}, {b}), B.bor({a}, {b}), B.bxor({a}, {b}), B.lshift({a}, 3),
                      B.rshift({a}, 3), B.test({a}, 0)}}}}
    """)
    assert out == [a & b, a | b, a ^ b, (a << 3) % 2**32, a >> 3, bool(a & 1)]


def test_open_grid_for_tile_layouts(script, lua):
    out = run(script, lua, """
      local L = nomv.grid.open({reach = 10})
      local a, b = L:key(0, 0), L:key(1, 0)
      local filled = {[a] = true, [b] = true}
      local front, n = L:frontier(filled, {a, b})
      local coords = {}
      for i = 1, n do coords[i] = L:coord(front[i]) end
      local touch = {L:touching(L:key(0, 1)), L:touching(L:key(2, 0))}
      local x0, y0, x1, y1 = L:bounds({a, b, L:key(-3, 4)})
      local keys = {L:key(5, 1), L:key(-5, 0), L:key(0, 1)}
      table.sort(keys)
      local sorted = {}
      for i, k in ipairs(keys) do sorted[i] = L:coord(k) end
      local ok, err = pcall(L.key, L, 11, 0)
      return {out = {coords, touch, {x0, y0, x1, y1}, sorted, L:id('slot', b), L:parse('slot:-2,3') == L:key(-2, 3),
                     L:parse('x') == nil, L:bounds({}) == nil, L.origin == a, ok, err}}
    """)
    coords, touch, box, sorted_, slot, parsed, bad, empty, origin, ok, err = out
    assert coords == ["0,-1", "0,1", "-1,0", "1,-1", "2,0", "1,1"]  # n, s, w of a; n, e, s of b
    assert touch == [1, 1] and box == [-3, 0, 1, 4]
    assert sorted_ == ["-5,0", "0,1", "5,1"]  # by row, then column
    assert slot == "slot:1,0" and parsed and bad and empty and origin
    assert ok is False and "farther than 10 from the origin" in err


def test_grids_are_made_once_and_take_no_new_field(script, lua):
    out = run(script, lua, """
      local a, b = nomv.grid.square(3, 3), nomv.grid.square(3, 3)
      local h = nomv.grid.hexhex(4)
      local ok, err = pcall(function() a.mine = 10 end)
      return {out = {a == b, a == nomv.grid.square(3), a ~= nomv.grid.square(3, 3, {adjacency = 8}),
                     h == nomv.grid.hexhex(4), h ~= nomv.grid.hexhex(4, {upper = true}),
                     nomv.grid.triangle(3) == nomv.grid.triangle(3, {cell = 'hex'}),
                     ok, tostring(err):match('shared by every caller') ~= nil, a.mine == nil, a.n, a:at('b2'),
                     #a.adj[5], getmetatable(a) == nil}}
    """)
    assert out == [True, True, True, True, True, True, False, True, True, 9, 5, 4, False]


def test_unionfind(script, lua):
    # Stones on a 1x7 strip: x x . x x x .  -> groups {1,2} and {4,5,6}.
    out = run(script, lua, """
      local uf = nomv.unionfind
      local t = uf.new(7)
      local before = {uf.same(t, 1, 2), uf.size(t, 1)}
      uf.union(t, 1, 2); uf.union(t, 4, 5); uf.union(t, 6, 5)
      local r = uf.union(t, 4, 6)       -- already one set: its root
      local u = nomv.copy_list(t)       -- plain data: a state can hold it, a copy is a list copy
      uf.union(u, 2, 4)
      return {out = {before, uf.same(t, 1, 2), uf.same(t, 2, 4), uf.same(t, 4, 6), uf.size(t, 6),
                     uf.size(t, 2), uf.size(t, 7), r == uf.find(t, 5), uf.find(t, 3) == 3,
                     uf.size(u, 1), uf.same(u, 1, 6), pcall(uf.new, -1) == false}}
    """)
    assert out == [[False, 1], True, False, True, 3, 2, 1, True, True, 5, True, True]
