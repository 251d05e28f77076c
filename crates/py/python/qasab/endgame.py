"""qasab.endgame: exact endgame tables of the Tâb family (docs/ENDGAMES.md).

A table holds every position reachable from a few positions, solved exactly: the value under
perfect play (+1 a win, -1 a loss, 0 play that never ends) and each side's chances. Build one
with ``build`` (or ``qasab endgame build``), then ask it about any state of its ruleset:

    >>> import qasab, qasab.endgame
    >>> duel = "7/3,W,3/4,B,2/7/white/main/1,0/6,6/0x14/0x21/0x14/0x21"
    >>> header = qasab.endgame.build("tab-ludii", [duel], "duel.qeg")
    >>> header["positions"]
    776
    >>> answer = qasab.endgame.probe_position("tab-ludii", duel, "duel.qeg")
    >>> round(answer["value"], 4), round(answer["win"], 4)
    (0.0442, 0.5221)
    >>> state = qasab.load_game("tab-ludii").new_initial_state()  # the start: not in the table
    >>> qasab.endgame.probe(state, "duel.qeg")
    Traceback (most recent call last):
    ...
    qasab._qasab.NotInTableError: not in table: ...

``probe`` takes a table file or a directory of tables (``*.qeg``, those of the state's
ruleset); without one it reads the directory named by the environment variable
``QASAB_TABLES``.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from . import _qasab
from ._qasab import NotInTableError, State

__all__ = [
    "NotInTableError",
    "TABLES_ENV",
    "build",
    "header",
    "probe",
    "probe_position",
    "verify",
]

#: The environment variable naming a directory of tables.
TABLES_ENV = "QASAB_TABLES"

PathLike = Union[str, "os.PathLike[str]"]


def _tables(tables: Optional[PathLike]) -> str:
    if tables is not None:
        return os.fspath(tables)
    found = os.environ.get(TABLES_ENV)
    if not found:
        raise _qasab.QasabError(
            f"no endgame tables given: pass a table file or directory, or set {TABLES_ENV}"
        )
    return found


def probe(state: State, tables: Optional[PathLike] = None) -> Dict[str, Any]:
    """The exact answer of the tables for ``state``.

    Returns a dict: ``player`` (0 or 1: the player to throw, or to move), ``chance`` (a chance
    node, where the table's own values are read), ``value`` for that player, and
    ``value_if_limits_win`` (equal to ``value`` unless a safety limit can end play, see
    docs/ENDGAMES.md); at a chance node ``win``, ``loss`` and ``draw``, his chances under
    optimal play; at a player's turn ``moves``, every legal decision as
    ``{"move", "action", "value"}``. Raises ``NotInTableError`` for a position no table holds.
    """
    return _qasab.endgame_probe(state, _tables(tables))


def probe_position(
    ruleset: str, position_id: str, tables: Optional[PathLike] = None
) -> Dict[str, Any]:
    """As ``probe``, for the position ``position_id`` of ``ruleset`` (a position id as the
    command line writes it); the decisions carry no action ids."""
    return _qasab.endgame_probe_position(ruleset, position_id, _tables(tables))


def build(
    ruleset: str,
    seeds: Iterable[str],
    out: PathLike,
    *,
    pieces: Optional[Tuple[int, int]] = None,
    bank_cap: int = 8,
    count_cap: int = 4,
    pending_cap: int = 3,
    max_positions: int = 20_000_000,
    max_memory_mb: Optional[int] = None,
    checkpoint_every: Optional[float] = None,
    resume: bool = False,
) -> Dict[str, Any]:
    """Builds the table of every position reachable from ``seeds`` (position ids at a throw),
    or with ``pieces=(W, B)`` and no seeds of every position with at most those pieces, under
    ``ruleset``; writes it to ``out`` and returns its header (docs/ENDGAMES.md). A build that
    would need more than ``max_memory_mb`` megabytes (default: the memory available) stops
    with ``QasabError`` saying so. ``pending_cap`` bounds a turn's pending throws of one kind
    while it throws on (Lane's accumulated throws), as ``qasab endgame build --pending-cap``.
    With ``checkpoint_every`` (seconds) the build keeps its progress in ``out`` + ``.partial``
    as it goes, and ``resume=True`` goes on from that file after a stop, to the same table;
    the file is removed once the table is written."""
    text = _qasab.endgame_build(
        ruleset,
        list(seeds),
        os.fspath(out),
        bank_cap,
        count_cap,
        max_positions,
        pieces,
        max_memory_mb,
        pending_cap,
        checkpoint_every,
        resume,
    )
    return json.loads(text)


def header(path: PathLike) -> Dict[str, Any]:
    """A table's header (ruleset, seeds, positions, statistics), the file checked first."""
    return json.loads(_qasab.endgame_header(os.fspath(path)))


def verify(path: PathLike) -> Tuple[int, float]:
    """Verifies a table: its checksum, its positions rebuilt from its seeds, and every value
    against one Bellman step. Returns (positions, largest difference); raises
    ``QasabError`` naming what fails."""
    return _qasab.endgame_verify(os.fspath(path))


def sanctuaries(state: State) -> Optional[Dict[str, List[str]]]:
    """Each side's sanctuaries at ``state`` (docs/ENDGAMES.md, "Fortresses"): the squares of its
    units that no enemy piece can ever reach and that it never has to move, by side name. A
    side holding one can never lose; when both do, the game is a draw under perfect play.
    ``None`` for a game or an ending where they decide nothing (Tihbat, ``end=most-captures``)."""
    return _qasab.endgame_sanctuaries(state)


def sanctuaries_position(ruleset: str, position_id: str) -> Optional[Dict[str, List[str]]]:
    """As ``sanctuaries``, for the position ``position_id`` of ``ruleset``; raises
    ``QasabError`` for an id that is not a position of the ruleset."""
    return _qasab.endgame_sanctuaries_position(ruleset, position_id)
