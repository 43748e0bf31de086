"""Zero-cost shaped views into a flat buffer, for the kernels.

``np.reshape`` in numba goes through a generic stride computation (about 16 ns a call), which
dominated the cost of cutting a workspace into its ~40 named arrays at every kernel call. ``view(buf, offset,
shape)`` builds the C-contiguous array header directly (the caller guarantees ``offset + prod(shape) <= len``):
the layout functions check the total size once against the buffer's length.
"""

from __future__ import annotations

from types import FunctionType

import numpy as np

from .jit import intrinsic, njit


@intrinsic
def view(typingctx, buf, offset, shape):
    """C-contiguous view of ``buf[offset:]`` with the given ``shape`` (a tuple of ints), sharing its memory."""
    from numba import types
    from numba.core import cgutils
    from numba.np.arrayobj import make_array, populate_array

    if not isinstance(buf, types.Array) or buf.ndim != 1 or not isinstance(shape, types.BaseTuple):
        return None
    ndim = len(shape)
    retty = types.Array(buf.dtype, ndim, "C")
    sig = retty(buf, offset, shape)

    def codegen(context, builder, signature, args):
        buf_val, offset_val, shape_val = args
        src = make_array(signature.args[0])(context, builder, buf_val)
        dst = make_array(retty)(context, builder)
        intp = context.get_value_type(types.intp)
        dims = [builder.sext(builder.extract_value(shape_val, k), intp)
                if builder.extract_value(shape_val, k).type != intp else builder.extract_value(shape_val, k)
                for k in range(ndim)]
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(buf.dtype)))
        strides = [itemsize] * ndim
        for k in range(ndim - 2, -1, -1):
            strides[k] = builder.mul(strides[k + 1], dims[k + 1])
        off = offset_val if offset_val.type == intp else builder.sext(offset_val, intp)
        data = builder.gep(src.data, [off])
        populate_array(dst, data=data, shape=cgutils.pack_array(builder, dims), strides=cgutils.pack_array(builder, strides),
                       itemsize=itemsize, meminfo=src.meminfo, parent=src.parent)
        out = dst._getvalue()
        context.nrt.incref(builder, retty, out)
        return out

    return sig, codegen


def _ownerless(context, builder, typ, value):
    """Code for the array ``value`` of type ``typ`` with a null meminfo and parent (the same data, shape and
    strides): :func:`borrowed`'s and :func:`borrowed_all`'s."""
    from numba.core import cgutils
    from numba.np.arrayobj import make_array, populate_array

    src = make_array(typ)(context, builder, value)
    dst = make_array(typ)(context, builder)
    populate_array(dst, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize,
                   meminfo=cgutils.get_null_value(dst.meminfo.type), parent=cgutils.get_null_value(dst.parent.type))
    return dst._getvalue()


@intrinsic
def borrowed(typingctx, arr):
    """``arr`` without an owner (null meminfo and parent): the views and slices cut from it skip the atomic
    reference counting that numba otherwise does on each (nearly half of forward kinematics, all on the
    workspace's one counter). Valid only while the caller keeps ``arr`` alive, i.e. for a kernel's argument
    during the call; never return it, or a view of it, to Python."""
    from numba import types

    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        return _ownerless(context, builder, arr, args[0])

    return sig, codegen


@njit(cache=True, forceinline=True)
def take(room, shape):
    """``(array, rest)``: a C-contiguous array of ``shape`` cut from the front of the 1-D ``room`` (a :func:`view`:
    nothing allocated, and from a borrowed room no reference counted) and the room after it; a new array, and the
    whole room, when the room is too small. The kernels' scratch arrays come from a room kept from call to call."""
    n = 1
    for s in shape:
        n *= s
    if n <= room.shape[0]:
        return view(room, 0, shape), room[n:]
    return np.empty(shape, room.dtype), room


@intrinsic
def borrowed_all(typingctx, arrays):
    """The tuple ``arrays`` with each array :func:`borrowed` (other members as they are): for an object that holds
    arrays it does not own, whose owner keeps them alive for as long as the object is used (the simulator's step
    context). Reading such a field, passing it to a kernel and cutting views of it then count no reference."""
    from numba import types

    if not isinstance(arrays, types.BaseTuple):
        return None
    sig = arrays(arrays)

    def codegen(context, builder, signature, args):
        out = args[0]
        for i, typ in enumerate(arrays):
            member = builder.extract_value(args[0], i)
            if isinstance(typ, types.Array):
                member = _ownerless(context, builder, typ, member)
            else:
                context.nrt.incref(builder, typ, member)
            out = builder.insert_value(out, member, i)
        return out

    return sig, codegen


def python_view(buf, offset, shape):
    """:func:`view` for plain Python: the same C-contiguous view, through numpy."""
    return buf[offset : offset + int(np.prod(shape))].reshape(shape)


def in_python(layout, **replace):
    """A plain-Python copy of the compiled layout function ``layout`` (its ``view`` calls done by numpy, and any
    other global it calls replaced as ``replace`` says), so that creating a ``Data`` cuts its buffers without
    loading numba's compiled code (about 0.3 s the first time in a process); the kernels keep the compiled one."""
    fn = layout.py_func
    return FunctionType(fn.__code__, {**fn.__globals__, "view": python_view, **replace}, fn.__name__,
                        fn.__defaults__, fn.__closure__)
