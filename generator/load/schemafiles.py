"""The JSON schemas as cardgen makes them from their files (generator/schemas/): with what
cardgen declares once filled in (values.py, declared.py, options.py, the element, board and
export registries), and what a `$ref` in them names, found by the schemas' own ids."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import Message, N_, Worded, _
from ..values import ENUMS, RANGES, WORDS
from ..values import FORMATS as SCHEMA_FORMATS

if TYPE_CHECKING:
    from referencing import Registry

# The schemas' folder, read as a folder of the package as shipped.py reads its parts
# (importlib.resources would import its readers and zipfile at every start: 3 ms).
_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
_SCHEMA_NAMES = ("common", "game", "deck", "sheet", "fonts", "checks", "layout", "element",
                 "printers", "board", "export")


def _filled(schema: Any) -> Any:
    """A schema as written with what cardgen defines once put in (values.py): `"x-enum":
    NAME` becomes the list, `"x-range": NAME` its minimum and maximum (`"x-count"`: how
    many entries a mapping holds), `{NAME}` in an `x-expected` text that list, format or
    range in words (values.WORDS); a `format` without an `x-expected` takes its wording."""
    if isinstance(schema, list):
        return [_filled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _filled(v) for k, v in schema.items() if k not in ("x-enum", "x-range", "x-count")}
    if "x-enum" in schema:
        out["enum"] = ENUMS[schema["x-enum"]]
    if "x-range" in schema:
        out["minimum"], out["maximum"] = RANGES[schema["x-range"]]
    if "x-count" in schema:  # how many entries a mapping holds
        out["minProperties"], out["maxProperties"] = RANGES[schema["x-count"]]
    if "x-options" in schema:  # keys declared once (generator/declared.py)
        out = _with_options(out)
    said = out.get("x-expected")
    if isinstance(said, str) and (not isinstance(said, Message) or said.values is None):
        out["x-expected"] = Worded(str(said), WORDS)  # translated where it is shown (N_ too)
    if isinstance(out.get("format"), str) and "x-expected" not in out and \
            out["format"] in SCHEMA_FORMATS:
        out["x-expected"] = SCHEMA_FORMATS[out["format"]].expected
    return out


def _fill_registry(schema: dict, marker: str, key: str, parts: dict, declared=None) -> dict:
    """A schema's part that a registry makes (generator/elements, boards, formats): its
    `key` enum and each kind's own keys, applied where `key` names it; with `declared`
    (options.Options), the keys every such document has, declared once."""
    out = {k: v for k, v in schema.items() if k != marker}
    out["properties"] = {**schema["properties"],
                         **(_declared(schema, declared) if declared is not None else {}),
                         key: parts[key]}
    if declared is not None and declared.schema().get("required"):
        out["required"] = declared.schema()["required"] + schema.get("required", [])
    out["allOf"] = _filled(parts["allOf"])
    return out


def _fill_registries(schema: dict) -> dict:
    """The parts of a schema that the element types, board shapes and export formats make."""
    from .. import boards, elements, formats
    if schema.get("x-element-keys"):
        schema = _fill_registry(schema, "x-element-keys", "type", elements.schema_parts(),
                                elements.COMMON)
    if schema.get("x-board-shapes"):
        schema = _fill_registry(schema, "x-board-shapes", "shape", boards.schema_parts(),
                                boards.BOARD)
    if schema.get("x-export-formats"):
        schema = _fill_registry(schema, "x-export-formats", "format", formats.schema_parts(),
                                formats.PROFILE)
    return schema


def _with_options(schema: dict) -> dict:
    """A mapping's schema with the keys of its `"x-options": NAME` group (declared.GROUPS)."""
    from ..declared import GROUPS
    group = GROUPS[schema["x-options"]]
    made = group.schema()
    out = {k: v for k, v in schema.items() if k != "x-options"}
    out["properties"] = {**schema.get("properties", {}), **_declared(schema, group)}
    if made.get("required"):
        out["required"] = made["required"] + schema.get("required", [])
    return out


class DeclaredTwice(ValueError):
    """A key a schema file writes that options.py declares too (a bug: one declaration)."""


