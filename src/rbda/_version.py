"""rbda's version (one place: the root package, the command line and rbda.pinocchio read it)."""

__version__ = "0.1.0"
