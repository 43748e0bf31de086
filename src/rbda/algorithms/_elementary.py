"""Running a kernel that needs constant motion subspaces (the derivatives, the Coriolis matrix, the Jacobians'
time variation, the kinematic Hessians) on the model's elementary twin (``model/elementary.py``), with the data
the twin needs (``data.elementary_data``) and the derivative workspace ``data.dws``."""

from __future__ import annotations

import numpy as np

from ..kernels.derivatives import derivative_size, derivative_views
from ..model.data import leading_block
from ..model.elementary import sync_elementary
from ._check import check_data


def workspaces(model, data):
    """``(I, F, ws, dws, elementary)``: the packed elementary model, its data workspace and the derivative
    workspace ``data.dws`` (laid out on the first call; ``data.dtau_dq``, ``data.dtau_dv``, ``data.ddq_dq`` and
    ``data.ddq_dv`` view it); ``elementary`` is ``(model_e, last)`` when the model has a distinct elementary
    twin, else None."""
    me, last = sync_elementary(model)
    I, F = me.packed
    if data.derivatives_layout is not None and data.derivatives_layout[0] is I:
        return data.derivatives_layout
    check_data(model, data)
    if me is not model and (data.elementary_data is None
                            or data.elementary_data.model_sizes != (me.njoints, me.nv, me.nframes)):
        data.elementary_data = me.create_data()
    size = derivative_size(me.njoints, me.nv_extended)  # the kernels run over one column per joint dof
    if data.dws is None or data.dws.shape[0] != size:
        data.dws = np.zeros(size)
        views = derivative_views(data.dws, me.njoints, me.nv_extended)[0]  # the model's blocks in front (mimic)
        data.dtau_dq, data.dtau_dv, data.ddq_dq, data.ddq_dv = (leading_block(x, model.nv) for x in
                                                                (views.dtau_dq, views.dtau_dv, views.ddq_dq, views.ddq_dv))
    ws = data.ws if me is model else data.elementary_data.ws
    data.derivatives_layout = (I, F, ws, data.dws, (me, last) if me is not model else None)
    return data.derivatives_layout


def copy_back(data, elementary, names):
    """After a kernel ran on the elementary twin: copy the results that share the dof layout into ``data``."""
    me, last = elementary
    edata = data.elementary_data
    for name in names:
        getattr(data, name)[...] = getattr(edata, name)
    data.oMi.array[:] = edata.oMi.array[last]
