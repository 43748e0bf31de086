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


def save(fig, axes, path: str) -> None:
    """Grid and legend on each of ``axes``, then ``fig`` laid out and saved to ``path`` (110 dpi; a relative path
    in the folder of ``--out``, see ``_output.py``), printing the absolute path."""
    from _output import output_path

    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    saved = output_path(path)
    fig.savefig(saved, dpi=110)
    print("saved", saved)
