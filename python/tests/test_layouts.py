# Hardware layouts under Gluon's names, specs, bank conflicts, plans and pictures: the same
# answers as the CLI, since both run the library's code.
import json
import subprocess
import xml.dom.minidom

import pytest

import linlayout as ll
from linlayout import LinearLayout

BLOCKED = ll.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
TRANSPOSED = ll.BlockedLayout([4, 1], [4, 8], [1, 4], [0, 1])
ATTR = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
        "order = [1, 0]}>")


def test_gluon_classes_convert_as_their_specs():
    l = ll.to_linear_layout(BLOCKED, [32, 16])
    assert l == ll.to_linear_layout(BLOCKED.to_json(), [32, 16])
    assert l == ll.to_linear_layout(ATTR, [32, 16])
    assert l == BLOCKED.to_linear_layout((32, 16))
    assert l.get_in_dim_names() == ["register", "lane", "warp", "block"]
    mma = ll.NVMMADistributedLayout([2, 0], [4, 1], [16, 8])
    for layout in (mma, ll.DotOperandLayout(0, mma, 2), ll.SliceLayout(1, BLOCKED),
                   ll.DistributedLinearLayout([[0, 1]], [[0, 2], [1, 0], [2, 0], [4, 0], [8, 0]],
                                              [], [], [16, 4]),
                   ll.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16])):
        shape = [32] if isinstance(layout, ll.SliceLayout) else [64, 64]
        if isinstance(layout, ll.DistributedLinearLayout):
            shape = [16, 4]
        got = ll.to_linear_layout(layout, shape)
        want = ll.query("to_linear", layout=layout.to_json(), shape=shape)
        assert got.to_json() == want
    for layout in (ll.SwizzledSharedLayout(8, 1, 8, [1, 0]), ll.NVMMASharedLayout(128, 16),
                   ll.SharedLinearLayout([[0, 1], [0, 2], [1, 0]])):
        shape = [2, 4] if isinstance(layout, ll.SharedLinearLayout) else [64, 64]
        assert ll.to_linear_layout(layout, shape).get_in_dim_names()[0] == "offset"
    padded = ll.PaddedSharedLayout([[4, 1]], [[1], [2]], [[4]], [8])
    lin = ll.to_linear_layout(padded, [8])
    assert lin.get_in_dim_names() == ["offset", "block"]
    assert ll.layout_from_json(padded.to_json()) == padded
    with pytest.raises(ValueError, match="exactly once"):
        ll.to_linear_layout(ll.PaddedSharedLayout([[4, 1]], [[1], [2]], [[1]], [8]), [8])
    # Blackwell's tensor memory: in dims row and col, as the CLI answers.
    for tmem, shape in ((ll.TensorMemoryLayout([128, 64], 1), [128, 64]),
                        (ll.TensorMemoryLayout([64, 32], 2, [2, 1], True), [128, 64]),
                        (ll.TensorMemoryScalesLayout(), [128, 4])):
        got = ll.to_linear_layout(tmem, shape)
        assert got.get_in_dim_names() == ["row", "col"]
        assert got.to_json() == ll.query("to_linear", layout=tmem.to_json(), shape=shape)
        assert ll.layout_from_json(tmem.to_json()) == tmem


def test_layouts_with_a_shape_render_in_jupyter():
    reg = ll.get_tmem_reg_layout(32, [128, 64], ll.TensorMemoryLayout([128, 64], 1), 4)
    assert reg._repr_svg_() == reg.svg([128, 64])
    assert reg._repr_svg_().startswith("<svg")
    assert BLOCKED._repr_svg_() is None  # no shape: Jupyter shows its text


def test_get_tmem_reg_layout():
    # Gluon's 32x32b layout of a 128x128 fp32 accumulator: lane i reads row i, registers walk
    # the columns, warps 1 and 2 take rows 32 and 64.
    class Float32:  # a dtype as Gluon's: only its primitive_bitwidth is read
        primitive_bitwidth = 32

    reg = ll.get_tmem_reg_layout(Float32(), [128, 128], ll.TensorMemoryLayout([128, 128], 1), 4)
    assert reg == ll.DistributedLinearLayout([[0, 1 << i] for i in range(7)],
                                             [[1 << i, 0] for i in range(5)],
                                             [[32, 0], [64, 0]], [], [128, 128])
    assert reg == ll.get_tmem_reg_layout(32, [128, 128], ll.TensorMemoryLayout([128, 128], 1), 4)
    with pytest.raises(ValueError, match="8-bit scales"):
        ll.get_tmem_reg_layout(32, [128, 4], ll.TensorMemoryScalesLayout(), 4)
    with pytest.raises(ValueError, match="no 16x256b message layout"):
        ll.get_tmem_reg_layout(32, [128, 4], ll.TensorMemoryLayout([128, 4], 1), 4, "16x256b")
    with pytest.raises(TypeError, match="element_ty is a str"):
        ll.get_tmem_reg_layout("fp32", [128, 4], ll.TensorMemoryLayout([128, 4], 1), 4)


