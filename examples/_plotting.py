"""The examples' one optional dependency: matplotlib, for the plot each one saves."""


def pyplot():
    """``matplotlib.pyplot`` on a file backend, or None (with a message) when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return None
    return plt
