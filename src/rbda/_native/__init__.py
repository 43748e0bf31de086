"""rbda's machinery around numba (see :mod:`rbda._native.cache`); importing this package imports nothing else."""
