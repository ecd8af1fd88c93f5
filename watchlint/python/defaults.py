"""What configuration holds in the default deployment (SPEC §1), where the code shows it: the default of an
argparse argument (`args.namespace`), of a click or typer option (a command's parameter), of a settings class
attribute (`settings.observer.namespaces` with `Field(default_factory=set)`), and empty collections.

Each lookup answers with the expression that gives the default, to be evaluated where it is written, or with
a constant the declaration implies (`action="store_true"`: False); None when no default can be seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst

from watchlint.python.flow import Flow
from watchlint.python.names import is_true, literal_string

_EMPTY_CONSTRUCTORS = frozenset({"set", "list", "dict", "tuple", "frozenset"})
_FIELD_FUNCTIONS = frozenset({"pydantic.Field", "pydantic.fields.Field", "dataclasses.field", "attrs.field"})
_CLICK_DECORATORS = frozenset({"click.option", "click.argument"})
_PARSE_METHODS = frozenset({"parse_args", "parse_known_intermixed_args"})
MAX_STEPS = 6


@dataclass(frozen=True, slots=True)
class Constant:
    """A default the declaration implies rather than writes (`store_true` is False)."""

    value: object


Default = tuple[Flow, libcst.BaseExpression] | Constant  # an expression with the flow of its file, or a constant


def collection(node: libcst.BaseExpression) -> tuple[object, ...] | None:
    """A collection literal or an empty constructor call (`[]`, `{"a"}`, `set()`), as a tuple of as many
    items: only its truth matters to a condition. None for anything else."""
    if isinstance(node, libcst.List | libcst.Tuple | libcst.Set | libcst.Dict):
        return tuple(range(len(node.elements)))
    if isinstance(node, libcst.Call) and not node.args and isinstance(node.func, libcst.Name):
        return () if node.func.value in _EMPTY_CONSTRUCTORS else None
    return None


def configured(flow: Flow, node: libcst.Name | libcst.Attribute) -> Default | None:
    """The default of the configuration a name or attribute reads, when the code declares one."""
    if isinstance(node, libcst.Name):
        sources = flow.sources(node) or []
        if len(sources) == 1 and isinstance(sources[0], libcst.Param):
            return _option_default(flow.owner(sources[0]), sources[0])
        return None
    if (parsed := _parsed_arguments(flow, node.value)) is not None:
        return _argument_default(parsed, node.attr.value)
    owner = _instance_class(flow, node.value, 0)
    if owner is None and (owner := flow.project_class(node.value)) is not None:
        # `Anarchy.running_all_in_one`: a class attribute read on the class holds what its body gives it, unless
        # code assigns it
        project = flow.project
        if project is None or project.assigns_attribute(node.attr.value):
            return None
    return _class_default(owner[0], owner[1], node.attr.value) if owner is not None else None


# -- argparse -----------------------------------------------------------------------------------------
def _parsed_arguments(flow: Flow, receiver: libcst.BaseExpression) -> Flow | None:
    """The flow of the file where `receiver` is `parser.parse_args()`, or None."""
    sources = flow.sources(receiver) if isinstance(receiver, libcst.Name) else None
    if not sources or len(sources) != 1:
        return None
    value = sources[0]
    function = value.func if isinstance(value, libcst.Call) else None
    if isinstance(function, libcst.Attribute) and function.attr.value in _PARSE_METHODS:
        return flow.owner(value)
    return None


def _argument_default(flow: Flow, dest: str) -> Default | None:
    """`parser.add_argument("--namespace", default=…)` of the file, by the attribute it fills."""
    found = _argument(flow, dest)
    if found is None:
        return None
    keywords = found[1]
    if "default" in keywords:
        return flow, keywords["default"]
    action = literal_string(keywords["action"]) if "action" in keywords else None
    return Constant({"store_true": False, "store_false": True}.get(action or ""))


def command_line_option(flow: Flow, node: libcst.BaseExpression) -> str | None:
    """The option an `args.namespace` of `parser.parse_args()` reads (`--namespace`), to name it in messages."""
    if not isinstance(node, libcst.Attribute) or (parsed := _parsed_arguments(flow, node.value)) is None:
        return None
    found = _argument(parsed, node.attr.value)
    return found[0] if found is not None else None


def _argument(flow: Flow, dest: str) -> tuple[str, dict[str, libcst.BaseExpression]] | None:
    """The `add_argument` call of the file filling an attribute: its option (`--namespace`, or the positional
    name) and its keyword arguments."""
    for call in flow.file.calls:
        function = call.func
        if not isinstance(function, libcst.Attribute) or function.attr.value != "add_argument":
            continue
        keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
        names = [text for arg in call.args if arg.keyword is None and (text := literal_string(arg.value))]
        named = literal_string(keywords["dest"]) if "dest" in keywords else _dest_of(names)
        if named == dest and names:
            return next((name for name in names if name.startswith("--")), names[0]), keywords
    return None


def _dest_of(names: list[str]) -> str | None:
    """argparse's attribute for an argument: the first long option, else the first option, else the name."""
    long = next((name for name in names if name.startswith("--")), None)
    chosen = long or (names[0] if names else None)
    return chosen.lstrip("-").replace("-", "_") if chosen else None


