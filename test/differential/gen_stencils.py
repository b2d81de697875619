#!/usr/bin/env python3
"""gen_stencils.py - random DSL programs for the differential test.

generate_program(seed, count, wild) returns the C++ text of one program: `count`
random stencils (2-D/3-D/4-D, float/double, offsets within a radius, locals,
helpers, constant-trip loops with signed, unsigned and wrapping counters,
integer helpers that fault unless guarded by ?:/&&/||, ?:, if/else, math
functions, idx.i()/j()/k(); free functions passed by name, by address or
through a function-pointer variable),
each run by diff_harness.hpp's Case on the host reference, the generated
OpenMP code and, when linked in, the generated CUDA code.

The generator does a forward error analysis while it builds each expression
(docs/correctness.md, "How the CUDA tolerance is derived"): every value is
positive with a known interval, and carries E, a bound on the relative
difference between the device's and the host's value. Rules (u: the unit
roundoff of the operation's type, 2^-24 or 2^-53):
  a + b, a * b, a / b      E = Ea + Eb + 2u   (sum: max(Ea, Eb) + 2u)
  a - b (only if a >= 2b)  E = 2 Ea + Eb + 2u
  f(x)                     E = cond_f(x) Ex + 2u (ulp_dev(f) + ulp_host(f))
  conversion to float      E = Ex + 2 u_float
In a double stencil, operations and std:: calls whose operands are all float
(float_detour's) round in float: u_float, and the float ulp table.
Conditions only test exact values (array elements, parameters, coordinates,
constants), so both sides take the same branch; floor/ceil/round/trunc/fmod
only see exact values. The stored expression's E is the stencil's CUDA
tolerance. FMA contraction is covered: a contracted a*b+c rounds once, within
the 2u the rule allows for the two operations.

wild=True (OpenMP only, compared bit for bit) lifts those restrictions:
unguarded subtraction, conditions on computed values, rounding functions of
computed values; the only exclusion is fmin/fmax of zeros of opposite sign
(their operands get `+ T(0)`), whose result C leaves unspecified.
"""
import math
import random

# Maximum ulp error of the CUDA math library (CUDA C++ Programming Guide,
# "Mathematical Functions" appendix, single- and double-precision tables, with
# the default -prec-div=true -prec-sqrt=true) and a bound for the host library
# (glibc's documented x86_64 maxima are at most 2 ulp for these functions; 4
# is used). Exact functions (fabs, floor, fmin, fma, sqrt, ...) have 0.
CUDA_ULP_F = {"cbrt": 1, "exp": 2, "exp2": 2, "expm1": 1, "log": 1, "log2": 1,
              "log10": 2, "log1p": 1, "pow": 4, "sin": 2, "cos": 2, "tan": 4,
              "asin": 2, "acos": 2, "atan": 2, "atan2": 3, "sinh": 3, "cosh": 2,
              "tanh": 2, "hypot": 3}
CUDA_ULP_D = {"cbrt": 1, "exp": 1, "exp2": 1, "expm1": 1, "log": 1, "log2": 1,
              "log10": 1, "log1p": 1, "pow": 2, "sin": 2, "cos": 2, "tan": 2,
              "asin": 2, "acos": 2, "atan": 2, "atan2": 2, "sinh": 2, "cosh": 1,
              "tanh": 1, "hypot": 2}
HOST_ULP = 4
# The stored tolerance is the first-order bound times this factor, for the
# second-order terms the analysis drops (products of two error terms).
SECOND_ORDER = 1.01

U = {"float": 2.0 ** -24, "double": 2.0 ** -53}


class Val:
    """An expression: its C++ text, value interval, error bound, exactness;
    single: a float value in a double stencil (float_detour), whose
    operations among floats round in float."""

    single = False

    def __init__(self, code, lo, hi, err, exact=False):
        self.code, self.lo, self.hi, self.err, self.exact = code, lo, hi, err, exact


def lit(ty, v):
    text = repr(float(v))
    return f"{text}f" if ty == "float" else text


# Loop counter types: (bits, signed).
LOOP_TYPES = {"int": (32, True), "long long": (64, True), "unsigned": (32, False),
              "unsigned long long": (64, False), "std::size_t": (64, False),
              "std::uint32_t": (32, False), "std::int64_t": (64, True)}


def int_lit(ctype, v):
    bits, signed = LOOP_TYPES[ctype]
    if signed:
        return f"{v}" if bits == 32 else f"{v}LL"
    return f"{v}u" if bits == 32 else f"{v}ull"


