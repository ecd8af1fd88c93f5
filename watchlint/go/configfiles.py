"""Structs a program fills from a configuration file: `json.Unmarshal(data, &cfg)` (or apimachinery's
`runtime.DecodeInto`) of what `os.ReadFile` read, `Decode(&cfg)` of a decoder over `os.Open`, or go-ini's
`MapTo`. SPEC §1: their fields are empty in the default deployment unless a default is visible in code, as flags
without a default are; a value the code writes in one (a defaults constructor's) is that default.

Only data read from a file counts: the same calls decode API objects and request bodies, whose fields are
no configuration and stay unknown.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter

from watchlint.go import parser
from watchlint.go.declarations import Declarations, FieldInfo, FunctionKey, resolve_type
from watchlint.go.model import GoFile, TypeRef
from watchlint.go.resolve import Resolver, assigned_to, keyed_elements

FROM_FILE = "(configuration file)"  # ends the origin of a configuration file's field

# Decoders of configuration formats: the package and the functions that fill their last argument.
_UNMARSHAL = {
    "encoding/json": ("Unmarshal",),
    "sigs.k8s.io/yaml": ("Unmarshal", "UnmarshalStrict"),
    "github.com/ghodss/yaml": ("Unmarshal",),
    "gopkg.in/yaml.v2": ("Unmarshal", "UnmarshalStrict"),
    "gopkg.in/yaml.v3": ("Unmarshal",),
    "go.yaml.in/yaml/v3": ("Unmarshal",),
    "github.com/goccy/go-yaml": ("Unmarshal", "UnmarshalWithOptions"),
    "github.com/BurntSushi/toml": ("Decode", "Unmarshal"),
    # component configuration: `runtime.DecodeInto(codecs.UniversalDecoder(), data, &cfg)`
    "k8s.io/apimachinery/pkg/runtime": ("DecodeInto",),
}
_VIPER = "github.com/spf13/viper"
_PAERSER_CLI = "github.com/traefik/paerser/cli"
_VIPER_DECODES = {"Unmarshal": 0, "UnmarshalExact": 0, "UnmarshalKey": 1}  # the argument each fills
# go-ini: `cfg.Section("k8s").MapTo(&k8s)` or `cfg.MapTo(&all)` of what ini.Load read, and `ini.MapTo(&all, path)`
_INI_PACKAGES = frozenset({"gopkg.in/ini.v1", "github.com/go-ini/ini"})
_INI_MAPS = frozenset({"MapTo", "StrictMapTo"})
_DECODERS = frozenset({"NewDecoder", "NewYAMLOrJSONDecoder", "NewYAMLToJSONDecoder"})
# apimachinery's decoders of a scheme's types (`codecs.UniversalDeserializer().Decode(data, nil, nil)`)
_UNIVERSAL_DECODERS = frozenset({"UniversalDeserializer", "UniversalDecoder"})
_DECODING_NAMES = frozenset({"Decode", *(name for names in _UNMARSHAL.values() for name in names)})
_DECODING_WORDS = (b"Unmarshal", b"Decode")
_SCHEDULER_FRAMEWORK = "scheduler/framework"  # k8s.io/kube-scheduler/framework, k8s.io/kubernetes/pkg/scheduler/…
_RUNTIME = "k8s.io/apimachinery/pkg/runtime"
_TYPE_ASSERTIONS = "(type_assertion_expression) @assertion"  # a call of any of _DECODING_NAMES spells one of them
_FILE_READS = {"os": ("ReadFile", "Open"), "io/ioutil": ("ReadFile",)}
# what reads a reader to its end: the data is the reader's (kubewatch's `io.ReadAll(file)` of an opened file)
_READS_ALL = {"io": ("ReadAll",), "io/ioutil": ("ReadAll",)}
_MAX_NESTING = 4  # struct fields followed from a decoded struct to the structs it holds
# The field every Kubernetes object has (ListMeta a list's); TypeMeta alone is component configuration's (a
# ProjectConfig kind).
_OBJECT_FIELDS = frozenset({"ObjectMeta"})
_LIST_FIELD = "ListMeta"
_KIND_FIELD = "TypeMeta"


def decoded_structs(file: GoFile, resolver: Resolver) -> Iterator[TypeRef]:
    """The struct types a file fills from a configuration file, or from what viper gathered of files, the
    environment and flags (`viper.Unmarshal(&cfg)`)."""
    for target, data in _decodes(file, resolver):
        if read_from_file(file, data, resolver):
            yield from _struct_of(file, target, resolver)
    yield from _viper_decoded(file, resolver)
    yield from _ini_mapped(file, resolver)
    yield from _paerser_decoded(file, resolver)
    yield from _scheduler_plugin_args(file, resolver)


def _paerser_decoded(file: GoFile, resolver: Resolver) -> Iterator[TypeRef]:
    """`cli.Command{Configuration: cfg, Resources: loaders}` of traefik's paerser: its loaders fill the
    configuration from files, flags and the environment."""
    if _PAERSER_CLI not in file.imports.values():
        return
    for literal in file.nodes("composite_literal"):
        built = resolve_type(literal.child_by_field_name("type"), file)
        if built is None or not built.is_(_PAERSER_CLI, "Command"):
            continue
        for key, value in keyed_elements(literal):
            if key == "Configuration":
                yield from _struct_of(file, value, resolver)


def _scheduler_plugin_args(file: GoFile, resolver: Resolver) -> Iterator[TypeRef]:
    """The arguments of a kube-scheduler plugin (`func New(ctx, obj runtime.Object, h framework.Handle)` asserting
    `obj.(*config.MatchArgs)`): the scheduler decodes them from its configuration file."""
    if not any(path.endswith(_SCHEDULER_FRAMEWORK) for path in file.imports.values()):
        return
    for asserted in parser.captures(_TYPE_ASSERTIONS, file.tree.root_node).get("assertion", []):
        operand = asserted.child_by_field_name("operand")
        declaration = (
            resolver.declaration(file, operand) if operand is not None and operand.type == "identifier" else None
        )
        key = resolver.function_key(file, asserted)
        info = resolver.declarations.functions.get(key) if key is not None else None
        if declaration is None or declaration.parameter_index < 0 or info is None:
            continue
        types = [parameter.type for parameter in info.parameters if parameter.type is not None]
        takes_a_handle = any(ref.package.endswith(_SCHEDULER_FRAMEWORK) and ref.name == "Handle" for ref in types)
        declared = resolver.type_of(file, operand) if takes_a_handle else None
        asserted_type = resolve_type(asserted.child_by_field_name("type"), file)
        if declared is not None and declared.is_(_RUNTIME, "Object") and asserted_type is not None:
            yield asserted_type.base


def decoded_into_parameters(file: GoFile, resolver: Resolver) -> Iterator[tuple[FunctionKey, int]]:
    """The functions that decode a configuration file into a parameter (korifi's `LoadConfigInto(conf any,
    fromDir string)`), with the parameter's position: the structs their callers hand them are read from files."""
    for target, data in _decodes(file, resolver):
        parameter = _parameter(file, _unaddressed(target), resolver)
        if parameter is not None and read_from_file(file, data, resolver):
            yield parameter


def _viper_decoded(file: GoFile, resolver: Resolver) -> Iterator[TypeRef]:
    """`viper.Unmarshal(&cfg)`, `v.UnmarshalExact(&cfg)`, `viper.UnmarshalKey("operator", &cfg)`: the struct
    each fills (of the package's global viper or a *viper.Viper)."""
    if b"Unmarshal" not in file.source.data:
        return
    for call in file.calls():
        index = _VIPER_DECODES.get(call.name)
        if index is None or call.operand is None or call.arguments is None:
            continue
        if not _is_viper(file, call.operand, resolver):
            continue
        arguments = parser.named(call.arguments)
        if index < len(arguments):
            yield from _struct_of(file, arguments[index], resolver)


def _ini_mapped(file: GoFile, resolver: Resolver) -> Iterator[TypeRef]:
    """The structs go-ini fills from an ini file (nsx-operator's `cfg.Section("coe").MapTo(config.CoeConfig)` after
    `cfg, err = ini.Load(path)`): its MapTo methods' one argument, or the first of the package's own MapTo."""
    if b"MapTo" not in file.source.data or _INI_PACKAGES.isdisjoint(file.imports.values()):
        return
    for call in file.calls():
        if call.name not in _INI_MAPS or call.operand is None or call.arguments is None:
            continue
        arguments = parser.named(call.arguments)
        of_the_package = file.imports.get(call.operand_text, "") in _INI_PACKAGES
        if arguments and (of_the_package or len(arguments) == 1):
            yield from _struct_of(file, arguments[0], resolver)


def decoded_from_parameters(file: GoFile, resolver: Resolver) -> Iterator[tuple[TypeRef, FunctionKey, int]]:
    """The struct types a file decodes from a parameter of the function around the decode (kiali's
    `Unmarshal(yamlString string)`), with that parameter: its callers tell whether it holds a file's bytes."""
    for target, data in _decodes(file, resolver):
        parameter = _parameter(file, _unconverted(data), resolver)
        if parameter is not None:
            yield from ((struct, *parameter) for struct in _struct_of(file, target, resolver))


def _parameter(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> tuple[FunctionKey, int] | None:
    """The function and position of the parameter a name is, when it is one of the function around it."""
    declaration = resolver.declaration(file, node) if node.type == "identifier" else None
    found = resolver.parameter_of(file, node, declaration)
    return (found[0].key, found[1]) if found is not None else None


def _decodes(file: GoFile, resolver: Resolver) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """Every decode of the file: what it fills, and the data it decodes."""
    if not any(name in file.source.data for name in _DECODING_WORDS):
        return  # most files: no decoder is called
    for call in file.calls():
        if call.operand is None or call.arguments is None or call.name not in _DECODING_NAMES:
            continue
        arguments = parser.named(call.arguments)
        package = file.imports.get(call.operand_text, "")
        if call.name in _UNMARSHAL.get(package, ()) and len(arguments) >= 2:
            yield from ((arguments[-1], data) for data in arguments[:-1])
        elif call.name == "Decode" and len(arguments) == 1:
            # `json.NewDecoder(f).Decode(&cfg)`, `yaml.NewYAMLOrJSONDecoder(f, n).Decode(&cfg)`, or the decoder
            # made first (`decoder := yaml.NewDecoder(f)`)
            made = _made_by(file, call.operand, resolver)
            function = made.child_by_field_name("function") if made is not None else None
            name = parser.text(function.child_by_field_name("field")) if function is not None else ""
            source = parser.named(made.child_by_field_name("arguments") or made) if made is not None else []
            is_decoder = function is not None and function.type == "selector_expression" and name in _DECODERS
            if is_decoder and source:
                yield arguments[0], source[0]
        elif call.name == "Decode" and len(arguments) == 3 and _universal_decoder(file, call.operand, resolver):
            yield from ((target, arguments[0]) for target in _decoded_objects(file, call.node, arguments[2], resolver))


def _universal_decoder(file: GoFile, operand: tree_sitter.Node, resolver: Resolver) -> bool:
    """Whether a `Decode(data, defaults, into)` is made by apimachinery's decoder of a scheme's types
    (`serializer.NewCodecFactory(scheme).UniversalDeserializer()`, also made first into a local)."""
    made = _made_by(file, operand, resolver)
    function = made.child_by_field_name("function") if made is not None else None
    named = function.child_by_field_name("field") if function is not None else None
    return named is not None and parser.text(named) in _UNIVERSAL_DECODERS


def _decoded_objects(
    file: GoFile, call: tree_sitter.Node, into: tree_sitter.Node, resolver: Resolver
) -> list[tree_sitter.Node]:
    """What a scheme decoder's `Decode(data, nil, into)` fills: `into`, or where it is nil the object it returns
    as the function asserts its type (`obj, gvk, err := decoder.Decode(data, nil, nil)`, then
    `obj.(*v1alpha1.EnvoyGateway)`: component configuration, envoy gateway's)."""
    if parser.text(into) != "nil":
        return [into]
    returned = call.parent
    statement = returned.parent if returned is not None and returned.type == "expression_list" else None
    left = statement.child_by_field_name("left") if statement is not None else None
    names = parser.named(left) if left is not None else []
    function = file.enclosing_function(call)
    if not names or names[0].type != "identifier" or function is None:
        return []
    return [
        asserted
        for asserted in parser.captures(_TYPE_ASSERTIONS, function).get("assertion", [])
        if (operand := asserted.child_by_field_name("operand")) is not None
        and operand.type == "identifier"
        and parser.text(operand) == parser.text(names[0])
        and (declared := resolver.declaration(file, operand)) is not None
        and declared.node.start_byte == names[0].start_byte
    ]


def _made_by(file: GoFile, operand: tree_sitter.Node, resolver: Resolver) -> tree_sitter.Node | None:
    """The call an operand is, or that made the local it names (`decoder := yaml.NewDecoder(f)`)."""
    if operand.type == "identifier" and (declaration := resolver.declaration(file, operand)) is not None:
        operand = declaration.value_node if declaration.value_node is not None else operand
    return operand if operand.type == "call_expression" else None


def decoded_before(file: GoFile, node: tree_sitter.Node) -> bool:
    """Whether the function around a value written decodes what it is written into before it (`yaml.
    Unmarshal(data, c)`, then `c.Standalone.Enabled = true`): a value written then overrides the file's, it is
    no default of it. A write into another struct (`s.reconcile.Pods = true` beside `&s.config`) overrides
    nothing; a decoding whose target is not told counts."""
    function = file.enclosing_function(node)
    if function is None or not any(name in file.source.data for name in _DECODING_WORDS):
        return False
    target = assigned_to(node)
    written = parser.text(target) if target is not None else None
    return any(
        call.name in _DECODING_NAMES
        and function.start_byte <= call.node.start_byte
        and call.node.end_byte <= node.start_byte
        and _decodes_into(call.node, written)
        for call in file.calls()
    )


def _decodes_into(call: tree_sitter.Node, written: str | None) -> bool:
    """Whether a decoding call fills what `written` names (`c` of `c.Standalone.Enabled`): its last argument
    holds or contains it; any call does where the write's target is not told."""
    arguments = parser.named(call.child_by_field_name("arguments") or call)
    if written is None or not arguments:
        return True
    decoded = parser.text(_unaddressed(arguments[-1]))
    return written == decoded or written.startswith((f"{decoded}.", f"{decoded}["))


def _is_viper(file: GoFile, operand: tree_sitter.Node, resolver: Resolver) -> bool:
    """The viper package, a *viper.Viper, or a local holding `viper.New()`."""
    if operand.type != "identifier":
        return False
    declaration = resolver.declaration(file, operand)
    if declaration is None:
        return file.imports.get(parser.text(operand)) == _VIPER
    value = declaration.value_node
    function = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
    qualifier = (
        function.child_by_field_name("operand")
        if function is not None and function.type == "selector_expression"
        else None
    )
    if qualifier is not None and file.imports.get(parser.text(qualifier)) == _VIPER:
        return function is not None and parser.text(function.child_by_field_name("field")) == "New"
    declared = resolver.type_of(file, operand)
    return declared is not None and declared.is_(_VIPER, "Viper")


def nested_structs(roots: list[TypeRef], declarations: Declarations) -> frozenset[TypeRef]:
    """The decoded structs and the structs their fields hold, a few levels down (traefik's configuration holds
    each provider's, declared in the provider's package): not those of packages declaring objects, which a
    configuration may embed (defaults of a custom resource's spec) but which the program also reads from
    objects, nor, in another package than the struct holding them, those of API packages."""
    found: set[TypeRef] = set()
    api = _api_packages(declarations)
    pending = [
        (base, 0) for root in roots if _is_configuration(base := declarations.unalias(root.base), declarations, api)
    ]
    while pending:
        struct, depth = pending.pop()
        if struct in found or depth > _MAX_NESTING:
            continue
        found.add(struct)
        for info in declarations.structs.get(struct, ()):
            held = declarations.unalias(info.type.base) if info.type is not None else None
            if held is None or held not in declarations.structs or not info.name[:1].isupper():
                continue  # decoders fill exported fields only: `k8sClient *clientWrapper` is the program's
            if held.package == struct.package or (
                _is_configuration(held, declarations, api) and not _is_api_path(held.package)
            ):
                pending.append((held, depth + 1))
    return frozenset(found)


def keys_to(structs: frozenset[TypeRef], roots: list[TypeRef], declarations: Declarations) -> dict[TypeRef, str]:
    """The keys a configuration file reaches each nested struct by, dotted (traefik's `providers.kubernetesCRD`
    for the CRD provider's struct): "" for a decoded struct itself, or one that two fields hold (which is meant
    is not told); an embedded struct's fields sit in its holder's section."""
    holders: dict[TypeRef, list[tuple[TypeRef, FieldInfo]]] = {}
    for struct in structs:
        for info in declarations.structs.get(struct, ()):
            held = declarations.unalias(info.type.base) if info.type is not None else None
            if held in structs and held != struct:
                holders.setdefault(held, []).append((struct, info))
    decoded = {declarations.unalias(root.base) for root in roots}
    keys: dict[TypeRef, str] = {}

    def key_of(struct: TypeRef, depth: int) -> str:
        if struct not in keys:
            held_by = holders.get(struct, [])
            keys[struct] = ""  # a cycle of structs holding one another names nothing
            if struct not in decoded and len(held_by) == 1 and depth <= _MAX_NESTING:
                holder, info = held_by[0]
                above = key_of(holder, depth + 1)
                own = "" if info.is_embedded else info.file_key or info.name
                keys[struct] = ".".join(part for part in (above, own) if part) if above or holder in decoded else ""
        return keys[struct]

    return {struct: key_of(struct, 0) for struct in structs}


def _is_api_path(package: str) -> bool:
    """`…/api/v1`, `…/apis/gateway/v1beta1`: where kubebuilder and code-generator lay out API types, also those
    parts of objects (a spec shared by several kinds) a package declares without an object of its own."""
    return bool({"api", "apis"} & set(package.split("/")))


def _is_configuration(struct: TypeRef, declarations: Declarations, api: frozenset[str]) -> bool:
    """A struct of the module that is not a Kubernetes object nor a part of one: tools decode manifests from
    files too (`vela up -f app.yaml` reads an Application, fleet's CLI a bundle's spec), and what an object
    holds is the cluster's data, no configuration. A struct of a package declaring objects is taken for a
    part of one, unless it is a kind of its own without ObjectMeta: kubebuilder lays component configuration
    (a ControllerManagerConfig) out beside the custom resources."""
    fields = declarations.structs.get(struct)
    if fields is None or any(info.name in _OBJECT_FIELDS or info.name == _LIST_FIELD for info in fields):
        return False
    return struct.package not in api or any(info.name == _KIND_FIELD and info.is_embedded for info in fields)


def _api_packages(declarations: Declarations) -> frozenset[str]:
    """The packages of the module that declare a Kubernetes object (a struct embedding ObjectMeta)."""
    return frozenset(
        struct.package
        for struct, fields in declarations.structs.items()
        if any(info.name in _OBJECT_FIELDS and info.is_embedded for info in fields)
    )


def read_from_file(file: GoFile, node: tree_sitter.Node, resolver: Resolver) -> bool:
    """Whether an expression holds what `os.ReadFile` read or `os.Open` opened (directly, through a local,
    converted: `[]byte(text)`, `string(content)`, or read to its end: `io.ReadAll(file)`)."""
    for _ in range(4):
        node = _unconverted(node)
        if node.type == "identifier":
            declaration = resolver.declaration(file, node)
            if declaration is None or declaration.value_node is None:
                return False
            node = declaration.value_node
            continue
        if node.type != "call_expression":
            return False
        function = node.child_by_field_name("function")
        if function is None or function.type != "selector_expression":
            return False
        package = file.imports.get(parser.text(function.child_by_field_name("operand")), "")
        name = parser.text(function.child_by_field_name("field"))
        reader = parser.first_named(node.child_by_field_name("arguments") or node)
        if name in _READS_ALL.get(package, ()) and reader is not None:
            node = reader
            continue
        return name in _FILE_READS.get(package, ())
    return False


def _struct_of(file: GoFile, target: tree_sitter.Node, resolver: Resolver) -> Iterator[TypeRef]:
    declared = resolver.type_of(file, target)
    if declared is not None:
        yield declared.base


def _unaddressed(node: tree_sitter.Node) -> tree_sitter.Node:
    """`cfg` of `&cfg`."""
    if node.type == "unary_expression" and parser.text(node.child_by_field_name("operator")) == "&":
        return node.child_by_field_name("operand") or node
    return node


def _unconverted(node: tree_sitter.Node) -> tree_sitter.Node:
    """The operand of `[]byte(x)` or `string(x)`: the same data."""
    if node.type == "type_conversion_expression":
        return node.child_by_field_name("operand") or node
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or not (function.type == "slice_type" or parser.text(function) == "string"):
        return node
    inner = parser.first_named(node.child_by_field_name("arguments"))
    return inner if inner is not None else node