# -- click and typer ----------------------------------------------------------------------------------
def _option_default(flow: Flow, param: libcst.Param) -> Default | None:
    """A command parameter's default: its `@click.option(…)` or `typer.Option(default)`; None otherwise."""
    if param.default is not None:
        default = param.default
        if isinstance(default, libcst.Call) and flow.qualified_names(default.func) & {"typer.Option", "typer.Argument"}:
            positional = [arg.value for arg in default.args if arg.keyword is None]
            return (flow, positional[0]) if positional else Constant(None)
        return None  # an ordinary parameter takes what its callers pass
    function = flow.file.parent(flow.file.parent(param) or param)
    if not isinstance(function, libcst.FunctionDef):
        return None
    for decorator in function.decorators:
        call = decorator.decorator
        if isinstance(call, libcst.Call) and flow.qualified_names(call.func) & _CLICK_DECORATORS:
            found = _click_default(flow, call, param.name.value)
            if found is not None:
                return found
    return None


def _click_default(flow: Flow, call: libcst.Call, name: str) -> Default | None:
    keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    declared = [text for arg in call.args if arg.keyword is None and (text := literal_string(arg.value))]
    explicit = next((text for text in declared if not text.startswith("-")), None)
    dashed = sorted((text for text in declared if text.startswith("-")), key=len, reverse=True)
    derived = explicit or (dashed[0].lstrip("-").replace("-", "_") if dashed else None)
    if derived != name:
        return None
    if "default" in keywords:
        return flow, keywords["default"]
    if is_true(keywords.get("multiple")):
        return Constant(())
    return Constant(False if is_true(keywords.get("is_flag")) else None)


# -- settings classes ---------------------------------------------------------------------------------
def settings_variable(flow: Flow, node: libcst.Attribute) -> str | None:
    """The environment variable pydantic-settings fills a field from: `APP_NAMESPACES` for `settings.namespaces`
    of a class with `model_config = SettingsConfigDict(env_prefix="APP_")` (or pydantic v1's `class Config:
    env_prefix = "APP_"`); None where no prefix is written in the class."""
    owner = _instance_class(flow, node.value, 0)
    prefix = _env_prefix(*owner) if owner is not None else None
    return f"{prefix}{node.attr.value}".upper() if prefix is not None else None


