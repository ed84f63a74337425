"""The games: boards, pieces, rules, placement inference, scoring, rounds, decks.

Pure Python, deterministic, and importing nothing else of tilewatch: the
referee must be testable without a camera, numpy or a web server.

Shared vocabulary lives here (``engine.shapes`` for polyominoes,
``engine.verdict`` for judging, ``engine.boardtext`` for the board text
contract); each game has its own package (``engine.bits``, ``engine.lits``).
"""
