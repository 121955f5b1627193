"""Mail in, game-agnostic: store raw, route, and dispatch each command to its handler.

``Inbound`` and ``Stored`` (the pipeline) are re-exported here, imported lazily so that the
pipeline's own imports (the games' handlers) may import the intake and routing modules of this
package without a cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbm.inbound.pipeline import Inbound, Stored

__all__ = ["Inbound", "Stored"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pbm.inbound import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
