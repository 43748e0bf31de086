import numpy as np
import pytest

import rbda


def test_a_wrong_constraint_item_is_named():
    model = rbda.sample_models.manipulator()
    Z = np.zeros((2, model.nv))
    with pytest.raises(TypeError, match=r"contact_models\[0\]: expected a RigidConstraintModel, got int"):
        rbda.batch.constraint_dynamics(model, Z, Z, Z, [1])
