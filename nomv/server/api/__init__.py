"""The JSON API, a router for each area (FastAPI's "bigger applications"):

``server``      whether the server is up
``accounts``    registering, logging in and out, your account, a player's ratings
``games``       the catalogue, rules, opening positions, standings; scripts and uploads
``matches``     starting a match, the lists, a match as you see it, moves, resigning, draws, takebacks
``challenges``  open challenges, invitations and their seats, accepting, declining, cancelling
``records``     a finished match's record, a desktop game continued online
``jobs``        the long work of a request (an upload's check, a record's replay), followed
``live``        the WebSocket of a match
``mylive``      the WebSocket of a person's lobby (their matches, the open challenges)

Beside them: ``deps`` (the dependencies: services, who asks, ids), ``models`` (the request and
answer bodies, which make the OpenAPI page) and ``errors`` (the error answers).  A router is
thin: it reads the request, asks one service, and answers what it says.
"""