def _declared(schema: dict, options) -> dict:
    """The `properties` of keys declared as options (options.Options), filled as a schema
    file's are; a key the file writes as well is declared twice."""
    twice = sorted(set(schema.get("properties", {})) & set(options.options))
    if twice:
        raise DeclaredTwice(f"schema '{schema.get('$id')}' writes {', '.join(twice)}, which "
                            f"options declare")
    return _filled(options.properties())


def _fill_element_defaults(schema, common_keys: dict):
    """`{"x-element-defaults": true}` (a layout's or a game's `defaults:`) made the mapping
    of the keys elements.default_keys allows."""
    from ..elements import default_keys
    if isinstance(schema, list):
        return [_fill_element_defaults(v, common_keys) for v in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("x-element-defaults"):
        keys = default_keys(common_keys)
        return {"type": "object",
                "x-expected": Worded(str.__str__(N_(
                    "a mapping of element keys: {font: latin, ...}")), {}),
                "propertyNames": {"enum": keys, "x-expected": _(
                    "a key of an element's style ({keys}), which every element without it "
                    "takes", keys=", ".join(keys))}}
    return {k: _fill_element_defaults(v, common_keys) for k, v in schema.items()}


def _plugins() -> tuple:
    """What the schemas are made from besides their files: the element types, board shapes
    and export formats registered now (a test may register its own)."""
    from ..boards import SHAPES
    from ..elements import NAMES
    from ..formats import FORMATS
    return tuple(NAMES), tuple(SHAPES), tuple(FORMATS)


@lru_cache(maxsize=1)
def element_keys() -> dict:
    """The keys every element takes (schemas/element.json's and elements.COMMON's)."""
    from ..elements import COMMON
    text = (_SCHEMAS / "element.json").read_text("utf-8")
    return {**json.loads(text)["properties"], **COMMON.properties()}


@lru_cache(maxsize=4)
def _schemas_for(plugins: tuple) -> dict[str, Any]:
    """Each schema, filled, by its $id."""
    schemas = {}
    common_keys = element_keys()
    for name in _SCHEMA_NAMES:
        text = (_SCHEMAS / f"{name}.json").read_text("utf-8")
        schema = _fill_registries(_fill_element_defaults(_filled(json.loads(text)),
                                                         common_keys))
        schemas[schema["$id"]] = schema
    return schemas


@lru_cache(maxsize=4)
def _registry_for(plugins: tuple) -> Registry:
    """The schemas as jsonschema finds what a $ref names (referencing's Registry)."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
    return Registry().with_resources(
        (uri, Resource.from_contents(schema, default_specification=DRAFT202012))
        for uri, schema in _schemas_for(plugins).items())


def lookup(target: str, schemas: dict[str, Any]) -> tuple[Any, str]:
    """(what an absolute $ref names, the $id of the schema it is in): the schema `cardgen:x`
    or a JSON pointer into it, `cardgen:x#/$defs/id`, as referencing finds them (our schemas
    have no anchors, and no $id but their own). LookupError if there is none."""
    uri, _hash, fragment = target.partition("#")
    found = schemas[uri]
    if fragment:
        if not fragment.startswith("/"):
            raise LookupError(target)
        for part in fragment[1:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            found = found[int(part)] if isinstance(found, list) else found[part]
    return found, uri


def _inline(schema: Any, base: str, schemas: dict[str, Any], active: tuple = ()) -> Any:
    """`schema` with each `$ref` replaced by what it refers to (our schemas write `$ref`
    alone, never beside other keywords). jsonschema would otherwise look a reference up
    again for every value it checks: once per card for a card's id. A reference back into
    itself (a recursive schema) stays, made absolute, for jsonschema to follow."""
    if isinstance(schema, list):
        return [_inline(item, base, schemas, active) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = f"{base}{ref}" if ref.startswith("#") else ref
        if target in active:
            return {"$ref": target}
        contents, _uri = lookup(target, schemas)
        return _inline(contents, target.split("#")[0], schemas, active + (target,))
    return {key: value if key in ("$id", "const", "enum") else
            _inline(value, base, schemas, active) for key, value in schema.items()}
