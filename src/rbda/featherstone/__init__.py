"""spatial_v2-compatible functional API, in spatial_v2's own conventions.

Spatial vectors are ``[angular; linear]``, ``X``/``E`` are coordinate transforms from A to B coordinates,
quaternions are scalar first. ``convert`` translates to and from the core ``rbda.spatial`` conventions.
System models (:class:`SystemModel`, 1-based ``parent``) convert to core models (:func:`to_rbda`), on which the
dynamics functions (``ID``, ``FDab``, ``HandC``, ``HD``, ``FDfb``, ...) call the core algorithms.
"""

from .arithmetic import (
    Fpt,
    Vpt,
    XtoV,
    Xpt,
    crf,
    crm,
    mcI,
    plnr,
    pluho,
    plux,
    rotx,
    roty,
    rotz,
    rq,
    rqd,
    rv,
    rx,
    ry,
    rz,
    skew,
    xlt,
)
from .convert import (
    X_to_se3,
    force_from_core,
    force_to_core,
    inertia_from_core,
    inertia_to_core,
    motion_from_core,
    motion_to_core,
    se3_to_X,
)
from .sparse import LTDL, LTL, expandLambda, mpyH, mpyL, mpyLi, mpyLit, mpyLt
from .model import GroundContact, SystemModel, check_model, from_rbda, to_rbda
from .dynamics import FDab, FDcrb, FDgq, HandC, HD, ID, EnergyMomentum, EnerMo, jcalc
from .floating import FDfb, IDfb, fbanim, fbkin
from .constructors import autoTree, doubleElbow, floatbase, gfxExample, planar, rollingdisc, scissor, singlebody, vee
from .contact import gcFD, gcPosVel, gcontact
from .showmotion import showmotion

__all__ = [
    # 3-D vectors and rotation
    "rx", "ry", "rz", "rv", "rq", "rqd", "skew",
    # spatial and planar vector arithmetic
    "crm", "crf", "mcI", "rotx", "roty", "rotz", "xlt", "plnr", "plux", "pluho", "XtoV", "Xpt", "Vpt", "Fpt",
    # branch-induced sparsity
    "expandLambda", "LTL", "LTDL", "mpyH", "mpyL", "mpyLt", "mpyLi", "mpyLit",
    # conversion to and from the core conventions
    "motion_to_core", "motion_from_core", "force_to_core", "force_from_core",
    "X_to_se3", "se3_to_X", "inertia_to_core", "inertia_from_core",
    # system models and their core twins
    "SystemModel", "GroundContact", "check_model", "to_rbda", "from_rbda",
    # dynamics
    "ID", "FDab", "FDcrb", "HandC", "HD", "FDgq", "FDfb", "IDfb", "fbkin", "fbanim", "EnerMo", "EnergyMomentum",
    "jcalc",
    # model constructors
    "autoTree", "floatbase", "planar", "gfxExample", "vee", "singlebody", "scissor", "doubleElbow", "rollingdisc",
    # ground contact
    "gcPosVel", "gcontact", "gcFD",
    # animation
    "showmotion",
]
