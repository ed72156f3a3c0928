"""Broadcasting of elementwise arguments, shared by `pbgi.reference` and `pbgi.fast`.

Arguments broadcast like a numpy ufunc's. Each is handed to the compiled module as a 1-D
contiguous float64 array of either one element (shared by every element of the result) or one
element per result element. An argument that already has the result's shape and is C-contiguous
float64 is passed as a view, never copied; only an argument that must be expanded by
broadcasting (say shape (3, 1) against (1, 4)) is materialised.
"""

import numbers
import operator

import numpy as np

from . import _pbgi

# What each refused dtype kind is, for the message (numpy's `dtype.kind` letters).
_REFUSED_KINDS = {
    "c": "complex numbers (the imaginary part would be lost; pass `.real` if that is meant)",
    "m": "timedelta64 values (durations, not numbers)",
    "M": "datetime64 values (dates, not numbers)",
    "U": "strings",
    "S": "bytes",
    "V": "structured or void values",
}


def real_array(name, value):
    """`value` as a float64 array (a view when it already is one), or a `TypeError` naming
    argument `name`.

    Accepted: real numbers and arrays (or nested sequences) of them: numpy bool, integer and
    float dtypes, and object arrays whose every element is a real number (`int`, `float`,
    `fractions.Fraction`, ...). Refused, because a conversion would silently lose or invent
    something: complex (the imaginary part), masked arrays (the mask), datetime64 and
    timedelta64 (not numbers), strings, and objects that are not real numbers (`None` would
    become NaN). An integer beyond float64's range raises `ValueError`.
    """
    if isinstance(value, np.ma.MaskedArray):
        raise TypeError(
            f"{name}: masked arrays are not accepted (the mask would be ignored); pass "
            f"`{name}.filled(value)` or `{name}.compressed()`"
        )
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"{name}: expected a real number or an array of them, got {_short(value)}"
        ) from error
    kind = array.dtype.kind
    if kind in "biuf":
        return array if array.dtype == np.float64 else array.astype(np.float64)
    if kind in _REFUSED_KINDS:
        raise TypeError(f"{name}: expected real numbers, got {_REFUSED_KINDS[kind]}")
    # Objects: every element must be a real number (None, Decimal, complex, str are not).
    out = np.empty(array.shape, dtype=np.float64)
    for index, item in np.ndenumerate(array):
        where = f"{name}[{', '.join(map(str, index))}]" if index else name
        if isinstance(item, (complex, np.complexfloating)) or not isinstance(
            item, (numbers.Real, np.bool_)
        ):
            raise TypeError(f"{where}: expected a real number, got {_short(item)}")
        try:
            out[index] = float(item)
        except OverflowError:
            raise ValueError(
                f"{where}: {_short(item)} is beyond float64's range (about ±1.8e308)"
            ) from None
    return out


def real_scalar(name, value):
    """`value` as a Python float, by `real_array`'s rules; also a `TypeError` for an array of
    more than one element."""
    array = real_array(name, value)
    if array.size != 1:
        raise TypeError(f"{name}: expected a real number, got an array of shape {array.shape}")
    return float(array.reshape(()))


def int_in(name, value, low, high):
    """`value` as an int in `[low, high]`, else an error naming argument `name`: `TypeError` for
    anything but an int (a float such as 1.5 or 1e30 is neither truncated nor converted, a bool
    is not a count; numpy integers are ints), `ValueError` outside the range."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected an int, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an int, got {_short(value)}") from None
    if not low <= number <= high:
        raise ValueError(f"{name}: must be an int from {low} to {high}, got {_short(number)}")
    return number


def _short(value, limit=60):
    """`repr(value)`, cut to `limit` characters (a 400-digit integer need not be printed)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


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
            self.arrays.append(real_array(name, value))
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