def _env_prefix(flow: Flow, owner: libcst.ClassDef) -> str | None:
    config = _class_value(flow, owner, "model_config")
    if isinstance(config, libcst.Call):
        prefix = next((arg.value for arg in config.args if arg.keyword and arg.keyword.value == "env_prefix"), None)
        return literal_string(prefix) if prefix is not None else None
    if isinstance(config, libcst.Dict):
        return next(
            (
                literal_string(element.value)
                for element in config.elements
                if isinstance(element, libcst.DictElement) and literal_string(element.key) == "env_prefix"
            ),
            None,
        )
    inner = next(
        (item for item in owner.body.body if isinstance(item, libcst.ClassDef) and item.name.value == "Config"), None
    )
    value = _class_value(flow, inner, "env_prefix") if inner is not None else None
    return literal_string(value) if value is not None else None


def _instance_class(flow: Flow, node: libcst.BaseExpression, steps: int) -> tuple[Flow, libcst.ClassDef] | None:
    """The project class an expression is an instance of: `Settings()`, a name assigned it once, or a class
    attribute whose default builds it (`observer: Observer = Field(default_factory=Observer)`)."""
    if steps > MAX_STEPS:
        return None
    if isinstance(node, libcst.Call):
        return flow.project_class(node.func)
    sources = flow.sources(node) if isinstance(node, libcst.Name | libcst.Attribute) else None
    if sources:
        if len(sources) == 1 and isinstance(sources[0], libcst.BaseExpression):
            return _instance_class(flow.owner(sources[0]), sources[0], steps + 1)
        return None
    if not isinstance(node, libcst.Attribute):
        return None
    owner = _instance_class(flow, node.value, steps + 1)
    declared = _declared_value(owner[0], owner[1], node.attr.value) if owner is not None else None
    if declared is None:
        return None
    declaring, value = declared
    factory = _field_keywords(declaring, value).get("default_factory")
    if factory is not None:
        return declaring.project_class(factory)
    return _instance_class(declaring, value, steps + 1)


def _class_default(flow: Flow, owner: libcst.ClassDef, name: str) -> Default | None:
    declared = _declared_value(flow, owner, name)
    if declared is None:
        return None
    flow, value = declared
    keywords = _field_keywords(flow, value)
    if not keywords:
        return flow, value
    if "default_factory" in keywords:
        factory = keywords["default_factory"]
        empty = isinstance(factory, libcst.Name) and factory.value in _EMPTY_CONSTRUCTORS
        return Constant(()) if empty else None
    return (flow, keywords["default"]) if "default" in keywords else None


def _declared_value(
    flow: Flow, owner: libcst.ClassDef, name: str, depth: int = 0
) -> tuple[Flow, libcst.BaseExpression] | None:
    """The value a class body gives an attribute, or else the body of a project base class, with the flow of
    the module declaring it: krr's `settings = _Settings()`, a proxy subclassing the settings class `Config`,
    takes its fields' defaults from `Config`."""
    value = _class_value(flow, owner, name)
    if value is not None or (owner, name) in flow.names or depth > MAX_STEPS:
        return (flow, value) if value is not None else None
    for base in owner.bases:
        found = flow.project_class(base.value)
        declared = _declared_value(found[0], found[1], name, depth + 1) if found is not None else None
        if declared is not None:
            return declared
    return None


def _class_value(flow: Flow, owner: libcst.ClassDef, name: str) -> libcst.BaseExpression | None:
    """The value a class body gives an attribute, when it gives exactly one."""
    values = flow.names.get((owner, name), [])
    return values[0] if len(values) == 1 else None


def _field_keywords(flow: Flow, value: libcst.BaseExpression) -> dict[str, libcst.BaseExpression]:
    """`Field(default=…, default_factory=…)` as keywords (a first positional argument is the default); {} for a
    value that is no field declaration."""
    if not isinstance(value, libcst.Call) or not flow.qualified_names(value.func) & _FIELD_FUNCTIONS:
        return {}
    keywords = {arg.keyword.value: arg.value for arg in value.args if arg.keyword is not None}
    positional = [arg.value for arg in value.args if arg.keyword is None]
    if positional and "default" not in keywords:
        keywords["default"] = positional[0]
    return keywords or {"default": libcst.Name("None")}