def simulate_loop(ctype, begin, cmp, end, step, limit=7):
    """The counter values of `for (T m = begin; m cmp end; m += step)` in C++,
    or None where it runs more than `limit` trips or a signed counter
    overflows (also in the step after the last trip, which C++ executes)."""
    bits, signed = LOOP_TYPES[ctype]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= begin <= hi or not lo <= end <= hi:
        return None
    test = {"<": lambda a: a < end, "<=": lambda a: a <= end, ">": lambda a: a > end,
            ">=": lambda a: a >= end, "!=": lambda a: a != end}[cmp]
    m, seen = begin, []
    while test(m):
        seen.append(m)
        if len(seen) > limit:
            return None
        m += step
        if signed and not lo <= m <= hi:
            return None
        m &= (1 << bits) - 1 if not signed else -1
    return seen


def loop_shape(rng):
    """A random counted loop with 1-6 trips: plain int loops, steps wider than
    the range, unsigned counters that wrap."""
    while True:
        ctype = rng.choice(list(LOOP_TYPES))
        bits, signed = LOOP_TYPES[ctype]
        kind = rng.random()
        cmp = rng.choice(["<", "<=", "!=", ">", ">="])
        if kind < 0.35:
            begin, step = rng.choice([(0, 1), (0, 2), (1, 1), (6, -1), (9, -3)])
            end = begin + step * rng.randint(2, 5)
            cmp = "<" if step > 0 else ">"
        elif kind < 0.65:
            # A step wider than the range (or near it).
            begin = rng.randint(0, 9)
            width = rng.choice([3, 7, 10, 1000, 1000000000])
            step = rng.choice([width, -width])
            end = begin + rng.choice([1, 2, 3, 10, 29]) * (1 if step > 0 else -1)
            if not signed and end < 0:
                continue
        elif not signed:
            # Unsigned wrap-around: near the top, or a step of -k written as
            # 2^bits - k, or a decrement past zero.
            top = (1 << bits) - 1
            c = rng.random()
            if c < 0.35:
                begin, end = top - rng.randint(0, 6), rng.randint(0, 9)
                step = rng.choice([1, 2, 3])
                cmp = rng.choice(["!=", ">", ">="])
            elif c < 0.7:
                begin, end = rng.randint(0, 9), rng.randint(0, 12)
                step = top + 1 - rng.randint(1, 3)  # counts down
                cmp = rng.choice(["<", "<=", "!="])
            else:
                begin, end = rng.randint(0, 6), rng.randint(0, 12)
                step = -rng.randint(1, 3)  # m -= k past zero wraps to the top
                cmp = rng.choice(["<", "<="])
        else:
            continue
        visited = simulate_loop(ctype, begin, cmp, end, step)
        if visited and 1 <= len(visited) <= 6:
            return ctype, begin, cmp, end, step, visited


def lower_rank_axes(shape_rng, dims, n_in):
    """Per input array, the dimensions it spans: in0 always all of them; each
    other, with probability 0.4, a random non-empty proper subset (a profile or
    a plane, read through idx.ix_z<...>() and the like). Drawn from their own
    generator, so the programs of a seed are otherwise those of the generator
    before arrays of lower rank."""
    full = (1 << dims) - 1
    axes = [full]
    for _ in range(1, n_in):
        axes.append(shape_rng.randint(1, full - 1) if shape_rng.random() < 0.4 else full)
    return axes


