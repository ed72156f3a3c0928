"""Broadcasting of elementwise arguments, shared by `pbgi.reference` and `pbgi.fast`.

Arguments broadcast like a numpy ufunc's. Each is handed to the compiled module as a 1-D
contiguous float64 array of either one element (shared by every element of the result) or one
element per result element. An argument that already has the result's shape and is C-contiguous
float64 is passed as a view, never copied; only an argument that must be expanded by
broadcasting (say shape (3, 1) against (1, 4)) is materialised.
"""

import numpy as np

from . import _pbgi


class Call:
    """The arguments of one elementwise call, broadcast together.

    `shape` is the result's shape, `size` its number of elements, `flat` the arguments as the
    compiled module takes them, `arrays` the arguments as float64 arrays of their own shapes
    (for error messages).
    """

    __slots__ = ("names", "arrays", "shape", "size", "flat")

    def __init__(self, names, values):
        self.names = names
        self.arrays = []
        for name, value in zip(names, values):
            try:
                self.arrays.append(np.asarray(value, dtype=np.float64))
            except (TypeError, ValueError) as error:
                raise TypeError(
                    f"{name}: expected a real number or an array of them, got {value!r}"
                ) from error
        try:
            self.shape = np.broadcast_shapes(*(a.shape for a in self.arrays))
        except ValueError:
            shapes = ", ".join(f"{n} {a.shape}" for n, a in zip(names, self.arrays))
            raise ValueError(f"arguments cannot be broadcast together: {shapes}") from None
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.flat = [self._flat(a) for a in self.arrays]

    def _flat(self, array):
        if array.size == 1:
            return array.reshape(1)
        if array.shape != self.shape:
            array = np.broadcast_to(array, self.shape)
        return np.ascontiguousarray(array).reshape(-1)

    def result_index(self, flat_index):
        """The index, in the result's shape, of result element `flat_index`."""
        if self.shape == ():
            return ()
        return tuple(int(i) for i in np.unravel_index(flat_index, self.shape))

    def index_in(self, position, flat_index):
        """The index, in argument `position`'s own shape, of result element `flat_index`."""
        full = self.result_index(flat_index)
        own = self.arrays[position].shape
        offset = len(self.shape) - len(own)
        return tuple(0 if own[k] == 1 else full[offset + k] for k in range(len(own)))

    def invalid_input(self, error):
        """The public `InvalidInput` for the compiled module's `(position, element, message)`."""
        position, element, message = error.args
        name = self.names[position]
        index = self.index_in(position, element)
        where = f"{name}[{', '.join(map(str, index))}]" if index else name
        result = _pbgi.InvalidInput(f"{where}: {message}")
        result.argument = name
        result.index = index
        return result

    def shaped(self, flat):
        """`flat` (one value per element) in the result's shape; a numpy scalar for 0-d."""
        return flat.reshape(self.shape)[()] if self.shape == () else flat.reshape(self.shape)


def output(name, out, call):
    """The caller's `out=` array checked against the result, as a flat view (or None)."""
    if out is None:
        return None
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}: expected a numpy array, got {type(out).__name__}")
    if out.dtype != np.float64:
        raise TypeError(f"{name}: expected dtype float64, got {out.dtype}")
    if out.shape != call.shape:
        raise ValueError(f"{name}: shape {out.shape}, the result has shape {call.shape}")
    if not out.flags.c_contiguous:
        raise ValueError(f"{name}: must be C-contiguous")
    if not out.flags.writeable:
        raise ValueError(f"{name}: is read-only")
    return out.reshape(-1)


def overlaps(out_flat, call):
    """Whether the output shares memory with an argument (then the kernel writes a copy)."""
    return any(np.may_share_memory(out_flat, a) for a in call.flat)
