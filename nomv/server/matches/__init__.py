"""The match service, a module for each role:

``repository``  the match tables behind typed functions (dataclasses in, dataclasses out)
``clock``       time per move, deadlines, times as answers write them
``seating``     seats as requests name them (users, open seats, computer players), roles in texts
``views``       what each viewer sees of a match (the answer of GET /api/matches/{id})
``notify``      after a change: pushes to the match's watchers, the computer's turn, e-mail
``round``       the running match, one Round per match: its lock and version, moves, the end
                (resigning, draws, time), takebacks
``lobby``       matches before they start: creating, invitations, challenges, cancelling
``listings``    lists of matches: a user's own, open challenges, recent ones
``records``     a finished match's record, a desktop record continued online

Each imports only those listed above it (``records`` builds on ``lobby``, which takes the round's
lock to change seats).  None knows HTTP: the routers of ``nomv.server.api`` call them.
"""