class StencilGen:
    def __init__(self, rng, name, wild, shape_rng=None):
        self.rng, self.name, self.wild = rng, name, wild
        self.ty = rng.choice(["float", "double"])
        self.dims = rng.choice([2, 3, 3, 4])
        self.radius = rng.choice([1, 1, 2, 3])
        self.n_in = rng.randint(1, 3)
        self.n_scalar = rng.randint(1, 3)
        self.n_out = rng.choice([1, 1, 1, 2])
        self.functor = rng.random() < 0.3
        self.u = U[self.ty]
        self.helpers = []
        self.lines = []
        self.locals = []  # Val of each local, by name in code
        self.n_local = 0
        self.mixed = self.ty == "double" and rng.random() < 0.4
        self.helper_leaves = None  # inside a helper: its parameters
        self.qname = None  # the faulting integer helper, once made
        # The dimensions each input spans (a harness array is large enough
        # for any of them: it has the full extents).
        self.axes = lower_rank_axes(shape_rng or random.Random(0), self.dims, self.n_in)

    # --- leaves -------------------------------------------------------------
    def idx_type(self):
        return f"stencil::Index{self.dims}D"

    def offset(self):
        r = self.radius
        return [self.rng.randint(-r, r) for _ in range(self.dims)]

    def load(self, arr=None):
        if arr is None:
            arr = f"in{self.rng.randrange(self.n_in)}"
        off = self.offset()
        axes = self.axes[int(arr[2:])] if arr.startswith("in") else (1 << self.dims) - 1
        if axes != (1 << self.dims) - 1:
            # An array of lower rank: the offsets of the dimensions it spans.
            letters = "".join("xyzw"[d] for d in range(self.dims) if axes >> d & 1)
            kept = [str(o) for d, o in enumerate(off) if axes >> d & 1]
            args = f"<{', '.join(kept)}>" if self.rng.random() >= 0.2 else ""
            return Val(f"{arr}[idx.ix_{letters}{args}()]", 1.0, 2.0, 0.0, True)
        if self.rng.random() < 0.2:
            return Val(f"{arr}[idx.ix()]", 1.0, 2.0, 0.0, True)
        return Val(f"{arr}[idx.ix<{', '.join(map(str, off))}>()]", 1.0, 2.0, 0.0, True)

    def full_rank_input(self):
        """An input of every dimension (in0 always is)."""
        full = [i for i, a in enumerate(self.axes) if a == (1 << self.dims) - 1]
        return f"in{self.rng.choice(full)}"

    def scalar(self):
        return Val(f"s{self.rng.randrange(self.n_scalar)}", 0.5, 1.5, 0.0, True)

    def coord(self):
        axis = self.rng.choice("ijkw"[: min(self.dims, 3)])
        mod = self.rng.randint(2, 7)
        # A small positive whole number: exact in both types.
        return Val(f"{self.ty}(idx.{axis}() % {mod} + 1)", 1.0, float(mod), 0.0, True)

    def const(self):
        v = self.rng.choice([0.25, 0.5, 0.75, 1.5, 2.0, 3.0, 0.1, 0.3, 1.7])
        return Val(lit(self.ty, v), v, v, 0.0, True)

    def exact_leaf(self):
        r = self.rng.random()
        if self.helper_leaves:
            return self.rng.choice(self.helper_leaves) if r < 0.8 else self.const()
        if r < 0.55:
            return self.load()
        if r < 0.75:
            return self.scalar()
        if r < 0.85:
            return self.coord()
        if r < 0.9 and self.qname:
            return self.guarded_call()
        return self.const()

    def leaf(self):
        if self.helper_leaves:
            return self.exact_leaf()
        if self.locals and self.rng.random() < 0.3:
            return self.rng.choice(self.locals)
        return self.exact_leaf()

    # --- operations ---------------------------------------------------------
    def binop(self, a, b, op):
        return self.widen(self.binop_(a, b, op))

    def widen(self, v):
        """Wild values have no meaningful interval: a dummy one keeps the
        domain choices of math() computable."""
        if self.wild and not v.exact:
            v.lo, v.hi, v.err = 0.5, 2.0, math.inf
        return v

    def binop_(self, a, b, op):
        v = self.binop_in(a, b, op, U["float"] if a.single and b.single else self.u)
        v.single = a.single and b.single
        return v

    def binop_in(self, a, b, op, u):
        if op == "+":
            return Val(f"({a.code} + {b.code})", a.lo + b.lo, a.hi + b.hi,
                       max(a.err, b.err) + 2 * u)
        if op == "*":
            return Val(f"({a.code} * {b.code})", a.lo * b.lo, a.hi * b.hi,
                       a.err + b.err + 2 * u)
        if op == "/":
            return Val(f"({a.code} / {b.code})", a.lo / b.hi, a.hi / b.lo,
                       a.err + b.err + 2 * u)
        if op == "-":
            if self.wild:
                return Val(f"({a.code} - {b.code})", a.lo - b.hi, a.hi - b.lo,
                           math.inf)
            # Scale b so that a >= 2 b: the difference keeps half of a.
            k = 0.5 * a.lo / b.hi
            p = 2.0 ** math.floor(math.log2(k)) if k > 0 else 0.0
            if p <= 0 or p < 1e-30:
                return self.binop(a, b, "+")
            # p is a power of two: the product is exact.
            return Val(f"({a.code} - {lit(self.ty, p)} * {b.code})", a.lo - p * b.hi,
                       a.hi - p * b.lo, 2 * a.err + b.err + 2 * u)
        raise ValueError(op)

    def call(self, f, args, cond, lo, hi, exact_fn=False):
        name = self.rng.choice([f"std::{f}", f]) if f not in ("min", "max", "abs") else f"std::{f}"
        if self.ty == "float" and self.rng.random() < 0.3 and f not in ("min", "max", "abs"):
            name = f + "f"  # C's float version
        # <cmath>'s std::f of floats computes in float; C's f (all that
        # <cmath> declares globally) in double.
        single = all(a.single for a in args) and name.startswith("std::")
        in_float = self.ty == "float" or single
        u = U["float"] if in_float else self.u
        ulp = 0 if exact_fn else (CUDA_ULP_F if in_float else CUDA_ULP_D)[f] + HOST_ULP
        err = cond * max(a.err for a in args) + 2 * u * ulp
        if f in ("fmin", "fmax", "hypot", "atan2", "pow"):
            err = cond * sum(a.err for a in args) + 2 * u * ulp
        v = Val(f"{name}({', '.join(a.code for a in args)})", lo, hi, err)
        v.single = single
        return v

    def squash(self, x, scale=1.0):
        """x / (x + 1) * scale: into (0, scale)."""
        one = Val(lit(self.ty, 1.0), 1.0, 1.0, 0.0, True)
        q = self.binop(x, self.binop(x, one, "+"), "/")
        if scale != 1.0:
            q = self.binop(q, Val(lit(self.ty, scale), scale, scale, 0.0, True), "*")
        # x / (x + 1) increases with x: the interval of the two ends (interval
        # division alone would lose that x is the same in both).
        if True:
            q.lo, q.hi = x.lo / (x.lo + 1) * scale, x.hi / (x.hi + 1) * scale
        return q

    def math(self, x, depth):
        rng, ty = self.rng, self.ty
        fs = ["sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
              "pow", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
              "cosh", "tanh", "fabs", "floor", "ceil", "trunc", "round", "fmod", "fmin",
              "fmax", "hypot", "fma", "copysign", "abs", "min", "max"]
        f = rng.choice(fs)
        if f == "sqrt":
            return self.call(f, [x], 0.5, math.sqrt(x.lo), math.sqrt(x.hi), exact_fn=True)
        if f == "cbrt":
            return self.call(f, [x], 1 / 3, x.lo ** (1 / 3), x.hi ** (1 / 3))
        if f in ("exp", "exp2", "expm1", "sinh", "cosh"):
            if x.hi > 4:
                x = self.squash(x, 4.0)
            g = {"exp": math.exp, "exp2": lambda v: 2 ** v, "expm1": math.expm1,
                 "sinh": math.sinh, "cosh": math.cosh}[f]
            cond = {"exp": x.hi, "exp2": x.hi * math.log(2), "expm1": 1 + x.hi,
                    "sinh": 1 + x.hi, "cosh": x.hi}[f]
            return self.call(f, [x], cond, g(x.lo), g(x.hi))
        if f in ("log", "log2", "log10"):
            # Away from 1, where the relative condition of log is unbounded.
            two = Val(lit(ty, 2.0), 2.0, 2.0, 0.0, True)
            y = self.binop(x, two, "+")
            g = {"log": math.log, "log2": math.log2, "log10": math.log10}[f]
            return self.call(f, [y], 1 / math.log(y.lo), g(y.lo), g(y.hi))
        if f == "log1p":
            return self.call(f, [x], 1.0, math.log1p(x.lo), math.log1p(x.hi))
        if f == "pow":
            y = self.const() if self.helper_leaves else self.rng.choice([self.scalar(), self.const()])
            if x.hi > 8:
                x = self.squash(x, 8.0)
            corners = [a ** b for a in (x.lo, x.hi) for b in (y.lo, y.hi)]
            # d pow / dx: relative condition y; y is exact.
            v = self.call(f, [x, y], 1.0, min(corners), max(corners))
            v.err = y.hi * x.err + 2 * self.u * ((CUDA_ULP_F if ty == "float" else CUDA_ULP_D)["pow"] + HOST_ULP)
            return v
        if f in ("sin", "cos", "tan"):
            y = self.squash(x)
            g = {"sin": math.sin, "cos": math.cos, "tan": math.tan}[f]
            cond = {"sin": 1.0, "cos": 1.6, "tan": 2.2}[f]
            lo, hi = sorted((g(y.lo), g(y.hi)))
            return self.call(f, [y], cond, lo, hi)
        if f in ("asin", "acos"):
            y = self.squash(x, 0.5)
            g = {"asin": math.asin, "acos": math.acos}[f]
            lo, hi = sorted((g(y.lo), g(y.hi)))
            return self.call(f, [y], 1.1, lo, hi)
        if f == "atan":
            return self.call(f, [x], 1.0, math.atan(x.lo), math.atan(x.hi))
        if f == "atan2":
            y = self.gen(depth + 1)
            return self.call(f, [y, x], 1.0, math.atan2(y.lo, x.hi), math.atan2(y.hi, x.lo))
        if f == "tanh":
            return self.call(f, [x], 1.0, math.tanh(x.lo), math.tanh(x.hi))
        if f in ("fabs", "abs"):
            return self.call(f, [x], 1.0, x.lo, x.hi, exact_fn=True)
        if f in ("floor", "ceil", "trunc", "round"):
            if not self.wild or self.rng.random() < 0.5:
                x = self.binop(self.exact_leaf(), Val(lit(ty, 4.0), 4, 4, 0, True), "*")
                x.err = 0.0
            g = {"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc,
                 "round": lambda v: math.floor(v + 0.5)}[f]
            one = Val(lit(ty, 1.0), 1, 1, 0, True)
            v = self.call(f, [x], 1.0, max(g(x.lo), 0), g(x.hi), exact_fn=True)
            v = self.binop(v, one, "+")  # stays positive
            if x.err == 0:
                v.err, v.exact = 0.0, True
            else:
                v.err = math.inf
            return v
        if f == "fmod":
            a, b = self.exact_leaf(), self.exact_leaf()
            v = self.call(f, [a, b], 1.0, 0.0, b.hi, exact_fn=True)
            v = self.binop(v, Val(lit(ty, 1.0), 1, 1, 0, True), "+")
            v.err, v.exact = 0.0, True
            return v
        if f in ("fmin", "fmax", "min", "max"):
            y = self.gen(depth + 1)
            a, b = x, y
            if self.wild and f in ("fmin", "fmax"):
                # fmin/fmax of +0 and -0 may return either (C Annex F):
                # x + 0 turns -0 into +0 and changes nothing else.
                z = lit(ty, 0.0)
                a = Val(f"({x.code} + {z})", x.lo, x.hi, x.err)
                b = Val(f"({y.code} + {z})", y.lo, y.hi, y.err)
            if f in ("min", "max"):
                # std::min/max need one type (a float detour may differ).
                a = Val(f"static_cast<{ty}>({a.code})", a.lo, a.hi, a.err)
                b = Val(f"static_cast<{ty}>({b.code})", b.lo, b.hi, b.err)
            g = min if f in ("fmin", "min") else max
            v = self.call(f, [a, b], 1.0, g(x.lo, y.lo), g(x.hi, y.hi), exact_fn=True)
            v.err = max(x.err, y.err)
            return v
        if f == "hypot":
            y = self.gen(depth + 1)
            return self.call(f, [x, y], 1.0, math.hypot(x.lo, y.lo), math.hypot(x.hi, y.hi))
        if f == "fma":
            b, c = self.gen(depth + 1), self.gen(depth + 1)
            v = self.call(f, [x, b, c], 1.0, x.lo * b.lo + c.lo, x.hi * b.hi + c.hi, exact_fn=True)
            v.err = max(x.err + b.err, c.err) + 2 * (U["float"] if v.single else self.u)
            return v
        if f == "copysign":
            y = self.exact_leaf()
            v = self.call(f, [x, y], 1.0, x.lo, x.hi, exact_fn=True)
            v.err = x.err
            return v
        raise ValueError(f)

    def float_detour(self, x):
        """A double value through float arithmetic (a double stencil's float
        local or float math call): rounding to float costs 2 u_float."""
        uf = U["float"]
        if self.rng.random() < 0.5:
            v = Val(f"std::sqrt(static_cast<float>({x.code}))", math.sqrt(x.lo),
                    math.sqrt(x.hi), 0.5 * (x.err + 2 * uf))
        else:
            name = f"t{self.n_local}"
            self.n_local += 1
            self.lines.append(f"float {name} = static_cast<float>({x.code}) * 1.5f;")
            v = Val(name, x.lo * 1.5, x.hi * 1.5, x.err + 4 * uf)
        v.single = True
        return v

    def gen(self, depth=0):
        rng = self.rng
        if depth >= 3 or rng.random() < 0.25 + 0.15 * depth:
            return self.leaf()
        r = rng.random()
        if r < 0.45:
            op = rng.choice(["+", "+", "*", "*", "/", "-"])
            return self.binop(self.gen(depth + 1), self.gen(depth + 1), op)
        if r < 0.72:
            return self.widen(self.math(self.gen(depth + 1), depth))
        if self.helper_leaves:
            return self.leaf()
        if r < 0.84:
            return self.select(depth)
        if r < 0.92 and self.mixed:
            return self.float_detour(self.gen(depth + 1))
        if r < 0.97 and self.helpers:
            return self.rng.choice(self.helpers)(self)
        return self.leaf()

    def condition(self):
        rng = self.rng
        if self.wild and rng.random() < 0.4:
            a, b = self.gen(2), self.gen(2)
            return f"{a.code} {rng.choice(['<', '<=', '>', '>='])} {b.code}"
        r = rng.random()
        if r < 0.15 and self.qname:
            return self.guarded_condition()
        if r < 0.4:
            axis = rng.choice("ijkw"[: min(self.dims, 3)])
            return f"idx.{axis}() % {rng.randint(2, 4)} == {rng.randint(0, 1)}"
        a, b = self.exact_leaf(), self.exact_leaf()
        return f"{a.code} {rng.choice(['<', '<=', '>', '>=', '!='])} {b.code}"

    def select(self, depth):
        a, b = self.gen(depth + 1), self.gen(depth + 1)
        v = Val(f"({self.condition()} ? {a.code} : {b.code})", min(a.lo, b.lo),
                max(a.hi, b.hi), max(a.err, b.err))
        v.single = a.single and b.single
        return v

    # --- statements ---------------------------------------------------------
    def new_local(self, v):
        name = f"l{self.n_local}"
        self.n_local += 1
        self.lines.append(f"{self.ty} {name} = {v.code};")
        loc = Val(name, v.lo, v.hi, v.err)
        self.locals.append(loc)
        return loc

    def statement(self):
        rng = self.rng
        r = rng.random()
        if r < 0.45:
            self.new_local(self.gen())
        elif r < 0.7:
            # if/else on an exact condition, assigning a local in both branches.
            name = f"l{self.n_local}"
            self.n_local += 1
            a, b = self.gen(1), self.gen(1)
            self.lines.append(f"{self.ty} {name};")
            self.lines.append(f"if ({self.condition()}) {{")
            self.lines.append(f"  {name} = {a.code};")
            self.lines.append("} else {")
            self.lines.append(f"  {name} = {b.code};")
            self.lines.append("}")
            self.locals.append(Val(name, min(a.lo, b.lo), max(a.hi, b.hi), max(a.err, b.err)))
        else:
            self.loop_statement()

    def loop_statement(self):
        """A loop with a constant trip count accumulating positive terms; the
        counter may be unsigned (wrapping) and the step wider than the range
        (issue 9 item 2): the trip count and the counter's values are the
        host's, simulated here with C++'s semantics of the counter's type."""
        rng = self.rng
        name = f"l{self.n_local}"
        self.n_local += 1
        ctype, begin, cmp, end, step, visited = loop_shape(rng)
        trips = len(visited)
        term = self.gen(1)
        unsigned = LOOP_TYPES[ctype][1] is False
        self.lines.append(f"{self.ty} {name} = {lit(self.ty, 0.0)};")
        if step == 1:
            inc = rng.choice(["++m", "m++"])
        elif step == -1:
            inc = rng.choice(["--m", "m--"])
        elif step > 0:
            inc = f"m += {int_lit(ctype, step)}"
        else:
            inc = f"m -= {int_lit(ctype, -step)}"
        self.lines.append(f"for ({ctype} m = {int_lit(ctype, begin)}; m {cmp} "
                          f"{int_lit(ctype, end)}; {inc}) {{")
        if rng.random() < 0.5:
            # The counter as a positive exact weight (a small whole number
            # whatever the counter's range).
            if unsigned:
                weights = [m % 5 + 1 for m in visited]
                wcode = f"{self.ty}(m % 5u + 1u)"
            else:
                weights = [int(math.fmod(m, 5)) + 6 for m in visited]
                wcode = f"{self.ty}(m % 5 + 6)"
            self.lines.append(f"  {name} = {name} + {wcode} * {term.code};")
            lo, hi = term.lo * sum(weights), term.hi * sum(weights)
        else:
            self.lines.append(f"  {name} = {name} + {term.code};")
            lo, hi = term.lo * trips, term.hi * trips
        self.lines.append("}")
        self.locals.append(Val(name, lo, hi, term.err + 2 * self.u * (trips + 1)))

    def make_helpers(self):
        ty, rng = self.ty, self.rng
        helpers = []
        # A scalar helper of two exact arguments (bounds evaluated for
        # arguments in [0.5, 2)).
        hname = f"{self.name}_h"
        saved = (self.locals, self.lines, self.n_local)
        self.locals, self.lines, self.n_local = [], [], 0
        pa = Val("a", 0.5, 2.0, 0.0, True)
        pb = Val("b", 0.5, 2.0, 0.0, True)
        self.helper_leaves = [pa, pb]
        body_a = self.binop(pa, self.math(pb, 2), rng.choice(["+", "*", "/"]))
        body_b = self.binop(pb, pa, rng.choice(["+", "*"]))
        text = [f"static inline {ty} {hname}({ty} a, {ty} b) {{"]
        if rng.random() < 0.5:
            text += [f"  if (a < b)", f"    return {body_a.code};", "  else",
                     f"    return {body_b.code};"]
        else:
            text += [f"  {ty} t = {body_a.code};", f"  return t + {body_b.code};"]
            body_b = self.binop(body_a, body_b, "+")
        text.append("}")
        self.locals, self.lines, self.n_local = saved
        self.helper_leaves = None
        res = Val("", min(body_a.lo, body_b.lo), max(body_a.hi, body_b.hi),
                  max(body_a.err, body_b.err))

        def call_h(g, res=res, hname=hname):
            a, b = g.exact_leaf(), g.exact_leaf()
            return Val(f"{hname}({a.code}, {b.code})", res.lo, res.hi, res.err)
        helpers.append(call_h)
        # A helper that reads an array through the index: a sum of loads.
        nname = f"{self.name}_nb"
        offs = [self.offset() for _ in range(rng.randint(2, 4))]
        terms = " + ".join(f"u[idx.ix<{', '.join(map(str, o))}>()]" for o in offs)
        text += [f"static {ty} {nname}(const {self.idx_type()} &idx, const {ty} *u) {{",
                 f"  return {terms};", "}"]
        n = len(offs)

        def call_nb(g, n=n, nname=nname):
            arr = g.full_rank_input()
            return Val(f"{nname}(idx, {arr})", n * 1.0, n * 2.0, 2 * g.u * (n - 1))
        helpers.append(call_nb)
        text += self.make_int_helper()
        helpers.append(StencilGen.guarded_call)
        self.helper_text = text
        self.helpers = helpers

    def make_int_helper(self):
        """An integer helper that faults (SIGFPE) on a zero divisor, called
        only behind a guard: `d != 0 ? q(n, d) : 0`, `d != 0 && q(n, d) > 1`,
        or inside a second helper's `?:` (issue 9 item 6: hoisting must not
        evaluate the untaken side). Its results are small whole numbers of
        coordinates: exact on every engine."""
        rng = self.rng
        self.qname, self.gname = f"{self.name}_q", f"{self.name}_g"
        body = rng.choice(["n / d", "n % d", "n / d + n % d", "(n + 1) / d"])
        # n in [0, 6], d in [0, 3]: q(n, d) in [0, 7] where d != 0.
        text = [f"static inline int {self.qname}(int n, int d) {{", f"  return {body};", "}"]
        if rng.random() < 0.5:
            text += [f"static int {self.gname}(int n, int d) {{",
                     f"  return d == 0 ? n : {self.qname}(n, d);", "}"]
        else:
            text += [f"static int {self.gname}(int n, int d) {{",
                     f"  if (d != 0 && {self.qname}(n, d) > 1)",
                     f"    return {self.qname}(n, d);", "  else", "    return n;", "}"]
        return text

    def int_operands(self):
        """n and d: whole numbers of coordinates, d sometimes zero; as
        expressions or as int locals of the stencil."""
        rng = self.rng
        axes = "ijkw"[: min(self.dims, 3)]
        n = f"idx.{rng.choice(axes)}() % {rng.randint(2, 7)}"
        d = f"idx.{rng.choice(axes)}() % {rng.randint(2, 4)}"
        if rng.random() < 0.4:
            names = []
            for e in (n, d):
                names.append(f"q{self.n_local}")
                self.n_local += 1
                self.lines.append(f"int {names[-1]} = static_cast<int>({e});")
            return names
        return [f"static_cast<int>({n})", f"static_cast<int>({d})"]

    def guarded_int(self):
        """An int expression in [0, 7] calling the faulting helper guarded."""
        n, d = self.int_operands()
        q = f"{self.qname}({n}, {d})"
        return self.rng.choice([f"({d} != 0 ? {q} : 0)", f"({d} == 0 ? 0 : {q})",
                                f"(!{d} ? 1 : {q})", f"{self.gname}({n}, {d})",
                                f"({d} != 0 && {q} > 1 ? {q} : 2)"])

    def guarded_call(self):
        v = self.guarded_int()
        return Val(f"{self.ty}({v} + 1)", 1.0, 8.0, 0.0, True)

    def guarded_condition(self):
        n, d = self.int_operands()
        q = f"{self.qname}({n}, {d})"
        return self.rng.choice([f"({d} != 0 && {q} > 1)", f"({d} == 0 || {q} < 2)",
                                f"{self.gname}({n}, {d}) >= 2",
                                f"({d} > 0 && ({q} > 2 || {q} == 0))"])

    def build(self):
        self.make_helpers()
        for _ in range(self.rng.randint(1, 4)):
            self.statement()
        stores = []
        tol = 0.0
        for o in range(self.n_out):
            v = self.gen()
            if self.rng.random() < 0.3 and self.locals:
                v = self.binop(v, self.rng.choice(self.locals), "+")
            stores.append(f"out{o}[idx.ix()] = {v.code};")
            tol = max(tol, v.err)
        # Plus one rounding of the stored result (a double value stored to a
        # float array, or the last operation).
        self.tolerance = tol * SECOND_ORDER + 2 * self.u
        if not math.isfinite(self.tolerance):
            self.tolerance = 0.0  # wild: not a CUDA case
        ty = self.ty
        params = [f"const {self.idx_type()} &idx"]
        params += [f"{ty} s{i}" for i in range(self.n_scalar)]
        params += [f"const {ty} *in{i}" for i in range(self.n_in)]
        params += [f"{ty} *out{i}" for i in range(self.n_out)]
        body = ["  " + l for l in self.lines + stores]
        out = list(self.helper_text)
        if self.functor:
            out.append(f"struct STENCIL_KERNEL {self.name} {{")
            out.append(f"  void operator()({', '.join(params)}) const {{")
            out += ["  " + l for l in body]
            out.append("  }")
            out.append("};")
        else:
            out.append("STENCIL_KERNEL")
            out.append(f"void {self.name}({', '.join(params)}) {{")
            out += body
            out.append("}")
        return out