def test_layout_from_json():
    assert ll.layout_from_json(ATTR) == BLOCKED
    assert ll.layout_from_json(BLOCKED.to_json()) == BLOCKED
    s = ll.layout_from_json({"kind": "slice", "dim": 0, "parent": BLOCKED.to_json()})
    assert s == ll.SliceLayout(0, BLOCKED)
    lin = ll.to_linear_layout(BLOCKED, [32, 16])
    assert ll.layout_from_json(lin.to_json()) == lin
    assert ll.layout_from_json(json.dumps(lin.to_json())) == lin
    with pytest.raises(ValueError, match="size_per_thread"):
        ll.layout_from_json(dict(BLOCKED.to_json(), size_per_thread=[1, -1]))
    with pytest.raises(ValueError):
        ll.layout_from_json("#ttg.blocked<{nonsense}>")
    with pytest.raises(ValueError, match="kind"):
        ll.layout_from_json({"kind": "no_such_family"})


def test_any_text_the_cli_reads():
    typed = "tensor<32x16xf16, %s>" % ATTR
    assert ll.to_linear_layout(typed) == ll.to_linear_layout(BLOCKED, [32, 16])
    with pytest.raises(ValueError, match="shape"):
        ll.to_linear_layout(ATTR)


def test_errors_are_value_errors():
    with pytest.raises(ValueError, match="shape"):
        ll.to_linear_layout(BLOCKED, [32])
    with pytest.raises(ValueError):
        ll.to_linear_layout(ll.BlockedLayout([1, 3], [8, 4], [4, 1], [1, 0]), [32, 16])
    with pytest.raises(ValueError):
        ll.plan(BLOCKED, ll.SwizzledSharedLayout(1, 1, 1, [1, 0]), [32, 16], 16)
    with pytest.raises(ValueError):
        ll.plan(BLOCKED, TRANSPOSED, [32, 16], 12)
    with pytest.raises(TypeError):
        ll.to_linear_layout(42, [32, 16])


def test_bank_conflicts():
    reg = ll.BlockedLayout([1, 8], [32, 1], [4, 1], [1, 0])
    n = ll.bank_conflicts(reg, ll.SwizzledSharedLayout(1, 1, 1, [1, 0]), [128, 64], 16)
    assert n == ll.query("bank_conflicts", reg=reg, shared=ll.SwizzledSharedLayout(1, 1, 1, [1, 0]),
                         shape=[128, 64], bitwidth=16)
    assert n > 0
    assert ll.bank_conflicts(reg, ll.SwizzledSharedLayout(8, 1, 8, [1, 0]), [128, 64], 16) == 0


def test_plan_matches_the_cli(cli):
    p = ll.plan(ATTR, TRANSPOSED, [128, 128], 16)
    for key in ("path", "steps", "counts", "wavefronts", "scratch_bytes", "cycles",
                "alternatives"):
        assert key in p
    dst = ("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], "
           "order = [0, 1]}>")
    out = subprocess.run([cli, "plan", "--src", ATTR, "--dst", dst, "--shape", "128x128",
                          "--dtype", "f16", "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("this CLI's plan takes other options: " + out.stderr[:200])
    assert json.loads(out.stdout) == p.as_dict()
    assert p.path == p["path"] and p.cycles > 0
    assert "path: " in str(p)
    forced = ll.plan(ATTR, TRANSPOSED, [128, 128], 16, path="shared-memory", target="sm_80")
    assert forced.path == "shared-memory" and forced.target == "sm_80"


def test_pictures():
    text = ll.picture(BLOCKED, [8, 16])
    assert text.startswith("[[") and "T0:0|T32:0|T64:0|T96:0" in text
    assert "T0:" in ll.picture(BLOCKED, [8, 16], inverse=True)
    svg = ll.to_linear_layout(BLOCKED, [32, 16])._repr_svg_()
    xml.dom.minidom.parseString(svg)
    assert svg.count('class="cell"') == 32 * 16
    shared = ll.NVMMASharedLayout(128, 16).svg([16, 64])
    xml.dom.minidom.parseString(shared)
    plan_svg = ll.plan(BLOCKED, TRANSPOSED, [32, 16], 16)._repr_svg_()
    xml.dom.minidom.parseString(plan_svg)
    big = LinearLayout.identity_1d(1 << 21, "register", "dim0")
    assert big._repr_svg_() is None  # too many elements to draw: Jupyter shows the text
    assert "register" in str(ll.to_linear_layout(BLOCKED, [32, 16]))
    view = ll.to_linear_layout(BLOCKED, [8, 16]).get_distributed_view(False)
    assert view == ll.picture(BLOCKED, [8, 16], max_cols=32)
