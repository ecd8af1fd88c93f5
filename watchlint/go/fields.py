"""The values of struct fields for the default deployment (SPEC §1): what a flag or an environment tag fills a
field with, what the module writes to it, else the zero value of a configuration field."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import tree_sitter

from watchlint.go import parser
from watchlint.go.clientsyntax import map_values
from watchlint.go.configfiles import FROM_FILE, decoded_before, keys_to, nested_structs, read_from_file
from watchlint.go.declarations import resolve_type
from watchlint.go.flags import Flag
from watchlint.go.guards import (
    Guard,
    after_an_early_return,
    conjuncts,
    disjuncts,
    holds_when_empty,
    is_failing_return,
    tested_empty,
)
from watchlint.go.known import UNKNOWN, Val, Value, literal_value, result_at, tag_value, zero_value
from watchlint.go.model import GoFile, TypeRef
from watchlint.go.pending import names_every_namespace
from watchlint.go.resolve import (
    assigned_to,
    field_given,
    is_map_literal,
    is_slice_literal,
    keyed_elements,
    literal_items,
)
from watchlint.go.scope import FUNCTIONS, innermost_function, last_statement, receiver_name, under_condition

if TYPE_CHECKING:
    from watchlint.go.deployment import Evaluator

MAX_WRITES = 16  # writes of one field of one struct looked at
_META = "k8s.io/apimachinery/pkg/apis/meta/v1"
# a write of a field, with a function telling the struct written (computed only when asked)
_FieldWrite = tuple[GoFile, tree_sitter.Node, Callable[[], TypeRef | None]]
# methods a program runs on its options before anything else, failing on what is missing
_VALIDATING = ("validate", "complete")
# `x.name++`, `x.name--`, `x.name += n`, `x.name -= n`: a field counted as the program runs
_COUNTED_FIELD = re.compile(rb"\.([A-Za-z_]\w*)[ \t]*(?:\+\+|--|[+-]=)")
# what defaulter-gen names the defaulting functions the generated scheme defaulters call
_DEFAULTER_PREFIXES = ("SetDefaults_", "SetObjectDefaults_")
# a field's address stored in a literal (`{"AGENT_NAMESPACE", &cfg.AgentNamespace}`): written through it later
_ADDRESS_STORED = (
    '(literal_element (unary_expression operator: "&" operand: (selector_expression field: (field_identifier) @field)))'
)


class FieldValues:
    """Evaluates fields read on values of known (or unknown) struct types, with the evaluator's values."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.resolver = evaluator.resolver
        self._field_values: dict[str, list[_FieldWrite]] | None = None
        self._element_writes: dict[str, list[_FieldWrite]] | None = None
        # the struct each write of a field name sets, told once: names like `Namespace` are written hundreds of
        # times (envoy gateway's collector's, 306th of 314), and every struct's reads ask for them
        self._written_structs: dict[tuple[str, bool], list[TypeRef | None]] = {}
        # the first writes of a field on a struct, asked again at each read of it (redpanda's common field names
        # are written in hundreds of places, most of them other structs')
        self._owned_writes: dict[tuple[str, TypeRef | None, bool], list[_FieldWrite]] = {}
        self._declarers: dict[tuple[TypeRef, str], TypeRef] = {}  # see `_declaring`
        # the guards around a write, asked of it by `_written` and again by `_set_once`
        self._write_guards: dict[tuple[str, int], list[Guard]] = {}
        self._file_structs: frozenset[TypeRef] | None = None
        self._file_roots: list[TypeRef] = []  # the structs decoded from configuration files
        self._file_keys: dict[TypeRef, str] | None = None  # see _file_section
        self._configured: frozenset[TypeRef] | None = None
        self._api_structs: frozenset[TypeRef] | None = None
        self._addresses_passed: frozenset[str] | None = None
        self._pointer_writes: frozenset[str] | None = None  # see _written_through
        self._counters: frozenset[str] | None = None  # see _counted
        self._required: dict[TypeRef, frozenset[str]] | None = None
        self._literal_built: frozenset[TypeRef] | None = None
        self._ordered_built: frozenset[TypeRef] | None = None  # see _built_in_order
        # the keyed literals of each struct in deployed code (see _left_out_elsewhere), and with the fields each
        # names, read only for the structs asked about
        self._keyed_literals: dict[TypeRef, list[tuple[GoFile, tree_sitter.Node]]] = {}
        self._stored_items: dict[tuple[TypeRef, str], list[tuple[GoFile, tree_sitter.Node]]] = {}  # stored_items
        self._literal_keys: dict[TypeRef, list[tuple[GoFile, tree_sitter.Node, frozenset[str]]]] = {}

    def value(
        self, name: str, field_type: TypeRef | None, owner: TypeRef | None, depth: int, parent: str | None = None
    ) -> Value:
        """A configuration field: its visible non-empty default, else its zero value (SPEC §1). Flags and
        writes of a field of the same name in another struct (`--type` filling `args.Type`) say nothing of
        `def.Terraform.Type`. `parent` names the field holding the struct read (`Audit` of
        `cfg.Gates.Audit.Enabled`): a default written under another one (`CertRotation: Gate{Enabled:
        true}`) is not this field's."""
        # the holder tells defaults apart in configuration structs only: elsewhere one evaluation per field
        # keeps the memo's cycle detection whole
        # decoders fill exported fields only
        if owner is not None and name in self._validated_required().get(self._declaring(owner, name), ()):
            return UNKNOWN  # the program exits without it: set in any deployment that runs, to what is not shown
        from_file = owner is not None and name[:1].isupper() and self._declaring(owner, name) in self._from_files()
        held = parent if from_file else None
        key = ("field", name, field_type, owner.base if owner is not None else None, held)
        return self.evaluator.memoized(key, lambda: self._field_value(name, field_type, owner, depth, held, from_file))

    def _field_value(
        self,
        name: str,
        field_type: TypeRef | None,
        owner: TypeRef | None,
        depth: int,
        parent: str | None,
        from_file: bool,
    ) -> Value:
        """`value`, where `from_file` says whether the field's declaring struct is decoded from a configuration
        file."""
        tagged = self.evaluator.flags.env_by_field.get(name, [])
        env = next((env for struct, env in tagged if self._same(struct, owner, name)), None)
        origin = env.variable if env is not None else ""
        flag = next(
            (
                flag
                for struct, flag in self.evaluator.flags.by_field.get(name, [])
                if self._same(struct, owner, name) and self._configures(flag, struct, name)
            ),
            None,
        )
        if flag is not None and flag.by_tag and self._is_api_object(owner, name):
            # a defaulting library's tag on a custom resource's field (wandb's `OnDelete … json:"onDelete"
            # default:"detach"`): what users write in the object, no flag of the operator
            flag = None
        flagged = self._flag_value(flag, name, owner, origin, depth) if flag is not None else None
        if flagged is not None:
            return flagged
        if env is not None and env.default is not None:
            is_bool = field_type is not None and field_type.name == "bool" and not field_type.pointer
            return Val(tag_value(env.default, is_bool), origin)
        if flag is None and env is None and not from_file and self._is_api_object(owner, name):
            return UNKNOWN  # a custom resource's spec holds what users write: a CLI filling it sets no default
        defaults = self._defaults_origin(name, owner, flag, from_file, parent)
        # a configuration field computed either way as the program runs holds nothing its writes tell
        computed = not defaults and self._filled_on_first_use(name, owner)
        computed = computed or (bool(defaults) and self._written_either_way(self._values_written(name, owner)))
        known = None if computed else self._written(name, owner, depth, parent, from_file, defaults)
        if known is None:
            return UNKNOWN  # computed where the program runs (`o.OnOpenShift = detect(cfg)`)
        if (
            defaults
            and not origin
            and all(value.value in ({}, []) for value in known)
            and (self._items_filled(name, owner) or (bool(known) and name in self._passed_by_address()))
        ):
            # a map the program fills as it runs (Kong's options adding label selectors), or a list it appends
            # to through a pointer (kelemetry's ordered components)
            return UNKNOWN
        visible = _one_visible(known, defaults)
        if visible is not None:
            return Val(visible.value, origin or visible.origin) if isinstance(visible, Val) else visible
        if not known and not origin:
            # not configuration (a custom resource's spec, say): nothing can be told, unless every write of the
            # field is kept from running by default (k8s-mendabot's watch namespaces, filled only for
            # AGENT_RBAC_SCOPE=namespace): then it holds its zero value
            origin = defaults or self._written_only_when_off(name, owner) or self._never_written(name, owner)
            if not origin:
                return UNKNOWN
        shown = origin or _shown_origin(known, name, defaults if flag is not None else "")
        return _empty(field_type, known, shown, unseen=bool(known) and not origin and all(v.unseen for v in known))

    def beneath_an_unwritten_field(
        self, holder: TypeRef, parent: str, name: str, field_type: TypeRef | None
    ) -> Value | None:
        """`cfg.Options.EnableInformer` where no code writes the holder's struct-valued `Options` (no literal sets
        it, no assignment, no address handed on), the code builds the holder with literals and nothing else
        configures it: Options keeps its zero value,
        and so does its field, unless code writes that field through it; the literals of the field's struct
        elsewhere (kube-nova's `DefaultClientOptions()`, whose result Options never gets) say nothing of it. None
        when that cannot be told."""
        declarations = self.resolver.declarations
        located = declarations.field(holder, parent)
        held = located[1].type if located is not None else None
        struct = declarations.unalias(held.base) if held is not None and not (held.pointer or held.slice) else None
        if located is None or struct is None or struct not in declarations.structs:
            return None
        if not declarations.declares_type(struct) or self._configured_struct(located[0], parent):
            return None
        if declarations.unalias(holder.base) not in self._built_by_literals():
            return None  # built out of sight (vcluster's legacy values, decoded by a method of their own)
        if self._writes_of_field(parent, holder) or {parent, name} & self._passed_by_address():
            return None
        flags = self.evaluator.flags
        if flags.by_field.get(name) or flags.env_by_field.get(name):
            return None
        if not all(_in_a_literal(value) for _, value, _ in self._writes_of_field(name, struct)):
            return None  # `cfg.Options.QPS = defaults.QPS`: what that write gives it
        return _empty(field_type, [], "", unseen=False)

    def _built_by_literals(self) -> frozenset[TypeRef]:
        """The structs deployed code builds with composite literals (`cluster.Config{Name: name}`)."""
        if self._literal_built is None:
            self._scan_literals()
        assert self._literal_built is not None
        return self._literal_built

    def _built_in_order(self) -> frozenset[TypeRef]:
        """The structs deployed code builds with a literal writing their fields in order, naming none."""
        if self._ordered_built is None:
            self._scan_literals()
        assert self._ordered_built is not None
        return self._ordered_built

    def _scan_literals(self) -> None:
        unalias = self.resolver.declarations.unalias
        built: set[TypeRef] = set()
        ordered: set[TypeRef] = set()
        for file in self.evaluator.files:
            if file.is_test:
                continue
            for literal in file.nodes("composite_literal"):
                declared = resolve_type(literal.child_by_field_name("type"), file)
                if declared is None:
                    continue
                built.add(unalias(declared.base))
                body = literal.child_by_field_name("body")
                if body is not None and any(element.type == "literal_element" for element in body.named_children):
                    ordered.add(unalias(declared.base))
                else:
                    self._keyed_literals.setdefault(unalias(declared.base), []).append((file, literal))
        self._literal_built, self._ordered_built = frozenset(built), frozenset(ordered)

    def _through_the_receiver(self, file: GoFile, value: tree_sitter.Node, name: str) -> bool:
        """Whether a write `x.name = value` writes through the receiver of the method making it."""
        statement = value.parent.parent if value.parent is not None else None
        left = statement.child_by_field_name("left") if statement is not None else None
        for target in parser.named(left) if left is not None and statement is not None else ():
            operand = target.child_by_field_name("operand") if target.type == "selector_expression" else None
            if operand is None or parser.text(target.child_by_field_name("field")) != name:
                continue
            declaration = self.resolver.declaration(file, operand) if operand.type == "identifier" else None
            if declaration is not None and declaration.is_receiver:
                return True
        return False

    def _left_out_elsewhere(self, declaring: TypeRef, name: str, writes: list[_FieldWrite]) -> bool:
        """Whether deployed code builds the struct with a literal leaving the field out (its zero value) in a
        function that does not write the field after: objects built there keep the zero value (rancher's
        `newFeature` leaves `prime` false; only `newPrimeFeature` sets it on the features it makes)."""
        if self._literal_built is None:
            self._scan_literals()
        if any(self._through_the_receiver(file, node, name) for file, node, _ in writes):
            return False  # a method sets it on whatever object it is called on (`c.watched = …`)
        writing = {
            (file.path, function.start_byte)
            for file, node, _ in writes
            if (function := innermost_function(node)) is not None
        }
        for file, literal, named in self._keyed(self.resolver.declarations.unalias(declaring.base)):
            function = innermost_function(literal)
            if name not in named and (function is None or (file.path, function.start_byte) not in writing):
                return True
        return False

    def _keyed(self, struct: TypeRef) -> list[tuple[GoFile, tree_sitter.Node, frozenset[str]]]:
        """The keyed literals of a struct, each with the fields it names."""
        found = self._literal_keys.get(struct)
        if found is None:
            found = self._literal_keys[struct] = [
                (file, literal, frozenset(key for key, _ in keyed_elements(literal)))
                for file, literal in self._keyed_literals.get(struct, [])
            ]
        return found

    def built_per_object(self, file: GoFile, type_node: tree_sitter.Node) -> bool:
        """Whether the objects of a literal's struct hold what the code builds each with: a struct the module
        declares that nothing fills from outside (no file, flag or environment, not a custom resource's)."""
        declared = resolve_type(type_node, file)
        struct = self.resolver.declarations.unalias(declared.base) if declared is not None else None
        if struct is None or struct not in self.resolver.declarations.structs:
            return False
        infos = self.resolver.declarations.structs[struct]
        return not any(info.tagged for info in infos) and not any(
            self._configured_struct(struct, info.name) for info in infos
        )

    def set_outside_literals(self, owner: TypeRef, name: str) -> bool:
        """Whether code sets a field of a struct other than in its literals: assigned (`f.val = &value`), or its
        address handed on (a flag, a decoder may fill it)."""
        if name in self._passed_by_address():
            return True
        return any(not _in_a_literal(value) for _, value, _ in self._writes_of_field(name, owner))

    def _configured_struct(self, struct: TypeRef, name: str) -> bool:
        """Whether a struct is filled from outside the code: decoded from a file, bound to flags or the
        environment, or a custom resource's."""
        return struct in self._from_files() or struct in self._flag_structs() or self._is_api_object(struct, name)

    def _written_only_when_off(self, name: str, owner: TypeRef | None) -> str:
        """For a field of a struct the module declares, whose every write (one at least) sits under a condition
        false by default, the setting that turns the first of them on; empty otherwise. Not for a field whose
        address is handed on (a decoder, a flag may fill it) nor for a struct decoders could fill (tagged)."""
        declaring = self._declaring(owner, name) if owner is not None else None
        declarations = self.resolver.declarations
        if (
            declaring is None
            or declaring.package not in self.evaluator.module_packages()
            or any(info.file_key for info in declarations.structs.get(declaring, ()))
            or name in self._passed_by_address()
            or self._writes_of_field(name, owner, elements=True)
        ):
            return ""
        writes = self._writes_of_field(name, owner)
        origin = ""
        for file, value_node, write in writes:
            if not self._same_struct(write(), declaring, name):
                return ""
            if file.is_test:
                continue
            env = self.evaluator.parameters(file, value_node)
            if self._writes_zero(file, value_node, env, declaring, name):
                continue  # rook's `else { c.NamespaceToWatch = v1.NamespaceAll }`: leaves the zero value, run or not
            off = [guard for guard in self.evaluator.guarding.guards(file, value_node, env) if guard.holds is False]
            if not off or not off[0].origin:
                return ""
            origin = origin or off[0].setting
        return origin

    def _writes_zero(
        self, file: GoFile, value_node: tree_sitter.Node, env: dict[str, Value], declaring: TypeRef, name: str
    ) -> bool:
        """Whether a write gives the field its zero value, a constant the code shows, no setting's."""
        located = self.resolver.declarations.field(declaring, name)
        zero = zero_value(located[1].type) if located is not None else UNKNOWN
        value = self.evaluator.value(file, value_node, env, 1)
        return (
            isinstance(zero, Val)
            and isinstance(value, Val)
            and not value.origin
            and not value.unseen
            and value.value == zero.value
        )

    def _never_written(self, name: str, owner: TypeRef | None) -> str:
        """The field's name, for a field of a struct the module declares and builds with literals, which no
        literal, assignment or decoder ever writes (metallb's `k8s.Config{Namespace: ns}` leaving ReadEndpoints
        out in each binary): it holds its zero value wherever the code reads it. Empty otherwise."""
        declaring = self._declaring(owner, name) if owner is not None else None
        declarations = self.resolver.declarations
        built = declaring if declaring is None or owner is None else self._built_around(owner, declaring)
        if (
            declaring is None
            or built is None
            or declaring.package not in self.evaluator.module_packages()
            or declarations.unalias(built) not in self._built_by_literals()
            or declarations.unalias(built) in self._built_in_order()  # `Config{ns, true}` names no field
            or any(info.tagged for info in declarations.structs.get(declaring, ()))  # a decoder may fill it
            or self._configured_struct(declaring, name)
            or name in self._passed_by_address()
            or name in self._counted()
            or self._writes_of_field(name, owner)
            or self._writes_of_field(name, owner, elements=True)
        ):
            return ""
        return name

    def _built_around(self, owner: TypeRef, declaring: TypeRef) -> TypeRef | None:
        """The struct whose literals build the one declaring a field: itself, or the struct read through where
        it embeds it and nothing writes the embedded struct (cluster-api-provider-nested's `Options{}` embedding
        CacheOptions, whose WatchNamespace no code sets): the embedded one is then the zero value each literal
        of the other leaves. None where the embedded struct is written."""
        declarations = self.resolver.declarations
        holder = declarations.unalias(owner.base)
        if holder == declarations.unalias(declaring.base):
            return declaring
        embedding = next(
            (
                info
                for info in declarations.structs.get(holder, ())
                if info.is_embedded and info.type is not None and declarations.unalias(info.type.base) == declaring
            ),
            None,
        )
        if (
            embedding is None
            or self._writes_of_field(embedding.name, holder)
            or embedding.name in self._passed_by_address()
        ):
            return None
        return holder

    def every_namespace_write(self, name: str, owner: TypeRef) -> tuple[GoFile, tree_sitter.Node] | None:
        """A write giving a field of `owner`'s struct every namespace outright (k8s-lookout's sentinel fetcher built
        with `namespace: metav1.NamespaceAll`, beside a scoped constructor given one): unconditional, in a
        binary's code, so the objects built there list the whole cluster (SPEC §1: one such way decides). Only in
        the literal that builds the struct: an assignment clears the field of an object the program holds (nuclio
        scrubbing a function's namespace before exporting it)."""
        if (
            self._is_api_object(owner, name)
            or self._declaring(owner, name).package not in self.evaluator.module_packages()
        ):
            return None  # an object's namespace (`integration.Namespace`) is what the cluster says, not a write's
        deployed = self.evaluator.deployed_packages()
        for file, value, write in self._writes_of_field(name, owner):
            if file.is_test or (deployed is not None and file.package_path not in deployed):
                continue
            built = value.parent is not None and value.parent.type in ("keyed_element", "literal_element")
            if (
                built
                and not under_condition(value)
                and names_every_namespace(file, value)
                and self._same_struct(write(), owner, name)
            ):
                return file, value
        return None

    def _validated_required(self) -> dict[TypeRef, frozenset[str]]:
        """The fields each struct's Validate (or Complete) method fails on when empty (cluster-resource-override's
        `if c.Namespace == "" { return errors.New("operator namespace must be specified") }`), by the struct;
        found once per module."""
        if self._required is None:
            self._required = {}
            for key, info in self.resolver.declarations.functions.items():
                receiver = receiver_name(info.node) if key.receiver else None
                if receiver is None or not key.name.lower().startswith(_VALIDATING) or info.file.is_test:
                    continue
                names = _failed_when_empty(info.node, parser.text(receiver))
                if names:
                    struct = TypeRef(key.package, key.receiver)
                    self._required[struct] = self._required.get(struct, frozenset()) | names
        return self._required

    def _filled_on_first_use(self, name: str, owner: TypeRef | None) -> bool:
        """Whether a field that is no configuration is written with what the program computes where it is tested
        empty (hive's `if r.sharedPodConfig == nil { …; r.sharedPodConfig = config }`): empty before, set after,
        it holds no one value where it is read. A default written so (`if s.Enabled == nil { s.Enabled =
        ptr.To(true) }`), or a write to a struct not known to be the owner's, says nothing of it."""
        if owner is None:
            return False
        return any(
            _fills_when_empty(value_node, name) and _computed(value_node) and self._same_struct(write(), owner, name)
            for _, value_node, write in self._writes_of_field(name, owner)
        )

    def _same_struct(self, struct: TypeRef | None, owner: TypeRef, name: str) -> bool:
        return struct is not None and self._declaring(struct, name) == self._declaring(owner, name)

    def _configures(self, flag: Flag, struct: TypeRef | None, name: str) -> bool:
        """Whether a flag filling a field of `struct` says what the field holds where the operator reads it: a
        flag of a binary building a cache does, and so does a CLI's for a struct only CLIs use (volcano's
        vcctl); not a CLI's filling a struct the operator's binaries hold too, which fill it otherwise (loki's
        manifest tool binding --with-builtin-cert-management to the gates the operator reads from its
        configuration file). SPEC §3.1 ignores the binaries that build no cache."""
        deployed = self.evaluator.deployed_packages()
        if deployed is None or flag.file.package_path in deployed or struct is None:
            return True
        return self._declaring(struct, name).package not in deployed

    def _flag_value(self, flag: Flag, name: str, owner: TypeRef | None, origin: str, depth: int) -> Value | None:
        """What the flag filling a field gives it (an environment tag's variable naming it, `origin`); None for
        a flag defaulting to the field itself, whose value the code's writes there tell, unless the program
        requires it (`flags.StringVar(&o.Namespace, "namespace", o.Namespace, …)`, then failing without it)."""
        if flag.defaults_to_destination:
            return UNKNOWN if self.evaluator.settings.fails_without(flag) else None
        value = self.evaluator.settings.flag_value(flag, depth)
        if isinstance(value, Val) and value.value in ("", None):
            fallback = self._fallback(name, owner, depth)  # `if o.Namespace == "" { o.Namespace = … }`
            value = fallback if fallback is not None else value
        elif self._resolved_at_run_time(name, owner):
            return UNKNOWN
        return Val(value.value, origin or value.origin) if isinstance(value, Val) else value

    def _defaults_origin(
        self, name: str, owner: TypeRef | None, flag: Flag | None, from_file: bool, parent: str | None = None
    ) -> str:
        """How a field whose writes in code are its defaults is named in messages; empty for a field that is
        not configuration. A flag that defaults to its field keeps what the code wrote there before; a field of
        a struct whose other fields are flags or environment variables (`FeatureGates{inputStr}` parsed into
        its booleans) is configuration too. A file's field read on a field of its own (`Kubevuln.Enabled`) is
        named with it: a file has many `Enabled`s."""
        if flag is not None:
            return flag.shown
        if owner is not None and not from_file and (declaring := self._declaring(owner, name)) in self._flag_structs():
            gates = self._feature_gates_flag(declaring)
            # karpenter's `FeatureGates{inputStr}` filled from --feature-gates: a gate is named as that flag's
            return f"--{gates} {name}" if gates else f"{declaring.name}.{name}"
        if from_file and parent and parent[:1].isupper():
            return f"{parent}.{name} {FROM_FILE}"  # a section of the file (`Kubevuln`), not the struct holding it
        if from_file:  # named by its key in the file where its tag gives one (`containerRegistrySecretNames`)
            located = self.resolver.declarations.field(owner, name) if owner is not None else None
            key = located[1].file_key if located is not None else ""
            section = self._file_section(located[0]) if located is not None else ""
            return f"{section}{'.' if section else ''}{key or name} {FROM_FILE}"
        return ""

    def _written(
        self, name: str, owner: TypeRef | None, depth: int, parent: str | None, from_file: bool, defaults: str
    ) -> list[Val] | None:
        """The values the code writes to a field that are known: those read from flags or the environment, and
        for configuration (`defaults` names it) its visible defaults; None when a configuration field that is
        not a file's is computed unconditionally in a way not followed (its writes under a condition, parsed
        overrides, are not defaults)."""
        known: list[Val] = []
        computed: list[Val] = []
        copies: list[Val] = []  # configuration file fields copied in
        writes = self._values_written(name, owner)
        read_from = "" if defaults else self._read_from(name, writes)
        for file, value_node, _ in writes:
            # a write in an `if` or after an early return is made for some runs only; one in a function literal
            # (an option function, `func(o *PatchOptions) { o.Retry = true }`) only where the literal is passed:
            # what such a field holds cannot be told
            conditional = under_condition(value_node) or after_an_early_return(value_node)
            in_a_literal = _in_a_function_literal(value_node)
            # a constructor's parameter stored in the field: what the constructor's calls pass
            # a field's writes start a chain of their own, as a parameter's binding does: what the field holds is
            # one fact, however deep the read that asks for it (envoy gateway's `e.Provider == nil` in a helper)
            value = _result_written(
                value_node,
                name,
                self.evaluator.value(file, value_node, self.evaluator.parameters(file, value_node, 1), 1),
            )
            # a configuration file's field left empty, copied into a struct of another type, says nothing of
            # every value of that type (kueue's types.NamespacedName filled from its configuration's Namespace)
            # (a list built around it, traefik's `c.watched = []string{namespace}`, is what the code computes from it)
            copied = (
                not from_file
                and isinstance(value, Val)
                and value.origin.endswith(FROM_FILE)
                and value_node.type != "composite_literal"
            )
            deployed = not file.is_test and not self._written_where_nothing_runs(file, value_node)
            copies.extend((value,) if copied and isinstance(value, Val) and deployed else ())
            held_here = (
                parent is None
                or _held_in(value_node) in (None, parent.lower())
                or self._through_a_parameter(file, value_node)
            )
            # a fallback of a field read from a setting counts where it runs by default
            falls_back = bool(defaults) or (bool(read_from) and self._fill_runs(file, value_node))
            if deployed and falls_back and _fills_when_empty(value_node, name):
                # `if o.Namespace == "" { o.Namespace = defaultNamespace() }`: what an unset field holds
                if not isinstance(value, Val):
                    return None
                if value.value not in ("", None):
                    known.append(Val(value.value, value.origin or defaults or read_from))
                    continue
            if isinstance(value, Val) and value.origin and not copied:
                known.append(value)
            elif isinstance(value, Val) and defaults and deployed and held_here:
                known.extend(self._default_written(file, value, value_node, defaults))
            elif copied:
                continue  # a configuration file's field copied in: `_copied_in` tells whether it says what this holds
            elif (
                isinstance(value, Val)
                and not (value.origin or defaults)
                and deployed
                and held_here
                and not in_a_literal
                and (
                    not conditional
                    or self._set_by_default_to(file, value_node, value)
                    or self._made_whatever_the_settings(file, value_node)
                )
            ):
                # a field that is no configuration, set to what the code computes from values it shows
                # (haproxy's watcher given `scope(allow)`, every namespace unless a flag fills `allow`)
                computed.append(value)
            elif deployed and held_here and not conditional:
                # configuration computed in a way not followed (a file's field defaulted by a function that
                # reads the pod's namespace); or a field that is not configuration written with what cannot be
                # told: a flag feeding another of its writes (a CLI filling a custom resource's spec) says
                # nothing of what the controller reads there
                return None
        return self._settled(name, owner, (known, computed, copies), len(writes))

    def _written_either_way(self, writes: list[_FieldWrite]) -> bool:
        """Whether both branches of one `if` the settings do not decide write the field (antrea's
        `EnableEndpointSlice`, false or true as the cluster serves discovery/v1): a value the program computes
        as it runs, which neither branch's write is an override of."""
        branches: dict[tuple[str, int], set[bool]] = {}
        deciding: dict[tuple[str, int], tuple[GoFile, tree_sitter.Node]] = {}
        for file, value_node, _ in writes:
            found = _branch_of(_statement_of(value_node)) if not file.is_test else None
            if found is not None:
                statement, alternative = found
                key = (file.path, statement.start_byte)
                branches.setdefault(key, set()).add(alternative)
                deciding[key] = (file, statement)
        for key, taken in branches.items():
            file, statement = deciding[key]
            condition = statement.child_by_field_name("condition")
            env = self.evaluator.parameters(file, statement, 1)
            if len(taken) == 2 and condition is not None and self.evaluator.truth(file, condition, env)[0] is None:
                return True
        return False

    def _values_written(self, name: str, owner: TypeRef | None) -> list[_FieldWrite]:
        """The writes of a field but those copying it from another struct of the type it sets (contour's
        defaults overlaid with the user's configuration, `if user.Gateway != nil { res.Gateway = user.Gateway
        }`): such a copy holds nothing the field's other writes do not give."""
        writes = self._writes_of_field(name, owner)
        return [write for write in writes if not self._copied_from_its_kin(write[0], write[1], name, owner)]

    def _copied_from_its_kin(self, file: GoFile, value: tree_sitter.Node, name: str, owner: TypeRef | None) -> bool:
        if value.type != "selector_expression" or parser.text(value.child_by_field_name("field")) != name:
            return False
        operand = value.child_by_field_name("operand")
        copied = self.resolver.written_struct(file, operand) if operand is not None else None
        return owner is not None and copied is not None and self._same(copied, owner, name)

    def _written_where_nothing_runs(self, file: GoFile, write: tree_sitter.Node) -> bool:
        """Whether no binary runs the function making a write (gateway-api-inference-extension's runner
        constructor defaulting `opts.PoolNamespace`, which only tests call): it says nothing of the deployment.
        A defaulting function (`SetDefaults_Args`) runs where the scheme's generated defaulters call it; a
        function of a package no binary of the module reaches, where the modules importing it call it
        (machine-controller-manager's `NewMCServer`, defaulting the namespace its providers' binaries use)."""
        key = self.resolver.function_key(file, write)
        calls = self.evaluator.calls
        if key is None or key.name.startswith(_DEFAULTER_PREFIXES) or not calls.unreached(key):
            return False
        library = not calls.callers(key) and not any(key.package in b for b in self.evaluator.find_binaries())
        return not library

    def _set_by_default_to(self, file: GoFile, write: tree_sitter.Node, value: Val) -> bool:
        """Whether settings make a write of something by default: a zero written where a setting leaves a
        field unset (rook's `else { c.NamespaceToWatch = corev1.NamespaceAll }`) says what that setting turns
        on, which `_written_only_when_off` tells."""
        return value.value not in ("", None, False, 0, []) and self._set_by_default(file, write) is True

    def _made_whatever_the_settings(self, file: GoFile, write: tree_sitter.Node) -> bool:
        """Whether every guard around a write holds, and none reads a setting: the write is made in any
        deployment (metallb's reconciler given `Endpoints: cfg.ReadEndpoints` under `if cfg.ServiceChanged !=
        nil`, a callback each binary's main passes)."""
        guards = self._guards_of(file, write)
        return bool(guards) and all(guard.holds is True and not guard.origin for guard in guards)

    def _set_by_default(self, file: GoFile, write: tree_sitter.Node) -> bool | None:
        """Whether settings decide that the default deployment makes a write: True where each guard around it
        holds by default and reads a setting (the else of traefik's `if namespaceSelector != "" { …append… }
        else { c.watchedNamespaces = []string{namespace} }`), False where one reading a setting fails (the
        append), None otherwise: a guard on the objects at hand says nothing of the deployment."""
        guards = self._guards_of(file, write)
        if any(guard.holds is False and guard.origin for guard in guards):
            return False
        if guards and all(guard.holds is True and guard.origin for guard in guards):
            return True
        return None

    def _guards_of(self, file: GoFile, write: tree_sitter.Node) -> list[Guard]:
        """The guards around a write, its function's parameters bound as its callers bind them."""
        key = (file.path, write.start_byte)
        if key not in self._write_guards:
            env = self.evaluator.parameters(file, write, 1)
            self._write_guards[key] = list(self.evaluator.guarding.guards(file, write, env))
        return self._write_guards[key]

    def _settled(
        self, name: str, owner: TypeRef | None, sorted_writes: tuple[list[Val], list[Val], list[Val]], writes: int
    ) -> list[Val] | None:
        """What a field holds from its writes as `_written` sorts them: known values, values the code computes,
        configuration file fields copied in."""
        known, computed, copies = sorted_writes
        if copies and computed and not known and all(value.value == copies[0].value for value in (*computed, *copies)):
            # contour's `ConfigSpec{Gateway: nil}` of its defaults beside the converted file's `Gateway: gw`, nil
            # where the file leaves it out: every write gives what it holds by default, the file's to change
            return copies
        if copies and (known or computed):
            return None  # written from the file here, otherwise there: what a read finds cannot be told
        if computed and known and all(value.value == known[0].value for value in (*known, *computed)):
            # arena's `Args{Daemon: *refresh}` beside `Args{Daemon: false}`: every write gives the flag's default
            return known
        if computed:  # written only with what the code computes, the same everywhere: that value
            return computed[:1] if not known and self._set_once(name, owner, computed) else None
        return known or self._copied_in(owner, copies, writes)

    def _copied_in(self, owner: TypeRef | None, copies: list[Val], writes: int) -> list[Val]:
        """The configuration file's fields copied into a field of a struct the module declares, where they are
        all its writes (prometheus' role selectors copied from its `selectors:` list): it holds what the file
        does; none otherwise (an imported type, `types.NamespacedName`, is filled by other code too)."""
        declarations = self.resolver.declarations
        if not copies or len(copies) != writes or owner is None:
            return []
        return copies if declarations.unalias(owner.base) in declarations.structs else []

    def _through_a_parameter(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether a write sets the field through a parameter (`c.Availability = detected` in a helper given
        `&cfg`): whichever struct its callers hand over, named as they like, may be the one read."""
        target = assigned_to(value)
        if target is None or target.type != "selector_expression":
            return False
        operand = target.child_by_field_name("operand")
        declaration = self.resolver.declaration(file, operand) if operand is not None else None
        return declaration is not None and declaration.parameter_index >= 0

    def _default_written(self, file: GoFile, value: Val, node: tree_sitter.Node, defaults: str) -> list[Val]:
        """A value written in code for a field the file may set: a visible default (`Enabled: true` in the
        DefaultProjectConfig() the file is decoded over); none when written under a condition that may not
        hold by default (`if edge { c.Dedicated.Enabled = true }`) or after the file is decoded (a standalone
        loader forcing its mode), an override, the field is as the file has it otherwise; nor by a binary that
        builds no cache (a CLI). A condition holding by default (`if cfg.Reconcile == nil`, the file's section
        left out) writes the default."""
        if decoded_before(file, node) or (under_condition(node) and not self._on_by_default(file, node)):
            return []
        # SPEC §3.1 ignores the binaries that build no cache (CLIs): what one writes in the configuration it hands
        # on is no default of the operator's
        deployed = self.evaluator.deployed_packages()
        if deployed is not None and file.package_path not in deployed:
            return []
        return [Val(value.value, defaults)]

    def _set_once(self, name: str, owner: TypeRef | None, computed: list[Val]) -> bool:
        """Whether a field that is no configuration holds the one value the code computes for it: a field of a
        struct of the module (another module's objects hold what the cluster says), every write of it the same,
        no literal of the struct leaving it out where nothing writes it after (`_left_out_elsewhere`), and no
        other write of it or of its items that may run by default (a map the program fills as it runs;
        haproxy's namespace whitelist is filled in a loop over a flag's values, none by default), nor, for a list
        or map, its address handed to a call, which may fill it through the pointer (kelemetry's `insertDeps(key,
        &m.ordered, …)` appending to the list `m.ordered = make(…, 0, n)` starts)."""
        declaring = self._declaring(owner, name) if owner is not None else None
        if (
            declaring is None
            or declaring.package not in self.evaluator.module_packages()
            or self._is_api_object(owner, name)
        ):
            return False
        writes = self._values_written(name, owner)
        # a write in a branch the settings take by default is made (the else of traefik's namespace selector);
        # one they never take reads nothing (`c.watched = append(c.watched, …)` in the other branch); one after
        # an early return is made for some runs, as one in a branch is (spin-operator's maps of the references
        # an object makes, filled after `if … { return result }`)
        taken = [(f, node, self._set_by_default(f, node)) for f, node, _ in writes]
        conditional = [
            (f, node)
            for f, node, by_default in taken
            if (under_condition(node) or after_an_early_return(node))
            and by_default is not True
            and not self._made_whatever_the_settings(f, node)
        ]
        never = [node for _, node, by_default in taken if by_default is False]
        items = [(file, node) for file, node, _ in self._writes_of_field(name, owner, elements=True)]
        return (
            len({repr(value) for value in computed}) == 1
            and _fully_known(computed[0].value)
            and not self._left_out_elsewhere(declaring, name, writes)
            and all(self._off_by_default(file, node) for file, node in (*conditional, *items))
            and not any(_read_before(node, name, never) for _, node, by_default in taken if by_default is not False)
            and not (isinstance(computed[0].value, list | dict) and name in self._passed_by_address())
        )

    def _read_from(self, name: str, writes: list[_FieldWrite]) -> str:
        """The setting a field is read from where it is no configuration struct's (`cfg.SinkType =
        os.Getenv("SINK_TYPE")`), where a write falls back on a default when it is empty: that default is the
        setting's. "" otherwise (an object's field defaulted where nil says nothing of a deployment)."""
        if not any(_fills_when_empty(node, name) for _, node, _ in writes):
            return ""
        for file, node, _ in writes:
            if _fills_when_empty(node, name):
                continue
            value = self.evaluator.value(file, node, self.evaluator.parameters(file, node, 1), 1)
            if isinstance(value, Val) and value.origin:
                return value.origin
        return ""

    def _fill_runs(self, file: GoFile, value: tree_sitter.Node) -> bool:
        """Whether the `if` a fallback write sits in (`if cfg.X == "" { cfg.X = … }`) runs by default: under no
        other condition that is not known to hold by default."""
        current = value.parent
        while current is not None and current.type != "if_statement":
            current = current.parent
        if current is None:
            return False
        around = self.evaluator.condition(file, current)
        return around is None or around.holds_by_default is True

    def _written_through(self) -> frozenset[str]:
        """The fields deployed code writes through as pointers, anywhere in the module: `dest` of `*r.dest =
        value`, or of `lookup(r.name, r.dest)` handing the pointer on. An address a literal stores in such a field
        may be written through; others are only read (a table printing its settings through `*s.value`)."""
        if self._pointer_writes is None:
            found: set[str] = set()
            for file in self.evaluator.files:
                if file.is_test:
                    continue
                for _, _, targets, _ in file.assignments():
                    for target in targets:
                        pointer = target.child_by_field_name("operand") if parser.is_unary(target, "*") else None
                        if pointer is not None and pointer.type == "selector_expression":
                            found.add(parser.text(pointer.child_by_field_name("field")))
                for call in file.calls():
                    for argument in parser.named(call.arguments) if call.arguments is not None else ():
                        if argument.type == "selector_expression":
                            found.add(parser.text(argument.child_by_field_name("field")))
            self._pointer_writes = frozenset(found)
        return self._pointer_writes

    def _passed_by_address(self) -> frozenset[str]:
        """The fields whose address deployed code passes to a call (`insert(c, &r.ordered)`) or stores in a
        literal (k8s-mendabot's table of required variables, `{"AGENT_NAMESPACE", &cfg.AgentNamespace}`, filled
        through `*r.dest = val`), by name."""
        if self._addresses_passed is None:
            names: set[str] = set()
            for file in self.evaluator.files:
                if file.is_test:
                    continue
                written = self._written_through() if file.nodes("composite_literal") else frozenset()
                for field in parser.captures(_ADDRESS_STORED, file.tree.root_node).get("field", []) if written else []:
                    if _slot_of(field) in written:
                        names.add(parser.text(field))
                for call in file.calls():
                    for argument in parser.named(call.arguments) if call.arguments is not None else ():
                        target = argument.child_by_field_name("operand") if parser.is_unary(argument, "&") else None
                        if target is not None and target.type == "selector_expression":
                            names.add(parser.text(target.child_by_field_name("field")))
            self._addresses_passed = frozenset(names)
        return self._addresses_passed

    def _counted(self) -> frozenset[str]:
        """The fields deployed code counts with (`c.useCount++`, `c.waiting -= n`), by name: state the program
        changes as it runs, no setting left at its zero value (inspektor-gadget's informer cache, started by its
        first user: `if cache.useCount == 0`)."""
        if self._counters is None:
            self._counters = frozenset(
                name.decode()
                for file in self.evaluator.files
                if not file.is_test
                for name in _COUNTED_FIELD.findall(file.source.data)
            )
        return self._counters

    def _fallback(self, name: str, owner: TypeRef | None, depth: int) -> Value | None:
        """What the code writes to the field where it is left empty (`if o.Namespace == "" { o.Namespace =
        defaultNamespace() }`): a non-empty value, or UNKNOWN when one cannot be told; None when nothing is."""
        for file, value_node, _ in self._writes_of_field(name, owner):
            if file.is_test or not _fills_when_empty(value_node, name):
                continue
            env = self.evaluator.parameters(file, value_node, depth + 1)
            value = self.evaluator.value(file, value_node, env, depth + 1)
            if not isinstance(value, Val) or value.value not in ("", None):
                return value
        return None

    def _resolved_at_run_time(self, name: str, owner: TypeRef | None) -> bool:
        """Whether the program rewrites a flag's field where the field holds a value it tests for (k8s-lookout's
        `if f.storm == stormAuto { … f.storm = stormOn }` after probing its grants): the default says what to
        find out, not what the program ends up with."""
        return (
            any(
                not file.is_test and _resolved_from_itself(value_node, name) and self._same_struct(write(), owner, name)
                for file, value_node, write in self._writes_of_field(name, owner)
            )
            if owner is not None
            else False
        )

    def _items_filled(self, name: str, owner: TypeRef | None) -> bool:
        """Whether deployed code writes items of the field (`c.Selector[key] = value`) where it may run by
        default: the map holds what the program puts there, not its empty default."""
        return any(
            not file.is_test and not self._off_by_default(file, node)
            for file, node, _ in self._writes_of_field(name, owner, elements=True)
        )

    def _off_by_default(self, file: GoFile, node: tree_sitter.Node) -> bool:
        condition = self.evaluator.condition(file, node)
        return condition is not None and condition.holds_by_default is False

    def _on_by_default(self, file: GoFile, node: tree_sitter.Node) -> bool:
        """Whether every guard of a node holds by default (no combined condition is left)."""
        return self.evaluator.condition(file, node) is None

    def _from_files(self) -> frozenset[TypeRef]:
        """The structs filled from configuration files, and those they hold."""
        if self._file_structs is None:
            flags, calls = self.evaluator.flags, self.evaluator.calls
            passed = [
                struct
                for struct, key, index in flags.decoded_by_parameter
                if any(
                    index < len(values := parser.named(call.child_by_field_name("arguments") or call))
                    and read_from_file(caller_file, values[index], self.resolver)
                    for caller_file, call in calls.callers(key)
                )
            ]
            handed = [
                struct.base
                for key, index in flags.decoded_into_parameter
                for caller_file, call in calls.callers(key)
                if index < len(values := parser.named(call.child_by_field_name("arguments") or call))
                and (struct := self.resolver.type_of(caller_file, values[index])) is not None
            ]
            # a struct decoding itself from YAML (`func (c *SDConfig) UnmarshalYAML(unmarshal func(any) error)`) is
            # a configuration file's, even where the file reaches it through a registry of such structs
            yaml = [
                TypeRef(key.package, key.receiver)
                for key in self.resolver.declarations.functions
                if key.name == "UnmarshalYAML" and key.receiver
            ]
            self._file_roots = [*flags.decoded, *passed, *handed, *yaml]
            self._file_structs = nested_structs(self._file_roots, self.resolver.declarations)
        return self._file_structs

    def _file_section(self, struct: TypeRef) -> str:
        """The dotted keys of the section of the configuration file a struct is filled from ("" at the top, or
        where it is not told)."""
        if self._file_keys is None:
            self._file_keys = keys_to(self._from_files(), self._file_roots, self.resolver.declarations)
        return self._file_keys.get(struct, "")

    def _feature_gates_flag(self, struct: TypeRef) -> str:
        """The feature-gates flag (`--feature-gates`) one field of a struct takes, whose other fields are the
        gates it is parsed into; "" for any other struct."""
        names = {
            flag.name
            for entries in self.evaluator.flags.by_field.values()
            for owner, flag in entries
            if owner is not None and owner.base == struct.base
        }
        return names.pop() if len(names) == 1 and "feature-gate" in next(iter(names)) else ""

    def _flag_structs(self) -> frozenset[TypeRef]:
        """The structs that declare a field a flag of a binary building a cache, or an environment variable,
        fills."""
        if self._configured is None:
            flags = self.evaluator.flags
            # a field promoted from an embedded struct (`CLIConfig{*manager.Config}` binding `&c.LogLevel`)
            # makes the struct declaring it configuration
            flagged = (
                (struct, name)
                for name, entries in flags.by_field.items()
                for struct, flag in entries
                if self._configures(flag, struct, name)  # a CLI's flags make no struct the operator's configuration
            )
            tagged = ((struct, name) for name, entries in flags.env_by_field.items() for struct, _ in entries)
            self._configured = frozenset(
                self._declaring(struct, name) for struct, name in (*flagged, *tagged) if struct is not None
            )
        return self._configured

    def stored(
        self, owner: TypeRef | None, name: str, *, elements: bool = False
    ) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The values the module stores in field `name` of `owner` (by assignment or in a literal), or with
        `elements` in its items (`c.factories[ns] = factory`, `factories: map[string]F{"": factory}`)."""
        # a later result of a call (`r.mgr, r.cache, err = setup()`) is not what the call's value tells
        found = [
            (file, value)
            for file, value, _ in self._writes_of_field(name, owner, elements=elements)
            if not _result_index(value, name)
        ]
        if elements:  # and the items of the map and slice literals written to the field whole
            found += [
                (file, item) for file, value, _ in self._writes_of_field(name, owner) for item in _literal_items(value)
            ]
        if found or owner is None or elements:
            return found
        return [
            write
            for struct, field in self.resolver.declarations.provided_for(owner, name)
            for write in self.stored(struct, field)
        ]

    def stored_items(self, owner: TypeRef, name: str) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The values field `name` takes in the items of the slice literals of `owner` structs that code which
        may run writes (`[]registration.Watch{{Type: &corev1.Secret{}}}`, `[]*Watch{&Watch{…}}`): descriptors a
        loop registers; not a struct literal standing alone (handed to a function printing it), not tests."""
        key = (owner, name)
        found = self._stored_items.get(key)
        if found is None:
            found = self._stored_items[key] = []
            for file in self.evaluator.files:
                if file.path.endswith("_test.go"):
                    continue
                for literal in file.nodes("composite_literal"):
                    element = _slice_element_type(literal.child_by_field_name("type"))
                    held = resolve_type(element, file) if element is not None else None
                    if held is None or self.resolver.declarations.unalias(held.base) != owner.base:
                        continue
                    if not self.evaluator.calls.runs_when_reached(file, literal):
                        continue
                    found.extend((file, value) for item in literal_items(literal) if (value := field_given(item, name)))
        return found

    def _writes_of_field(self, name: str, owner: TypeRef | None, *, elements: bool = False) -> list[_FieldWrite]:
        """The first writes of field `name` of `owner`'s struct (any struct's when `owner` is not known), or
        with `elements` of its items."""
        key = (name, owner, elements)
        kept = self._owned_writes.get(key)
        if kept is None:
            kept = self._owned_writes[key] = self._find_writes_of_field(name, owner, elements)
        return kept

    def _find_writes_of_field(self, name: str, owner: TypeRef | None, elements: bool) -> list[_FieldWrite]:
        writes = self._field_writes()  # fills the table of items' writes too
        table = (self._element_writes or {}) if elements else writes
        structs = self._written_structs.setdefault((name, elements), [])
        found: list[_FieldWrite] = []
        for index, write in enumerate(table.get(name, ())):
            if index == len(structs):
                structs.append(write[2]())
            if self._same(structs[index], owner, name):
                found.append(write)
                if len(found) == MAX_WRITES:
                    break
        return found

    def _same(self, struct: TypeRef | None, owner: TypeRef | None, name: str) -> bool:
        """Whether field `name` of `struct` can be the one read on `owner` (either unknown: it may be); both
        are taken to the struct that declares the field, for fields promoted from embedded structs."""
        if owner is not None and struct is None:
            # a field of another module's type (`ref.Name` of a corev1.ObjectReference) holds what that code or
            # the cluster puts there, not what an unresolved write of a same-named field does
            return owner.base.package in self.evaluator.module_packages() or owner.base.package == ""
        if struct is None or owner is None:
            return True
        declaring, read = self._declaring(struct, name), self._declaring(owner, name)
        # a versioned twin of component configuration (`SetDefaults_Args` of …/config/v1alpha2 writing the field
        # the program reads on …/config's internal Args, converted from it)
        return declaring == read or (declaring.name == read.name and _versioned_twins(declaring.package, read.package))

    def _is_api_object(self, owner: TypeRef | None, name: str) -> bool:
        """Whether the struct declaring the field is a Kubernetes API type: one embedding metav1.ObjectMeta, or
        a struct such a type holds (its Spec, its Status, what they hold): its values come from objects in the
        cluster, not from the deployment. Other structs of the package (arena's client arguments beside its
        job objects, k8sgpt's analyzer) are the program's own."""
        if owner is None:
            return False
        if self._api_structs is None:
            structs = self.resolver.declarations.structs
            found = {
                struct.base
                for struct, infos in structs.items()
                if any(
                    info.is_embedded and info.type is not None and info.type.is_(_META, "ObjectMeta") for info in infos
                )
            }
            pending = list(found)
            while pending:  # the structs they hold, in the module, to any depth
                for info in structs.get(pending.pop(), ()):
                    held = info.type.base if info.type is not None else None
                    if held is not None and held not in found and held in structs:
                        found.add(held)
                        pending.append(held)
            self._api_structs = frozenset(found)
        return self._declaring(owner, name).base in self._api_structs

    def _declaring(self, struct: TypeRef, name: str) -> TypeRef:
        """The struct declaring field `name` of `struct` (itself, or one it embeds); kept, as each write of a
        field name the module shares among structs asks it."""
        key = (struct, name)
        found = self._declarers.get(key)
        if found is None:
            declarations = self.resolver.declarations
            field = declarations.field(struct, name)
            found = self._declarers[key] = field[0] if field is not None else declarations.unalias(struct.base)
        return found

    def _field_writes(self) -> dict[str, list[_FieldWrite]]:
        """Writes of fields by name, each with a function telling its struct (computed only when read)."""
        if self._field_values is None:
            writes: dict[str, list[_FieldWrite]] = {}
            elements: dict[str, list[_FieldWrite]] = {}
            for file in self.evaluator.files:
                for _, _, targets, values in file.assignments():
                    # `x.a, x.b = 1, 2` pairs them; `x.a, x.b, err = f()` writes a result of one call each
                    if len(values) != len(targets) and len(values) != 1:
                        continue
                    for index, written in enumerate(targets):
                        value = values[index] if len(values) == len(targets) else values[0]
                        self._add_write(file, written, value, writes, elements)
                for literal in file.nodes("composite_literal"):
                    type_node = literal.child_by_field_name("type")
                    if type_node is not None and type_node.type == "struct_type":
                        continue  # an anonymous struct's fields (a template's data) are no named struct's
                    struct = functools.partial(resolve_type, type_node, file)
                    for key, value in keyed_elements(literal):
                        writes.setdefault(key, []).append((file, value, struct))
            self._field_values, self._element_writes = writes, elements
        return self._field_values

    def _add_write(
        self,
        file: GoFile,
        written: tree_sitter.Node,
        value: tree_sitter.Node,
        writes: dict[str, list[_FieldWrite]],
        elements: dict[str, list[_FieldWrite]],
    ) -> None:
        """`x.f = v` writes field f, `x.f[k] = v` one of its items, and `*p = v` the fields whose addresses the
        calls pass for p."""
        is_item = written.type == "index_expression"
        target = written.child_by_field_name("operand") if is_item else written
        if target is not None and target.type == "selector_expression":
            name = parser.text(target.child_by_field_name("field"))
            owner = functools.partial(self.resolver.written_struct, file, target.child_by_field_name("operand"))
            (elements if is_item else writes).setdefault(name, []).append((file, value, owner))
        elif target is not None and not is_item and parser.is_unary(target, "*"):
            for caller_file, field in self._fields_pointed_to(file, target):
                owner = functools.partial(
                    self.resolver.written_struct, caller_file, field.child_by_field_name("operand")
                )
                writes.setdefault(parser.text(field.child_by_field_name("field")), []).append((file, value, owner))

    def _fields_pointed_to(self, file: GoFile, target: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """For `*p = v` with p a parameter of a module function, the fields the calls pass the address of
        (`&c.FeatureGates`, which Kong's flag value constructor fills with the default gates): each is written v."""
        pointer = parser.first_named(target)
        declaration = (
            self.resolver.declaration(file, pointer) if pointer is not None and pointer.type == "identifier" else None
        )
        parameter = self.resolver.parameter_of(file, target, declaration)
        if parameter is None:
            return []  # not a parameter, or a function literal's: who calls it is not followed
        info, index = parameter
        if under_condition(target) or innermost_function(target) != info.node:
            # `if v := os.Getenv(name); v != "" { *value = v }`, or a write in a function literal: not what the
            # call leaves there by default
            return []
        found = []
        for caller_file, call in self.evaluator.calls.callers(info.key):
            arguments = parser.named(call.child_by_field_name("arguments") or call)
            argument = arguments[index] if index < len(arguments) else None
            field = parser.first_named(argument) if argument is not None and parser.is_unary(argument, "&") else None
            if field is not None and field.type == "selector_expression":
                found.append((caller_file, field))
        return found


def _literal_items(value: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The items a map or slice literal written whole to a field stores (`pods: map[string]PodInterface{"": c}`):
    what reading the field's items gives, as `x.f[k] = v` would store them one by one."""
    if is_map_literal(value):
        return map_values(value)
    return literal_items(value) if is_slice_literal(value) else []


def _result_written(value_node: tree_sitter.Node, name: str, value: Value) -> Value:
    """What a write gives field `name`, one of several targets of one call's results (`o.NSOnly, _ =
    strconv.ParseBool(…)`, `ctx.components, ctx.shardings, err = t.resolve(…)`): its result; any other value
    as it is."""
    index = _result_index(value_node, name)
    return result_at(value, index) if index is not None else value


def _result_index(value_node: tree_sitter.Node, name: str) -> int | None:
    """Which of a call's results an assignment of several targets writes to field `name`; None where the
    value is not several targets' call."""
    values = value_node.parent
    statement = values.parent if values is not None and values.type == "expression_list" else None
    left = statement.child_by_field_name("left") if statement is not None else None
    if values is None or left is None or len(parser.named(left)) < 2 or len(parser.named(values)) != 1:
        return None
    for index, target in enumerate(parser.named(left)):
        written = target.child_by_field_name("operand") if target.type == "index_expression" else target
        field = written.child_by_field_name("field") if written is not None else None
        if written is not None and written.type == "selector_expression" and parser.text(field) == name:
            return index
    return 0


def _in_a_function_literal(node: tree_sitter.Node) -> bool:
    function = innermost_function(node)
    return function is not None and function.type == "func_literal"


def _read_before(write: tree_sitter.Node, name: str, unmade: Sequence[tree_sitter.Node] = ()) -> bool:
    """Whether the function writing a field reads it before (`if !r.migrationChecked { … }; r.migrationChecked =
    true`, tigera-operator): state the program toggles as it runs, which holds its zero value until then; not
    counting reads in the values of `unmade` writes, which the default deployment never makes."""
    function = innermost_function(write)
    if function is None:
        return False
    start = _statement_of(write).start_byte
    fields = parser.captures("(selector_expression field: (field_identifier) @field)", function).get("field", [])
    return any(
        found.start_byte < start
        and parser.text(found) == name
        and not any(_statement_of(skipped).start_byte <= found.start_byte < skipped.end_byte for skipped in unmade)
        for found in fields
    )


def _branch_of(statement: tree_sitter.Node) -> tuple[tree_sitter.Node, bool] | None:
    """The `if` whose body or else block holds a statement directly, and whether it is the else; None elsewhere."""
    block = statement.parent
    block = block.parent if block is not None and block.type == "statement_list" else block
    holder = block.parent if block is not None and block.type == "block" else None
    if holder is None or holder.type != "if_statement" or block is None:
        return None
    return holder, block == holder.child_by_field_name("alternative")


def _statement_of(write: tree_sitter.Node) -> tree_sitter.Node:
    """The assignment a written value is part of (its targets read the field too), else the value."""
    statement = write
    while statement.parent is not None and statement.type != "assignment_statement" and statement.type not in FUNCTIONS:
        statement = statement.parent
    return statement if statement.type == "assignment_statement" else write


def _empty(field_type: TypeRef | None, known: list[Val], origin: str, *, unseen: bool) -> Val:
    """A field that holds nothing the code shows: its type's zero value, or false where the code writes false to
    a *bool (`c.Enabled = ptr.To(false)` where unset); `unseen`: only os.Getenv's values are stored in it."""
    zero = zero_value(field_type)
    empty = zero.value if isinstance(zero, Val) else ""
    if any(value.value is False for value in known) and all(value.value in (False, None) for value in known):
        empty = False
    pointees = {repr(value.value) for value in known}
    if field_type is not None and field_type.pointer and known and len(pointees) == 1 and known[0].value is not None:
        empty = known[0].value  # `Settings: &p.settings`: an address, never nil, of what the setting leaves empty
    return Val(empty, origin, unseen)


def _in_a_literal(value: tree_sitter.Node) -> bool:
    """Whether a field's write is an element of a composite literal (not an assignment)."""
    outer = value.parent
    if outer is not None and outer.type == "literal_element":
        outer = outer.parent
    return outer is not None and outer.type == "keyed_element"


def _fully_known(value: object) -> bool:
    """A value with nothing unknown in it (not the `(UNKNOWN, UNKNOWN)` of a call that returns two values)."""
    if value is UNKNOWN:
        return False
    if isinstance(value, list | tuple):
        return all(_fully_known(item) for item in value)
    if isinstance(value, dict):
        return all(_fully_known(item) for item in (*value.keys(), *value.values()))
    return True


def _held_in(value: tree_sitter.Node) -> str | None:
    """The name of what holds the struct a write sets a field of, lower-cased: `certrotation` for `Enabled:
    true` in `CertRotation: Gate{Enabled: true}`, `reconcile` for `retval.reconcile.X = true` or `reconcile.X =
    true` (the copy a program keeps of `config.Reconcile`); None when not told."""
    element = value.parent.parent if value.parent is not None and value.parent.type == "literal_element" else None
    if element is not None and element.type == "keyed_element":
        literal = element.parent.parent if element.parent is not None else None  # literal_value, composite_literal
        holder = literal.parent if literal is not None and literal.type == "composite_literal" else None
        holder = holder.parent if holder is not None and holder.type == "literal_element" else None
        key = parser.first_named(holder) if holder is not None and holder.type == "keyed_element" else None
        return parser.text(key).lower() if key is not None else None
    assignment = value.parent.parent if value.parent is not None else None
    if assignment is None or assignment.type != "assignment_statement":
        return None
    target = parser.first_named(assignment.child_by_field_name("left"))
    operand = (
        target.child_by_field_name("operand") if target is not None and target.type == "selector_expression" else None
    )
    if operand is not None and operand.type == "selector_expression":
        operand = operand.child_by_field_name("field")
    return (
        parser.text(operand).lower()
        if operand is not None and operand.type in ("identifier", "field_identifier")
        else None
    )


def _failed_when_empty(method: tree_sitter.Node, receiver: str) -> frozenset[str]:
    """The receiver's fields a method returns an error on when empty: `if c.Namespace == "" { return
    errors.New(…) }`, also as one part of an `||`."""
    names = set()
    for statement in parser.captures("(if_statement) @if", method).get("if", []):
        condition, block = statement.child_by_field_name("condition"), statement.child_by_field_name("consequence")
        last = last_statement(block)
        if condition is None or last is None or last.type != "return_statement" or not is_failing_return(last):
            continue
        for part in disjuncts(condition):
            tested = (holds_when_empty(part) or "").lstrip("*")
            owner, _, field = tested.partition(".")
            if owner == receiver and field.isidentifier():
                names.add(field)
    return frozenset(names)


def _shown_origin(known: list[Val], name: str, flag: str) -> str:
    """How an empty field is named in messages: by the origin of what the code writes (an environment
    variable), else by its name; a flag defaulting to the field (`flag`) sets it too (cloud-provider-openstack's
    `fs.StringVar(&c.PolicyConfigMapName, "policy-configmap-name", c.PolicyConfigMapName, …)` after
    `os.Getenv(…)`)."""
    written = next((value.origin for value in known if value.origin), "")
    if flag and written and written not in (flag, name):
        return f"{flag} or {written}"
    return written or name


def _one_visible(known: list[Val], defaults: str) -> Value | None:
    """The first non-empty value written: a configuration's visible default, later writes overriding it. A field
    that is no configuration, written with several (oci's driver config built with the block volume, the FSS or
    the Lustre driver's name, one per driver started), holds any of them: UNKNOWN."""
    visible = [value for value in known if value.value not in ("", None, False, 0)]
    if not defaults and len({repr(value.value) for value in visible}) > 1:
        return UNKNOWN
    return visible[0] if visible else None


def _computed(value: tree_sitter.Node) -> bool:
    """Whether a value is one the program computes (a local, a call's result), not a literal default (`"x"`,
    `new(true)`, `ptr.To(false)`)."""
    if literal_value(value) is not None or value.type in ("composite_literal", "unary_expression"):
        return False
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    return function is None or parser.text(function).rsplit(".", 1)[-1] not in ("new", "To", "Bool", "String")


def _fills_when_empty(value: tree_sitter.Node, name: str) -> bool:
    """Whether a write of field `name` sits in the branch of an `if` that tests the field empty
    (`if o.Namespace == "" { o.Namespace = … }`, also as one part of an `||`): a fallback, not an override."""
    child, current = value, value.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        if current.type == "if_statement" and child == current.child_by_field_name("consequence"):
            condition = current.child_by_field_name("condition")
            tested = [tested_empty(part) for part in disjuncts(condition)] if condition is not None else []
            return any(found is not None and found.lstrip("*").endswith(f".{name}") for found in tested)
        child, current = current, current.parent
    return False


def _slot_of(field: tree_sitter.Node) -> str | None:
    """The struct field a literal stores `&x.F` in: its key (`dest: &cfg.F`), or the field at its place in the
    struct the literal builds (`{"AGENT_NAMESPACE", &cfg.F}` of `[]struct{ name string; dest *string }`)."""
    element = field.parent
    while element is not None and element.type != "literal_element":
        element = element.parent
    holder = element.parent if element is not None else None
    if holder is not None and holder.type == "keyed_element":
        return parser.text(holder.child_by_field_name("key")) or None
    if element is None or holder is None or holder.type != "literal_value":
        return None
    struct = _struct_built(holder)
    names = parser.captures("(field_declaration name: (field_identifier) @name)", struct) if struct else {}
    fields = names.get("name", [])
    position = parser.named(holder).index(element)
    return parser.text(fields[position]) if position < len(fields) else None


def _struct_built(values: tree_sitter.Node) -> tree_sitter.Node | None:
    """The struct type a literal's values build: its own type, or the element type of the slice literal it is
    an item of (`[]struct{…}{ {…}, {…} }`)."""
    parent = values.parent
    if parent is not None and parent.type == "composite_literal":
        typed = parent.child_by_field_name("type")
    elif parent is not None and parent.type == "literal_element" and parent.parent is not None:
        outer = parent.parent.parent
        sliced = outer.child_by_field_name("type") if outer is not None and outer.type == "composite_literal" else None
        typed = sliced.child_by_field_name("element") if sliced is not None and sliced.type == "slice_type" else None
    else:
        typed = None
    return typed if typed is not None and typed.type == "struct_type" else None


def _resolved_from_itself(value: tree_sitter.Node, name: str) -> bool:
    """Whether a write of field `name` sits, at any depth of its function, in the branch of an `if` comparing
    the field with a value (`if f.storm == stormAuto { if on { f.storm = stormOn } … }`)."""
    child, current = value, value.parent
    while current is not None and current.type not in ("function_declaration", "method_declaration", "func_literal"):
        condition = current.child_by_field_name("condition") if current.type == "if_statement" else None
        if (
            condition is not None
            and child == current.child_by_field_name("consequence")
            and any(_compares_field(part, name) for part in conjuncts(condition))
        ):
            return True
        child, current = current, current.parent
    return False


def _compares_field(condition: tree_sitter.Node, name: str) -> bool:
    """`x.name == value` (either side), parenthesized or not."""
    while condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        condition = condition.named_children[0]
    if condition.type != "binary_expression" or parser.text(condition.child_by_field_name("operator")) != "==":
        return False
    sides = (condition.child_by_field_name("left"), condition.child_by_field_name("right"))
    return any(side is not None and parser.text(side).lstrip("*").endswith(f".{name}") for side in sides)


_VERSION = re.compile(r"v\d+((alpha|beta)\d+)?")


def _versioned_twins(package: str, other: str) -> bool:
    """Whether one package is the other's API version (`…/apis/config` and `…/apis/config/v1beta3`)."""
    longer, shorter = (package, other) if len(package) > len(other) else (other, package)
    parent, _, version = longer.rpartition("/")
    return parent == shorter and _VERSION.fullmatch(version) is not None


def _slice_element_type(type_node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The struct type named for the items of a slice or array literal (`Watch` of `[]Watch`, `[]*Watch`)."""
    if type_node is None or type_node.type not in ("slice_type", "array_type", "implicit_length_array_type"):
        return None
    element = type_node.child_by_field_name("element")
    if element is not None and element.type == "pointer_type":
        element = parser.first_named(element)
    return element if element is not None and element.type in ("type_identifier", "qualified_type") else None
