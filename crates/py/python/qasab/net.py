"""qasab.net: the learned evaluation's training data, for models trained outside Rust.

``training_data`` plays self-play games with a network, exactly as ``qasab train`` does, and
returns every state it learns from with its network inputs, its observation tensor and its
TD(λ) target, as numpy arrays. ``save_network`` writes a network trained elsewhere (numpy,
PyTorch, ...) on the same inputs as the file that ``qasab.Agent("net(weights=FILE)", game)``,
``qasab play --white 'net(weights=FILE)'`` and the search players read. The method, the
encodings and the file are described in docs/training.md; this module in docs/python.md
("Training data for your own models").

    >>> import qasab.net
    >>> data = qasab.net.training_data("tab", games=2, seed=1)
    >>> data["features"].shape[1] == qasab.net.encoding("tab")["inputs"]
    True

Only the Tâb family (``tab``, ``tab-hyde``, ``tab-modern``) and Ludii's presets
(``tab-ludii``, ``tab-hyde-ludii``) have an encoding; for ``tihbat`` these functions raise
``qasab.RulesetError``.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Mapping, Optional, Union

import numpy as np

from . import _qasab
from ._qasab import NetworkError, State

__all__ = [
    "LAYERS",
    "NetworkError",
    "encode",
    "encoding",
    "save_network",
    "training_data",
    "value",
]

#: The tensors of a network file, as PyTorch's ``nn.Linear`` names them: ``fc1.weight`` is
#: ``(hidden1, inputs)``, ``fc1.bias`` ``(hidden1,)``, ``fc2.weight`` ``(hidden2, hidden1)``,
#: ``fc2.bias`` ``(hidden2,)``, ``out.weight`` ``(1, hidden2)``, ``out.bias`` ``(1,)``.
#: The network is ``tanh(out(relu(fc2(relu(fc1(x))))))``.
LAYERS = ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "out.weight", "out.bias")

PathLike = Union[str, "os.PathLike[str]"]


def training_data(
    ruleset: str,
    games: int = 100,
    seed: int = 0,
    network: Optional[PathLike] = None,
    lambda_: float = 0.7,
    threads: int = 0,
) -> Dict[str, Any]:
    """The training data of ``games`` self-play games of ``ruleset``, as ``qasab train``
    makes it.

    Game ``g`` is played from a seed derived from ``seed`` and ``g``, so the same arguments
    give the same arrays whatever ``threads`` (0: every core). The games are played in Rust
    without the GIL, by ``network`` (a safetensors file), else the network shipped for the
    ruleset's family if it reads the ruleset's board, else a fresh network initialised from
    ``seed`` as a new ``qasab train`` run's. The targets are λ-returns with ``lambda_``.

    Returns a dict: ``features`` float32 (N, inputs), ``observations`` float32
    (N, *observation_tensor_shape), ``targets`` float32 (N,), ``player`` int8 (N,),
    ``game`` int64 (N,), ``positions`` (a list of N position ids), ``encoding`` (str),
    ``inputs`` (int), ``network`` ("file", "shipped" or "initial") and ``ruleset`` (the
    canonical string). Row ``i`` is one state before a throw. The features are in the
    encoding of the network that played (``encoding`` names it: a shipped network may read
    an older encoding than ``encoding(ruleset)``'s newest).

    Raises ``QasabError`` for ``games < 1``, ``lambda_`` outside [0, 1] or a bad thread
    count, ``RulesetError`` for a bad ruleset or ``tihbat``, ``NetworkError`` for a network
    file that cannot be read or was made for other inputs.
    """
    return _qasab.net_training_data(ruleset, games, seed, network, lambda_, threads)


def encoding(ruleset: str, encoding: Optional[str] = None) -> Dict[str, Any]:
    """The network inputs of ``ruleset``'s states: ``name`` (``tab-v2`` or
    ``tab-ludii-v2``), ``inputs`` (their number), ``columns`` (the board's) and ``family``
    (the preset whose network reads them).

    Without ``encoding``, the newest, which new networks are trained on; with it, the
    encoding of that name (``tab-v1``, which older networks read). Raises ``QasabError`` for
    an encoding that is not one of the ruleset's."""
    return _qasab.net_encoding(ruleset, encoding)


def encode(state: State, encoding: Optional[str] = None) -> np.ndarray:
    """The network inputs of ``state`` (a state of a Tâb or Ludii ruleset that is not over)
    as a float32 vector of ``encoding(ruleset, encoding)["inputs"]`` values, describing the
    side in turn (White in an opening that has none): in the ruleset's newest encoding, or
    the one named ``encoding``."""
    return _qasab.net_encode(state, encoding)


def value(state: State, network: Optional[PathLike] = None) -> float:
    """The network's output for ``state`` (not over), in (-1, 1), for the side its inputs
    describe: the file ``network``, else the network shipped for the ruleset.

    Raises ``NetworkError`` if no network is shipped for the ruleset or the file cannot be
    read or was made for other inputs."""
    return _qasab.net_value(state, network)


def save_network(
    path: PathLike,
    tensors: Mapping[str, Any],
    ruleset: str,
    metadata: Optional[Mapping[str, str]] = None,
) -> None:
    """Writes a network for ``ruleset`` to ``path`` as a safetensors file that
    ``net(weights=path)`` reads.

    ``tensors`` maps each name of ``LAYERS`` to an array of its shape (numpy arrays, or
    anything ``numpy.asarray`` reads, such as a CPU PyTorch tensor after ``.detach()``),
    cast to float32. The metadata ``encoding``, ``family``, ``columns`` and ``ruleset`` are
    filled from ``ruleset``: the encoding is the ruleset's newest, or the older one whose
    number of inputs ``fc1.weight`` has. ``metadata`` adds other keys (how it was trained,
    say).

    Raises ``NetworkError`` for a missing or unknown tensor, a shape that does not fit the
    ruleset's encoding or the other layers, a value that is not finite, a reserved metadata
    key, or a file that cannot be written; ``RulesetError`` for a bad ruleset or ``tihbat``.
    """
    converted = {}
    for name, tensor in tensors.items():
        array = np.asarray(tensor)
        if array.dtype.kind not in "fiu":
            raise NetworkError(
                f"{name} has dtype {array.dtype}: a network's tensors are numbers "
                "(written as float32)"
            )
        array = np.ascontiguousarray(array, dtype="<f4")
        converted[str(name)] = (list(array.shape), array.tobytes())
    extra = None if metadata is None else {str(k): str(v) for k, v in metadata.items()}
    _qasab.net_save_network(path, converted, ruleset, extra)
