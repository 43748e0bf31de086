"""The structure-of-arrays kernels' compiler pieces (``kernels/simd.py``): their lane width, numba's pipeline with
the arrays marked ``noalias``, and the vector row updates written in LLVM IR."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

W = 8  # lanes per block: 8 doubles, a multiple of every x86/ARM vector width


class NoAliasCompiler(CompilerBase):
    """numba's nopython pipeline with the array arguments marked ``noalias`` (numba's own flag, which it sets for
    its parallel loop bodies). Without it LLVM guards each lane loop with run-time overlap checks between the
    arrays it reads and writes, and takes the vector path only from 72 lanes on (4.2 ns a lane for
    ``act_inv`` at 8 lanes, 0.9 ns with it; the whole RNEA and ABA 2x slower). The lane helpers and the block
    functions are only called on distinct arrays (or distinct rows of one)."""

    def define_pipelines(self):
        self.state.flags.noalias = True
        return [DefaultPassBuilder.define_nopython_pipeline(self.state)]


def sub_products(context, builder, signature, args):
    """Code of ``y[:W] -= sum_k a_k[:W] * x_k[:W]`` for the arguments ``(y, x_1, a_1, x_2, a_2, ...)``, rows of ``W``
    contiguous doubles (lane rows of block arrays), as operations on LLVM's ``<W x double>``."""
    vector = ir.VectorType(ir.DoubleType(), W).as_pointer()
    rows = [builder.bitcast(make_array(t)(context, builder, v).data, vector) for t, v in zip(signature.args, args)]
    total = None
    for x, a in zip(rows[1::2], rows[2::2]):
        product = builder.fmul(builder.load(a, align=8), builder.load(x, align=8))
        total = product if total is None else builder.fadd(total, product)
    builder.store(builder.fsub(builder.load(rows[0], align=8), total), rows[0], align=8)
    return context.get_dummy_value()


@intrinsic
def sub_scaled(typingctx, y, x, a):
    """``y[:W] -= a[:W] * x[:W]`` for lane rows, one vector operation (:func:`sub_products`): a loop over the lanes
    inside a loop over a matrix's columns was vectorised over the columns (scatter stores) with the lane count
    constant, and in two halves with a loop test with it a run-time value (on talos, CPU time a state:
    the factor, M^-1 from it and the solves of the ABA derivatives 15-20% faster this way)."""
    return types.void(y, x, a), sub_products


@intrinsic
def sub_scaled2(typingctx, y, x, a, z, b):
    """``y[:W] -= a[:W] * x[:W] + b[:W] * z[:W]`` for lane rows (:func:`sub_products`): two updates for one load and
    store of ``y``."""
    return types.void(y, x, a, z, b), sub_products
