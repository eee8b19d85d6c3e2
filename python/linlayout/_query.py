"""One op of the JSON query engine (docs/query.md), answered in-process: the same handlers as
``linlayout query``, without the process or the JSON lines."""
import json

from . import _core


def query(op, **fields):
    """The result of query op ``op`` on a request made of ``fields`` (JSON-able values; layouts
    may also be ``Layout`` or ``LinearLayout`` objects), as Python objects.
    Raises ValueError with the engine's message where the CLI answers an error line."""
    request = {k: _jsonable(v) for k, v in fields.items()}
    return json.loads(_core._query(op, json.dumps(request)))


def _jsonable(value):
    if isinstance(value, _core.LinearLayout):
        return json.loads(_core._layout_to_json(value))
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value
