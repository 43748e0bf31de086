"""Saving an example's motion as a self-contained HTML animation: spatial_v2 system models through
rbda.featherstone.showmotion, robots of example-robot-data with their meshes through rbda.viewer.save_animation."""


def showmotion(model, t, q, name: str, description: str = "") -> str:
    """Write ``name.html`` (in the folder of ``--out``): the system model ``model`` moving through ``q`` (one row per time in ``t``)."""
    import rbda.featherstone as fs
    from _output import output_path

    path = fs.showmotion(model, t, q, str(output_path(f"{name}.html")), title=name.replace("_", " "), author="rbda examples",
                         description=description)
    print(f"saved {path}")
    return path


def save_robot_animation(model, urdf, Q, dt, path, title: str, description: str = "", package_dirs=None,
                         verbose: bool = True) -> str:
    """Write ``path``: ``model`` (read from the URDF file ``urdf``) moving through ``Q`` ``(T, nq)``, ``dt`` apart,
    drawn with the URDF's visual meshes (``package://`` paths searched in ``package_dirs``)."""
    from _output import output_path
    from rbda.io import GeometryType, build_geom_from_urdf
    from rbda.viewer import save_animation

    path = output_path(path)
    visual = build_geom_from_urdf(model, urdf, GeometryType.VISUAL, package_dirs)
    save_animation(model, visual, Q, dt, path, title=title, author="rbda examples", description=description)
    if verbose:
        print(f"saved {path}")
    return str(path)


def save_model_animation(model, Q, dt, path, title: str, description: str = "", verbose: bool = True):
    """Write ``path``: ``model`` (built in code, without a visual model) moving through ``Q`` ``(T, nq)``, ``dt``
    apart, each body drawn as the box of its inertia. Returns the path, or None without the viewer extra."""
    try:
        from rbda.viewer import save_animation
        from rbda.viewer.scene import inertia_geometry
    except ImportError:
        return None
    from _output import output_path

    path = output_path(path)
    save_animation(model, inertia_geometry(model), Q, dt, path, title=title, author="rbda examples",
                   description=description)
    if verbose:
        print(f"saved {path}")
    return str(path)
