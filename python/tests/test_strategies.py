# linlayout.testing.strategies draws what it promises: layouts of every family that convert.
import pytest

pytest.importorskip("hypothesis")
from hypothesis import given  # noqa: E402

import linlayout as ll  # noqa: E402
from linlayout.testing import strategies as lls  # noqa: E402


@given(lls.layouts_with_shapes())
def test_every_family_converts(pair):
    layout, shape = pair
    l = ll.to_linear_layout(layout, shape)
    assert [s for _, s in l.out_dims] == list(shape)
    assert ll.layout_from_json(layout.to_json()) == layout


@given(lls.layouts_with_shapes(lls.distributed_layouts()))
def test_distributed_layouts_are_surjective(pair):
    assert ll.to_linear_layout(*pair).is_surjective()


@given(lls.invertible_layouts())
def test_invertible(l):
    assert l.is_invertible()


@given(lls.surjective_layouts())
def test_surjective(l):
    assert l.is_surjective()
