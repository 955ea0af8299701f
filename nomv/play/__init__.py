"""A match as a player sees it, for every face: the window (nomv/gui), the terminal
(nomv/textplay.py) and the web page (nomv/server and its static/js).

- words.py: nomv's own words in each language (one gettext catalogue a language, also sent
  to the browser);
- match.py: the match as one reader sees it, in plain data (seats, whose turn, the result,
  offers pending);
- wording.py: the lines a player reads (whose turn it is by person and role, the result naming
  the winner or the places, an offer pending), seat labels, option names and help;
- policy.py: what the faces must agree on (draw offers and takebacks with computer seats,
  what ends a match, what a spectator sees);
- marks.py and drawing.py: what is drawn for any scene (the last move's marks, buttons for
  steps without a place, coordinates, highlights, every colour), finished once.

Nothing here imports pygame or the web framework: a face renders, and decides nothing that a
player could see differently elsewhere.
"""