def extents(rng, dims, radius):
    base = {2: (9, 40), 3: (5, 14), 4: (3, 7)}[dims]
    return [rng.randint(*base) + 2 * radius for _ in range(dims)]


def generate_program(seed, count, wild=False):
    """The text of one program with `count` stencils, all from `seed`."""
    rng = random.Random(seed)
    shape_rng = random.Random(f"{seed}-shapes")
    decls, runs = [], []
    for n in range(count):
        g = StencilGen(rng, f"st{n}", wild, shape_rng)
        decls += g.build() + [""]
        ext = extents(rng, g.dims, g.radius)
        case_seed = rng.randrange(1 << 31)
        args = []
        for i in range(g.n_scalar):
            # Some scalars are literals at the call site: the host reference
            # then sees constants (GCC folds math calls on them), the
            # generated code does not.
            if rng.random() < 0.3:
                args.append(lit(g.ty, rng.choice([0.3, 0.7, 1.1, 1.3])))
            else:
                args.append(f"C.Scalar[{i}]")
        args += [f"in[{i}]" for i in range(g.n_in)]
        args += [f"out[{i}]" for i in range(g.n_out)]
        # A free function by name, by address or through a function-pointer
        # variable (issue 9 item 7: engines look up the function).
        pre = ""
        if g.functor:
            callee = f"{g.name}()"
        else:
            form = rng.random()
            callee = g.name if form < 0.4 else f"&{g.name}"
            if form >= 0.7:
                decl = rng.choice(["const auto fp = &{};", "auto *fp = {};",
                                   "decltype(&{}) const fp = {};"])
                pre = "      " + decl.format(g.name, g.name) + "\n"
                callee = "fp"
        runs.append(
            f"  {{\n"
            f"    const int Ext[{g.dims}] = {{{', '.join(map(str, ext))}}};\n"
            f"    diff::Case<{g.ty}, {g.dims}> C(\"{g.name}\", {case_seed}u, Ext, {g.radius}, "
            f"{g.n_in}, {g.n_out}, {g.n_scalar}, {g.tolerance!r});\n"
            f"    C.run(O, [&](auto &loop, const {g.ty} *const *in, {g.ty} *const *out) {{\n"
            f"{pre}"
            f"      loop.run({callee}, {', '.join(args)});\n"
            f"    }});\n"
            f"  }}")
    text = [f"// Generated by test/differential/gen_stencils.py: seed {seed}, "
            f"{count} stencils{', wild' if wild else ''}. Do not edit.",
            "#include <stencil/dsl.hpp>", "", "#include <cmath>", "#include <cstddef>",
            "#include <cstdint>", "",
            "#include \"diff_harness.hpp\"", ""]
    text += decls
    text += ["int main(int argc, char **argv) {",
             "  const diff::Options O = diff::parseOptions(argc, argv);"]
    text += runs
    text += ["  return diff::summary(O);", "}", ""]
    return "\n".join(text)


def generate_stencils_only(seed, count):
    """Stencils and helpers without main(): a fuzz corpus seed that parses
    against the mock DSL header of the lit tests."""
    rng = random.Random(seed)
    text = [f"// Generated by test/differential/gen_stencils.py (stencils only): seed {seed}.",
            "#include <cmath>", "#include <cstddef>", "#include <cstdint>",
            "#include <stencil/dsl.hpp>", ""]
    for n in range(count):
        text += StencilGen(rng, f"st{n}", wild=n % 2 == 1).build() + [""]
    return "\n".join(text)


if __name__ == "__main__":
    import sys
    print(generate_program(int(sys.argv[1]) if len(sys.argv) > 1 else 1,
                           int(sys.argv[2]) if len(sys.argv) > 2 else 3,
                           len(sys.argv) > 3 and sys.argv[3] == "wild"))
