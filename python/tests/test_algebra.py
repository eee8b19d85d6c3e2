# The algebra through Python, under the names and argument forms of Triton's binding
# (triton._C.libtriton.linear_layout.LinearLayout), checked against a direct evaluation.
import copy
import pickle

import pytest

from linlayout import LinearLayout as L

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

from linlayout.testing import strategies as lls  # noqa: E402


def blocked_32x16():
    return L.from_bases([("register", [[0, 1], [0, 2]]),
                         ("lane", [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]]),
                         ("warp", [[8, 0], [16, 0]])], ["dim0", "dim1"])


def evaluate(l, inputs):
    """The layout's outputs at named inputs, from its bases alone."""
    out = [0] * l.num_out_dims
    for name, vectors in l.bases:
        v = inputs.get(name, 0)
        for bit, basis in enumerate(vectors):
            if v >> bit & 1:
                out = [x ^ y for x, y in zip(out, basis)]
    return [(n, x) for (n, _), x in zip(l.out_dims, out)]


def every_input(l):
    sizes = l.in_dims
    total = 1
    for _, s in sizes:
        total *= s
    for flat in range(total):
        inputs = {}
        for name, s in sizes:
            inputs[name] = flat % s
            flat //= s
        yield inputs


def test_triton_forms():
    l = blocked_32x16()
    assert l.out_dims == [("dim0", 32), ("dim1", 16)]
    assert l.in_dims == [("register", 4), ("lane", 32), ("warp", 4)]
    assert l.bases[0] == ("register", [[0, 1], [0, 2]])
    assert l.get_in_dim_names() == ["register", "lane", "warp"]
    assert l.get_out_dim_names() == ["dim0", "dim1"]
    assert l.num_in_dims == 3 and l.num_out_dims == 2
    assert l.is_surjective() and l.is_injective() and l.is_invertible()
    assert l.apply([("register", 1), ("lane", 4)]) == [("dim0", 1), ("dim1", 1)]
    assert l.apply({"register": 1, "lane": 4}) == [("dim0", 1), ("dim1", 1)]
    # Explicit sizes, and a layout that does not reach every output.
    m = L.from_bases([("lane", [[1], [0]])], ["dim0"], [4], require_surjective=False)
    assert not m.is_surjective() and not m.is_injective()
    assert L.identity_1d(8, "lane", "dim0").apply([("lane", 5)]) == [("dim0", 5)]
    assert L.strided_1d(4, 2, "lane", "dim0").apply([("lane", 3)]) == [("dim0", 6)]
    assert L.zeros_1d(4, "lane", "dim0").apply({"lane": 3}) == [("dim0", 0)]
    assert L.identity_1d(size=4, inDim="a", outDim="b") == L.identity_1d(4, "a", "b")


def test_str_is_tritons_print():
    text = str(L.from_bases([("register", [[0, 1]]), ("lane", [])], ["dim0", "dim1"], [1, 2]))
    assert " - register=1 -> (0, 1)\n" in text
    assert " - lane is a size 1 dimension\n" in text
    assert text.endswith("where out dims are: [dim0 (size 1), dim1 (size 2)]")
    assert repr(blocked_32x16()) == str(blocked_32x16())


def test_value_semantics():
    a, b = blocked_32x16(), blocked_32x16()
    assert a == b and not (a != b) and hash(a) == hash(b)
    assert len({a, b, a.invert()}) == 2
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a
    c = a
    c *= L.identity_1d(2, "block", "dim2")
    assert c != a and a == b  # *= rebinds; the layout itself never changes


def test_errors_are_value_errors_with_the_librarys_message():
    not_bijective = L.from_bases([("lane", [[1], [1]])], ["dim0"], [4], require_surjective=False)
    with pytest.raises(ValueError, match="not bijective"):
        not_bijective.invert()
    with pytest.raises(ValueError, match="power of two"):
        L.from_bases([("lane", [[1]])], ["dim0"], [3])
    with pytest.raises(ValueError, match="out_dim_sizes"):
        L.from_bases([("lane", [[1]])], ["dim0"], require_surjective=False)
    with pytest.raises(ValueError):
        L.from_bases([("lane", [[1]])], ["dim0"], [2, 4])
    with pytest.raises(ValueError):
        blocked_32x16().compose(blocked_32x16())
    with pytest.raises(ValueError):
        blocked_32x16().apply({"nosuchdim": 1})
    with pytest.raises(ValueError):
        blocked_32x16().apply({"lane": 32})
    with pytest.raises(ValueError):
        L.identity_1d(0, "lane", "dim0")
    with pytest.raises(ValueError):
        L.identity_1d(4, "", "dim0")
    with pytest.raises(ValueError):
        L.from_bases([("lane", [[1, 0]])], ["dim0"], [4])
    with pytest.raises(ValueError):
        L.from_bases([("lane", [[-1]])], ["dim0"], [4])


