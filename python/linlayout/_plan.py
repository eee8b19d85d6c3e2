"""Conversion plans: what ``linlayout plan --json`` answers, as a Python object."""
import html
import re

from ._layouts import _spec, _ints, to_linear_layout
from ._query import query


class Plan:
    """A layout conversion's plan: ``path``, ``steps``, ``counts``, ``wavefronts``,
    ``scratch_bytes``, ``cycles``, ``alternatives`` (and ``target``, ``bitwidth``, ``warps``), as
    the fields of ``linlayout plan --json``. ``as_dict()`` gives that JSON object itself."""

    def __init__(self, facts, src=None, dst=None, shape=None):
        self._facts = facts
        self._src, self._dst, self._shape = src, dst, shape

    def __getattr__(self, name):
        facts = self.__dict__.get("_facts", {})
        if name in facts:
            return facts[name]
        raise AttributeError(name)

    def __getitem__(self, key):
        return self._facts[key]

    def __contains__(self, key):
        return key in self._facts

    def __eq__(self, other):
        return isinstance(other, Plan) and self._facts == other._facts

    def as_dict(self):
        return self._facts

    def __repr__(self):
        return "Plan(path=%r, cycles=%r, scratch_bytes=%r)" % (
            self._facts.get("path"), self._facts.get("cycles"), self._facts.get("scratch_bytes"))

    def __str__(self):
        f = self._facts
        lines = ["path: %s (%s, %d-bit elements, %s warps)" % (
            f["path"], f["target"], f["bitwidth"], f.get("warps", "?"))]
        lines.append("estimated cycles per CTA: %g, scratch: %d bytes" % (f["cycles"],
                                                                          f["scratch_bytes"]))
        counts = ", ".join("%s %s" % (k, v) for k, v in sorted(f["counts"].items()) if v)
        lines.append("instructions: %s" % (counts or "none"))
        w = f["wavefronts"]
        lines.append("wavefronts: store %d, load %d, conflicts %d" % (w["store"], w["load"],
                                                                   w["conflicts"]))
        for i, step in enumerate(f["steps"]):
            extra = ", ".join("%s=%s" % (k, v) for k, v in step.items() if k != "step"
                              and not isinstance(v, (dict, list)))
            lines.append("step %d: %s %s" % (i + 1, step["step"], extra))
        for alt in f["alternatives"]:
            lines.append("alternative: %s, %g cycles: %s" % (alt["path"], alt["cycles"],
                                                            alt.get("note", "")))
        return "\n".join(lines) + "\n"

    def _repr_svg_(self):
        """The source and destination layouts side by side under the plan's figures."""
        if self._src is None or self._shape is None:
            return None
        try:
            pics = [to_linear_layout(l, self._shape).svg(bitwidth=self.bitwidth, title=t)
                    for l, t in ((self._src, "source"), (self._dst, "destination"))]
        except ValueError:
            return None
        caption = str(self).splitlines()[:4]
        top = 18 * len(caption) + 10
        x, height, parts = 0, 0, []
        for svg in pics:
            svg = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
            w = float(re.search(r'width="([\d.]+)', svg).group(1))
            h = float(re.search(r'height="([\d.]+)', svg).group(1))
            parts.append(svg.replace("<svg", '<svg x="%g" y="%d"' % (x, top), 1))
            x += w + 20
            height = max(height, h)
        text = "".join('<text x="4" y="%d" font-family="monospace" font-size="13">%s</text>' %
                       (18 * (i + 1), html.escape(line)) for i, line in enumerate(caption))
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g">%s%s</svg>' %
                (max(x, 600), top + height, text, "".join(parts)))


def plan(src, dst, shape, bitwidth, target=None, path=None, detail=False):
    """The plan for converting a tensor of ``shape`` and ``bitwidth``-bit elements from
    distributed layout ``src`` to ``dst`` (Gluon-named classes, spec dicts or attribute strings):
    the cheapest path, or ``path`` ("warp-shuffle", "shared-memory", ...) where given;
    ``target`` "sm_80" or "sm_90" (the default). Raises ValueError where the CLI errs."""
    fields = {"src": _spec(src), "dst": _spec(dst), "shape": _ints(shape),
              "bitwidth": int(bitwidth)}
    if target is not None:
        fields["target"] = target
    if path is not None:
        fields["path"] = path
    if detail:
        fields["detail"] = True
    return Plan(query("plan", **fields), src, dst, _ints(shape))
