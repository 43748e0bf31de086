"""A progress bar for long simulations: ``tqdm`` (the optional extra ``rbda[progress]``) on a terminal, nothing
otherwise."""

from __future__ import annotations

import sys


class _Silent:
    """The bar's interface doing nothing (no terminal, tqdm missing, or a short run)."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


LONG = 20_000  # steps: below this a run takes about a second or less and shows no bar by default


def progress_bar(total: int, description: str, enabled: bool | None = None, unit: str = "step", long: int = LONG):
    """A bar counting to ``total`` ``unit`` s, with ``update(n)`` and ``close()`` (also a context manager).

    ``enabled``: True shows it whenever tqdm is installed, False never; None (default) shows it only when stderr
    is a terminal and ``total >= long``. Without tqdm (``pip install rbda[progress]``) the bar is silent."""
    if enabled is None:
        isatty = getattr(sys.stderr, "isatty", None)
        enabled = bool(isatty and isatty()) and total >= long
    if not enabled:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Silent()
    return tqdm(total=total, desc=description, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False)