def test_wrong_argument_types_are_type_errors():
    a = blocked_32x16()
    assert L() == L.empty() and a != 5 and not (a == "a")
    for call in (lambda: a.compose(), lambda: a.compose(5), lambda: a.invert(a),
                 lambda: a.invert_and_compose(a, a), lambda: a * 5, lambda: L(a)):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match="not a LinearLayout state"):
        L().__setstate__((1, 2, 3))


def test_rest_of_the_algebra():
    l = blocked_32x16()
    assert l.transpose_outs(["dim1", "dim0"]).out_dims == [("dim1", 16), ("dim0", 32)]
    assert l.transpose_ins(["warp", "lane", "register"]).in_dims[0] == ("warp", 4)
    flat = l.flatten_outs()
    assert flat.out_dims == [("dim0", 512)]
    assert flat.reshape_outs([("dim0", 32), ("dim1", 16)]) == l
    assert l.reshape_ins([("x", 512)]) == l.flatten_ins().rename_in_dim("register", "x")
    sub = l.sublayout(["lane"], ["dim1"])
    assert sub.in_dims == [("lane", 32)] and sub.out_dims == [("dim1", 16)]
    assert l.sublayout_is_zero(["warp"], ["dim1"])
    reg = L.identity_1d(4, "register", "dim1")
    rest = l.divide_left(reg)
    assert rest is not None and (reg * rest).transpose_outs(["dim0", "dim1"]) == l
    assert l.divide_left(L.identity_1d(4, "register", "dim0")) is None
    ident = L.identity_1d(4, "a", "a") * L.identity_1d(2, "b", "b")
    assert ident.quotient(["a"]) == L.identity_1d(2, "b", "b")
    bcast = L.from_bases([("lane", [[1], [0], [2]])], ["dim0"], [4])
    assert bcast.get_free_variable_masks() == {"lane": 2}
    assert bcast.remove_zero_bases_along_dim("lane").in_dims == [("lane", 4)]
    assert l.get_matrix_view()[0] == [0, 0, 0, 0, 1, 0, 0, 0, 0]
    assert l.get_in_dim_size("lane") == 32 and l.get_out_dim_size_log2("dim1") == 4
    assert l.get_total_in_dim_size() == 512 and l.get_num_consecutive_in_out() == 1
    both = L.identity_1d(4, "lane", "dim0").concat_ins(L.identity_1d(4, "warp", "dim0"))
    assert both.in_dims == [("lane", 4), ("warp", 4)]


def test_invert_and_compose_tritons_example():
    a = blocked_32x16()
    b = L.from_bases([("register", [[1, 0], [2, 0]]),
                      ("lane", [[4, 0], [8, 0], [0, 1], [0, 2], [0, 4]]),
                      ("warp", [[16, 0], [0, 8]])], ["dim0", "dim1"])
    c = a.invert_and_compose(b)
    assert c.compose(b) == a
    assert c.out_dims == [("register", 4), ("lane", 32), ("warp", 4)]


@given(lls.linear_layouts(max_in_bits=8))
def test_apply_matches_the_bases(l):
    for inputs in list(every_input(l))[:64]:
        assert l.apply(inputs) == evaluate(l, inputs)


@given(lls.invertible_layouts(max_bits=8))
def test_invert(l):
    inv = l.invert()
    for inputs in list(every_input(l))[:64]:
        assert inv.apply(dict(l.apply(inputs))) == sorted(inputs.items(),
                                                          key=lambda kv: l.get_in_dim_names()
                                                          .index(kv[0]))


@given(lls.surjective_layouts(max_bits=8))
def test_pseudoinvert_is_a_right_inverse(l):
    p = l.pseudoinvert()
    for name, size in l.out_dims:
        bit = 1
        while bit < size:
            y = {n: (bit if n == name else 0) for n, _ in l.out_dims}
            assert dict(l.apply(dict(p.apply(y)))) == y
            bit <<= 1


@given(st.data())
def test_invert_and_compose_law(data):
    b = data.draw(lls.surjective_layouts(max_bits=8))
    sizes = [s for _, s in b.out_dims]
    vector = st.tuples(*[st.integers(0, s - 1) for s in sizes]).map(list)
    bases = [(n, data.draw(st.lists(vector, max_size=3))) for n in ("register", "lane")]
    a = L.from_bases(bases, b.get_out_dim_names(), sizes, require_surjective=False)
    c = a.invert_and_compose(b)
    assert c.compose(b) == a


@given(lls.injective_layouts())
def test_injective_family(l):
    assert l.is_injective()


@given(lls.linear_layouts())
def test_round_trips(l):
    assert L.from_bases(l.bases, l.get_out_dim_names(), [s for _, s in l.out_dims],
                        require_surjective=False) == l
    assert L.from_json(l.to_json()) == l
    assert pickle.loads(pickle.dumps(l)) == l
