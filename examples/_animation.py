"""Saving an example's motion as a self-contained HTML animation (rbda.featherstone.showmotion), next to its plot."""


def showmotion(model, t, q, name: str, description: str = "") -> str:
    """Write ``name.html``: the system model ``model`` moving through ``q`` (one row per time in ``t``)."""
    import rbda.featherstone as fs

    path = fs.showmotion(model, t, q, f"{name}.html", title=name.replace("_", " "), author="rbda examples",
                         description=description)
    print(f"saved {path}")
    return path
