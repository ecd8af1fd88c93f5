"""The guards around a Go node, evaluated for the default deployment (SPEC §1): the ifs, cases and loops
around it, the early returns before it, and where it sits in a helper, the guards of the helper's calls."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tree_sitter

from watchlint.facts import Condition
from watchlint.go import parser
from watchlint.go.callgraph import WEBHOOK_CALLED
from watchlint.go.configfiles import FROM_FILE
from watchlint.go.declarations import FunctionKey, resolve_type
from watchlint.go.flags import variable_key
from watchlint.go.known import Implementation, Val, Value
from watchlint.go.model import CONTROLLER_RUNTIME, GoFile, TypeRef
from watchlint.go.resolve import holding_literal, keyed_elements, unquote
from watchlint.go.scope import (
    FUNCTIONS,
    in_nil_test,
    innermost_function,
    last_statement,
    return_items,
    return_statements,
    returned_values,
)
from watchlint.settingphrases import all_given, any_given, either_given, given, is_environment_name
from watchlint.source import Span

if TYPE_CHECKING:
    from watchlint.go.declarations import Parameter
    from watchlint.go.deployment import Evaluator
    from watchlint.go.resolve import Resolver
    from watchlint.go.scope import Declaration

CALLER_LEVELS = 16  # calls followed up from a site to the guard that keeps it off by default
_BOOLEAN_READS = ("identifier", "selector_expression")  # `if clusterScoped`, `if cfg.ClusterScoped`


@dataclass(frozen=True, slots=True)
class Guard:
    """One condition around a node: an `if`, a `case` or a loop, evaluated."""

    holds: bool | None
    text: str
    span: Span
    origin: str = ""  # the flag or variable the condition reads, when it reads one
    code: str = ""  # the condition an `if` body runs under, as written (not for an else branch)
    tested: str = ""  # what it tests, as written: an `if` condition (for its else branch too), a tagless case

    @property
    def setting(self) -> str:
        """The setting that turns the guard, with the value it must take where the guard names one
        (`AGENT_RBAC_SCOPE=namespace`), else the setting alone."""
        selects = self.text.startswith(f"{self.origin}=") and " " not in self.text
        return self.text if selects else self.origin


class Guards:
    """Finds and evaluates the guards of nodes, with the evaluator's values and memory."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.resolver = evaluator.resolver
        self._early_return_lists: dict[tuple[str, int], list[tree_sitter.Node]] = {}
        self._error_stops: dict[tuple[str, int, int], bool] = {}

    # -- public -----------------------------------------------------------------------------------
    def condition(self, file: GoFile, node: tree_sitter.Node) -> Condition | None:
        """The combined guards of a node: inside its function (its parameters bound to what every call
        passes, when they all pass the same), then at the calls of that function."""
        guards = list(self.guards(file, node, self.evaluator.parameters(file, node)))
        guards.extend(self._caller_guards(file, node))
        return combine(guards)

    def switched_on(self, file: GoFile, node: tree_sitter.Node) -> Condition | None:
        """The innermost guard of a node inside its function that a setting decides and that holds by default
        (external-resizer's Pod informer under `if handleVolumeInUseError`, a flag true by default): changing the
        setting keeps the node from running. None where no such guard is seen."""
        for guard in self.guards(file, node, self.evaluator.parameters(file, node)):
            if guard.holds is True and guard.origin and guard.code:
                # the code as written: the phrases of a guard say what turns it on, not what holds by default
                code = guard.code if len(guard.code) <= _SHOWN_CONDITION else f"{guard.code[:_SHOWN_CONDITION]}…"
                return Condition(f"`{code}` holds", guard.span, True, guard.origin)
        return None

    def within(self, file: GoFile, node: tree_sitter.Node) -> Condition | None:
        """The guards of a node inside its function that a setting decides, its parameters bound as in
        `condition`: a read in a helper reported at a call of it, which its own guards may keep from running
        (an early return unless a mode is configured). A guard on the helper's own state is left out: kueue's
        patch helper reads only `if fetch`, a local false on the first try of a retry and true after."""
        guards = self.guards(file, node, self.evaluator.parameters(file, node))
        return combine([guard for guard in guards if guard.origin])

    def guards(self, file: GoFile, node: tree_sitter.Node, env: dict[str, Value]) -> Iterator[Guard]:
        child, current = node, node.parent
        while current is not None and current.type not in ("function_declaration", "method_declaration", "source_file"):
            if current.type == "if_statement":
                condition = current.child_by_field_name("condition")
                in_else = child == current.child_by_field_name("alternative")
                other_arm = current.child_by_field_name("consequence" if in_else else "alternative")
                if (
                    condition is not None
                    and child not in (condition, current.child_by_field_name("initializer"))
                    # `if ns != "" {…} else { return errors.New(…) }`: a deployment that runs takes this arm
                    and not (other_arm is not None and other_arm.type == "block" and self.surely_fails(file, other_arm))
                ):
                    truth, origin = self.evaluator.truth(file, condition, env)
                    holds = None if truth is None else (truth != in_else)
                    if origin and holds is False:  # an else branch runs when the condition turns false
                        text = self._turned_on_by(file, condition, env, origin, returns=in_else)
                    else:
                        text = _guard_text(condition, origin, in_else)
                    tested = " ".join(parser.text(condition).split())
                    yield Guard(holds, text, file.span(condition), origin, "" if in_else else tested, tested)
            elif current.type in ("expression_case", "default_case") and not self._only_case_running(file, current):
                yield self._case_guard(file, current, env)
            elif current.type == "type_case":
                yield from self._type_case_guard(file, current, env)
            elif current.type == "for_statement" and child == current.child_by_field_name("body"):
                yield self._loop_guard(file, current, env)
            elif current.type == "statement_list":
                yield from self._early_returns(file, current, child, env)
            child, current = current, current.parent

    def surely_fails(self, file: GoFile, block: tree_sitter.Node | None) -> bool:
        """Whether a block ends the program: os.Exit, panic, a Fatal log call, or a return of a certain error
        (`_certain_error`) that stops the program (`error_stops`). A deployment that runs passes it by."""
        last = last_statement(block) if block is not None else None
        if last is None or last.type != "return_statement":
            return ends_in_an_exit(last) and not _leaves_early(block)
        function = innermost_function(last)
        return (
            not _leaves_early(block)
            and function is not None
            and returns_error(function)
            and not _requeues(file, function)
            and _certain_error(last)
            and self.error_stops(file, function)
        )

    def error_stops(self, file: GoFile, function: tree_sitter.Node, depth: int = 0) -> bool:
        """Whether the program stops on an error a function returns: a cobra command's RunE, or a function
        every call of which fails on it surely (`if err := run(); err != nil { os.Exit(1) }`, `utilruntime.
        Must(run())`) or returns it from a function the program stops on alike. A reconciler's error only
        requeues its request, and a caller may log one and go on: not told without the calls."""
        if function.type == "func_literal":
            return _runs_a_command(function)
        key = self.resolver.function_key(file, function)
        if key is None or depth > _CALLER_DEPTH:
            return False
        memo = (file.path, function.start_byte, depth)  # a verdict cut short by the depth holds at its depth only
        found = self._error_stops.get(memo)
        if found is None:
            self._error_stops[memo] = False  # a recursion stops nothing
            calls = self.evaluator.calls
            callers = calls.callers(key)
            handed = calls.method_values(key) if key.receiver else calls.references(key)
            found = bool(callers or handed) and (
                all(self._stops_at(at, call, depth) for at, call in callers)
                and all(_runs_a_command(value) for _, value in handed)
            )
            self._error_stops[memo] = found
        return found

    def _stops_at(self, file: GoFile, call: tree_sitter.Node, depth: int) -> bool:
        """Whether a call's caller stops the program on its error: `return run(…)` from a function it stops on,
        a Must helper panicking on it, or the first `if err != nil {…}` testing the error it is assigned to (in
        an initializer or after it) failing surely: ending the program, or returning the error on."""
        statement = call.parent
        while statement is not None and statement.type == "expression_list":
            statement = statement.parent
        if statement is None:
            return False
        if statement.type == "return_statement":
            return self._returned_on(file, statement, call, depth)
        if statement.type == "argument_list":
            called = statement.parent.child_by_field_name("function") if statement.parent is not None else None
            return called is not None and parser.text(called).rsplit(".", 1)[-1].startswith("Must")
        error = _error_assigned(statement, call)
        test = _error_test(statement, error) if error is not None else None
        block = test.child_by_field_name("consequence") if test is not None else None
        last = last_statement(block) if block is not None else None
        if last is None or last.type != "return_statement":
            return ends_in_an_exit(last) and not _leaves_early(block)
        items = return_items(last)
        hands_on = bool(items) and parser.text(items[-1]) == error  # else it must fail of its own
        return (hands_on or _certain_error(last)) and self._returned_on(file, last, None, depth)

    def _returned_on(
        self, file: GoFile, statement: tree_sitter.Node, call: tree_sitter.Node | None, depth: int
    ) -> bool:
        """Whether a return hands an error (the call's result, where given, as its last item) to a caller that
        stops the program on it."""
        items = return_items(statement)
        outer = innermost_function(statement)
        return (
            bool(items)
            and (call is None or items[-1] == call)
            and outer is not None
            and returns_error(outer)
            and self.error_stops(file, outer, depth + 1)
        )

    def _early_returns(
        self, file: GoFile, statements: tree_sitter.Node, child: tree_sitter.Node, env: dict[str, Value]
    ) -> Iterator[Guard]:
        """`if cond { return … }` before a statement: it runs only when cond is false. Only conditions on
        variables that hold the configuration count (their value comes from a flag or an environment
        variable): not a field, which may be an object's (`backup.Status.PodName`), and never an error check
        (the default deployment does not fail, and `if err != nil { return err }` comes before most
        statements)."""
        for condition in self._early_return_conditions(file, statements):
            if condition.start_byte >= child.start_byte:
                return
            truth, origin = self.evaluator.truth(file, condition, env)
            if truth is not None and origin:
                text = self._turned_on_by(file, condition, env, origin, returns=True)
                yield Guard(not truth, text, file.span(condition), origin)

    def _turned_on_by(
        self, file: GoFile, condition: tree_sitter.Node, env: dict[str, Value], origin: str, *, returns: bool = False
    ) -> str:
        """What turns on a branch that is off by default: setting the flag away from its default. A boolean
        that is true by default (`if r.endpointSlices {…} else {site}`) is turned off, which "is set" would
        not say. `returns`: the condition of an early return, which what follows needs false (`if listen ==
        "off" { return }` runs the rest when --listen is not off)."""
        bare, negated = condition, False
        while bare.type in ("parenthesized_expression", "unary_expression"):
            if bare.type == "unary_expression" and parser.text(bare.child_by_field_name("operator")) != "!":
                break
            negated ^= bare.type == "unary_expression"
            bare = parser.named(bare)[-1]
        runs = (not negated) != returns
        tested = self._returning_text(file, bare, env, runs=runs) or self._tested_text(
            file, bare, origin, stripped=bare is not condition, runs=runs
        )
        if tested is not None:
            return tested
        if not runs and (turned := self._any_turned_off(file, bare, env)) is not None:
            return turned
        # `a || b` wants any one of its settings given, `a && b` (where it runs) each of those off by default
        combined = self._any_one_given(file, bare, env) or (self._all_turned_on(file, bare, env) if runs else None)
        if combined is not None:
            return combined
        value = self.evaluator.value(file, bare, env, 0)
        boolean = self._boolean_text(file, bare, value, origin, runs=runs)
        if boolean is not None:
            return boolean
        compared = self._compared_text(file, bare, condition, env, origin, runs=runs, returns=returns)
        if compared is not None:
            return compared
        return self.set_text(origin, file) + (self._also_required(file, bare, env, origin) if runs else "")

    def _compared_text(
        self,
        file: GoFile,
        bare: tree_sitter.Node,
        condition: tree_sitter.Node,
        env: dict[str, Value],
        origin: str,
        *,
        runs: bool,
        returns: bool,
    ) -> str | None:
        """`_turned_on_by` for a condition testing a setting for one value: the value it wants."""
        if bare is not condition:
            # `if !boolEnv("AUDIT_ENABLED", false) { return nil }`: a helper's test decides either way, as does a
            # variable's (`if !sizeTagging { return nil }`)
            compared = (
                self._compared_by_helper(file, bare)
                if bare.type == "call_expression"
                else self._compared_by_variable(file, bare)
                if bare.type == "identifier"
                else None
            )
            wanted = runs
        else:
            compared = (
                _compared_to(bare)
                or self._compared_by_helper(file, bare)
                or self._compared_constant(file, bare, env)
                or self._compared_by_variable(file, bare)
            )
            wanted = not returns
        if not compared:
            return None
        if not wanted:
            return f"{origin} is not {compared}"
        # a flag or variable is given the value; a configuration file's field selects it
        return f"{origin} selects {compared}" if " " in origin else f"{origin}={compared}"

    def _returning_text(self, file: GoFile, bare: tree_sitter.Node, env: dict[str, Value], *, runs: bool) -> str | None:
        """What turns on an equality test of what a module function returns, where it returns the value compared
        with only under guards off by default (vcluster's `BackingStoreType() == StoreTypeExternalEtcd`, returned
        under `case c.Etcd.External.Enabled:`): those guards, rather than the setting the function's default
        return passed over first; None for another condition, or where a return gives what cannot be told."""
        operator = parser.text(bare.child_by_field_name("operator")) if bare.type == "binary_expression" else ""
        if operator not in ("==", "!=") or (operator == "==") != runs:
            return None
        sides = [bare.child_by_field_name("left"), bare.child_by_field_name("right")]
        calls = [side for side in sides if side is not None and side.type == "call_expression"]
        info = self.resolver.callee(file, calls[0]) if len(calls) == 1 else None
        other = sides[1] if sides[0] in calls else sides[0]
        wanted = self.evaluator.value(file, other, env, 0) if other is not None and info is not None else None
        if info is None or not isinstance(wanted, Val) or wanted.origin:
            return None
        bindings = self.evaluator.call_bindings(file, calls[0], info, env, 0)
        texts = []
        for statement in return_statements(info.node):
            items = return_items(statement)
            given = self.evaluator.value(info.file, items[0], bindings, 1) if len(items) == 1 else None
            if not isinstance(given, Val):
                return None
            if given.value != wanted.value:
                continue
            guards = list(self.guards(info.file, statement, bindings))
            turned_on = [guard.text for guard in guards if guard.holds is False and guard.origin]
            if not turned_on or any(guard.holds is None for guard in guards):
                return None
            texts.append(all_given(turned_on))
        return either_given(texts) if texts else None

    def _any_one_given(self, file: GoFile, bare: tree_sitter.Node, env: dict[str, Value]) -> str | None:
        """`a != "" || b != "" || c`: any one of the settings turns the branch on; None for another condition."""
        parts = disjuncts(bare)
        if len(parts) < 2:
            return None
        origins = list(dict.fromkeys(found for part in parts if (found := self.evaluator.truth(file, part, env)[1])))
        return any_given(origins) if len(origins) > 1 else None

    def _all_turned_on(self, file: GoFile, bare: tree_sitter.Node, env: dict[str, Value]) -> str | None:
        """`a && b` of two settings off by default: each as it turns on (gravitee's `SkipAPIDefinition &&
        MatchAcrossRoutes`, both `os.Getenv(…) == "true"`: `A=true and B=true`); None where fewer than two
        settings are off, which the one setting's phrase says (with `_also_required`'s conditions on it)."""
        off = self._settings_holding(file, bare, env, holds=False)
        if len({origin for _, origin in off}) < 2:
            return None
        texts = [self._turned_on_by(file, part, env, origin) for part, origin in off]
        return all_given(list(dict.fromkeys(texts)))

    def _also_required(self, file: GoFile, bare: tree_sitter.Node, env: dict[str, Value], origin: str) -> str:
        """What else a conjunction wants of the setting that turns it on, beside being given: values it must
        not take (soperator's `ns != "" && ns != "*"`, `*` meaning every namespace) and substrings it must not
        hold (integreatly's `!strings.Contains(ns, "sandbox")`), as a phrase to append; "" for none."""
        parts = conjuncts(bare)
        wants = []
        for part in parts if len(parts) > 1 else ():
            if self.evaluator.truth(file, part, env)[1] != origin:
                continue
            tested = self._string_test(file, part)
            negated = part.type == "unary_expression" and parser.text(part.child_by_field_name("operator")) == "!"
            contained = _string_function_test(file, parser.named(part)[-1]) if negated else None
            if tested is not None and not tested[1]:
                wants.append(f"not {tested[0]}")
            elif contained is not None:
                wants.append(contained[1])
        return "".join(f" and {want}" for want in wants)

    def _compared_constant(self, file: GoFile, condition: tree_sitter.Node, env: dict[str, Value]) -> str | None:
        """The value an equality test of a setting wants where it is an integer constant the code names
        (`reportMode == AgentSendReports`, of an iota constant: `1`), or None: a literal (`len(names) == 0`)
        or a zero says nothing the setting's own phrase does not."""
        if condition.type != "binary_expression" or parser.text(condition.child_by_field_name("operator")) != "==":
            return None
        nodes = [condition.child_by_field_name(side) for side in ("left", "right")]
        sides = [(node, self.evaluator.value(file, node, env, 0)) for node in nodes if node is not None]
        settings = [node for node, side in sides if isinstance(side, Val) and side.origin]
        constants = [
            side
            for node, side in sides
            if isinstance(side, Val) and not side.origin and node.type in ("identifier", "selector_expression")
        ]
        if len(settings) != 1 or len(constants) != 1:
            return None
        wanted = constants[0].value
        return str(wanted) if type(wanted) is int and wanted != 0 and not constants[0].unseen else None

    def _any_turned_off(self, file: GoFile, bare: tree_sitter.Node, env: dict[str, Value]) -> str | None:
        """What turns a conjunction true by default false, where the branch needs it false: any one of its
        parts that holds by default, each as it turns false (the else of `if !standalone && cluster == ""`:
        `--standalone or --cluster-name is set`); None for another condition."""
        texts = [
            self._turned_on_by(file, part, env, origin, returns=True)
            for part, origin in self._settings_holding(file, bare, env, holds=True)
        ]
        return either_given(list(dict.fromkeys(texts))) if texts else None

    def _settings_holding(
        self, file: GoFile, bare: tree_sitter.Node, env: dict[str, Value], *, holds: bool
    ) -> list[tuple[tree_sitter.Node, str]]:
        """The parts of a conjunction of two or more that read a setting and are `holds` by default, each with
        its setting."""
        parts = conjuncts(bare)
        found = []
        for part in parts if len(parts) > 1 else ():
            truth, origin = self.evaluator.truth(file, part, env)
            if truth is holds and origin:
                found.append((part, origin))
        return found

    def _tested_text(
        self, file: GoFile, bare: tree_sitter.Node, origin: str, *, stripped: bool, runs: bool
    ) -> str | None:
        """The text of a string test that turns a branch on, where the condition is one (`runs`: the branch
        needs the test to hold; `stripped`: the condition was negated or parenthesized around `bare`)."""
        tested = self._string_test(file, bare) if stripped else _unequal_test(bare)
        if tested is not None:
            # `if !clusterScope` with `clusterScope := os.Getenv("NAMESPACE_SCOPE") != "true"` (modelmesh-serving):
            # the branch runs when the test, negated as many times, holds
            wanted, is_equality = tested
            return f"{origin}={wanted}" if is_equality == runs else f"{origin} is not {wanted}"
        contained = _string_function_test(file, bare)
        if contained is not None:  # `strings.Contains(ns, ",")`: a list of namespaces, not any value, turns it on
            holds, does_not = contained
            return f"{origin} {holds}" if runs else f"{origin} {does_not}"
        return None

    def _string_test(self, file: GoFile, node: tree_sitter.Node) -> tuple[str, bool] | None:
        """The string an `==` or `!=` test compares with, and whether it is `==`: of the node itself, or of the
        local boolean it names, declared as that test."""
        if node.type == "identifier" and (declaration := self.resolver.declaration(file, node)) is not None:
            node = declaration.value_node if declaration.value_node is not None else node
        operator = parser.text(node.child_by_field_name("operator")) if node.type == "binary_expression" else ""
        if operator not in ("==", "!="):
            return None
        sides = [node.child_by_field_name("right"), node.child_by_field_name("left")]
        # a literal, or a string constant the code names (modelmesh-serving's `!= TrueString`)
        wanted = _string_side(sides) or self._named_string(file, sides)
        return (wanted, operator == "==") if wanted else None

    def _named_string(self, file: GoFile, sides: list[tree_sitter.Node | None]) -> str | None:
        """The non-empty string a constant among a test's sides names (`TrueString`), where the other side is
        the setting."""
        for side in sides:
            if side is not None and side.type in ("identifier", "selector_expression"):
                value = self.evaluator.value(file, side, {}, 0)
                if isinstance(value, Val) and not value.origin and isinstance(value.value, str) and value.value:
                    return value.value
        return None

    def _compared_by_helper(self, file: GoFile, condition: tree_sitter.Node, index: int = 0) -> str | None:
        """The string a module function's one equality test wants, where it returns that test or false
        (`isControlPlane()` returning `val == "true"`), the test behind nil checks too (envoy gateway's
        `Deploy != nil && Deploy.Type != nil && *Deploy.Type == KubernetesDeployModeTypeGatewayNamespace`), as
        its result at `index`."""
        info = self.evaluator.resolver.callee(file, condition) if condition.type == "call_expression" else None
        returned = returned_values(info.node, index) if info is not None else []
        tests = [value for value in returned if parser.text(value) != "false"]
        if len(tests) == 1 and tests[0].type == "true":
            # its one `return true` (kubeflow notebooks' `return nil, true` under `else if value == "true" || …`)
            tests = [test] if (test := _returning_true_when(tests[0], chained=True)) is not None else []
        elif len(tests) != 1:
            # `if GetStrEnv(key, "false") == "true" { return true }; return defaultValue` (polyaxon's GetBoolEnv):
            # the test around its one `return true`, where no else may return another value
            trues = [value for value in tests if value.type == "true"]
            test = _returning_true_when(trues[0]) if len(trues) == 1 else None
            tests = [test] if test is not None else []
        if len(tests) != 1 or info is None:
            return None
        held = info.file
        return _compared_part(tests[0], lambda part: _compared_to(part) or self._string_constant_wanted(held, part))

    def _compared_by_variable(self, file: GoFile, condition: tree_sitter.Node) -> str | None:
        """The string the equality test a variable is declared with wants (moco's `debugController =
        os.Getenv("DEBUG_CONTROLLER") == "1"`), or the one test a field is written with (gravitee's
        `Config.EnableIngress = os.Getenv(EnableIngress) == TrueString`)."""
        written = self._writes(file, condition) or self._passed(file, condition)
        declaration = self.resolver.declaration(file, condition) if condition.type == "identifier" else None
        wanted = {self._compared_value(held_file, value, declaration) for held_file, value in written}
        return wanted.pop() if len(wanted) == 1 else None

    def _compared_value(self, file: GoFile, value: tree_sitter.Node, declaration: Declaration | None) -> str | None:
        """The string a variable's value compares with, or the call it is declared with (kubeflow notebooks'
        `err, sch := rwoPVCScheduling()`, whose `return nil, true` is under `value == "true" || …`) has its
        result compare with."""
        found = _compared_to(value) or self._string_constant_wanted(file, value)
        if found is None and declaration is not None and value == declaration.value_node:
            return self._compared_by_helper(file, value, declaration.value_index)
        return found

    def _passed(self, file: GoFile, name: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """What the deployed calls of a function pass as its parameter `name`, where each passes a local declared
        with a value or a value written out (hypershift's `setupSchedulers(mgr, enableSizeTagging)` of
        `enableSizeTagging := os.Getenv("ENABLE_SIZE_TAGGING") == "1"`); none otherwise."""
        declaration = self.resolver.declaration(file, name) if name.type == "identifier" else None
        parameter = self.resolver.parameter_of(file, name, declaration) if declaration is not None else None
        if parameter is None:
            return []
        info, index = parameter
        passed = []
        for caller_file, call in self.evaluator.calls.deployed_callers(info.key):
            arguments = parser.named(call.child_by_field_name("arguments") or call)
            argument = arguments[index] if index < len(arguments) else None
            held = self.resolver.held_value(caller_file, argument) if argument is not None else None
            if argument is None or (argument.type == "identifier" and held is None):
                return []
            passed.append(held or (caller_file, argument))
        return passed

    def _writes(self, file: GoFile, setting: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The values a variable (where it is declared) or a struct field (wherever it is written) is given."""
        if setting.type not in ("identifier", "selector_expression"):
            return []
        held = self.resolver.held_value(file, setting)
        if held is None and setting.type == "identifier":
            return self._later_writes(file, setting)
        if held is not None or setting.type != "selector_expression":
            return [held] if held is not None else []
        operand = setting.child_by_field_name("operand")
        # an anonymous struct's field (`var Config = struct{…}{}`) is matched by name
        owner = self.resolver.written_struct(file, operand) if operand is not None else None
        return list(self.evaluator.fields.stored(owner, parser.text(setting.child_by_field_name("field"))))

    def _later_writes(self, file: GoFile, name: tree_sitter.Node) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The values a local declared without one is given later in its function (multicluster-observability's
        `var install bool; if v := os.Getenv("INSTALL_PROM"); v != "" { install, _ = strconv.ParseBool(v) }`);
        a parameter's are its callers', not told here."""
        declaration = self.resolver.declaration(file, name)
        if declaration is None or declaration.parameter_index >= 0:
            return []
        return [(file, value) for value in self.resolver.reassigned(file, name, declaration, results=True)]

    def _string_constant_wanted(self, file: GoFile, test: tree_sitter.Node) -> str | None:
        """The string an `==` test wants where one side is a string constant the code names (`TrueString`)."""
        if test.type != "binary_expression" or parser.text(test.child_by_field_name("operator")) != "==":
            return None
        return self._named_string(file, [test.child_by_field_name("right"), test.child_by_field_name("left")])

    def _boolean_text(
        self, file: GoFile, bare: tree_sitter.Node, value: Value, origin: str, *, runs: bool
    ) -> str | None:
        """`--x=false` for a boolean setting true by default, which the branch needs turned off; `X=true` for
        an environment variable's boolean false by default (`env:"SCANNER_ENABLED" envDefault:"false"`), which
        "is non-empty" would not say; None for another condition."""
        if not isinstance(value, Val) or value.origin != origin:
            return None
        default = self._default_of(origin, file)
        # an environment variable's boolean (env tags) has no default to look up: the variable read is it; a
        # configuration file's field only where the condition reads it, not a boolean computed from it (vcluster's
        # `isHostMode`, true unless `Standalone.Enabled` is: that setting turns it off by being set)
        if value.value is True and (
            default is True
            or (default is None and self._reads_boolean(file, bare) and self._reads_it(file, bare, origin))
        ):
            return self._turned(origin, False)
        # a field an env tag fills (`cfg.ScannerEnabled`), not one computed from the variable (`os.Getenv(…) != ""`)
        # nor whether it is there (`_, found := os.LookupEnv(…)`), which "is non-empty" says
        if runs and value.value is False and is_environment_name(origin):
            # the setting's writes parse it, or the condition does (kargo's `types.MustParseBool(os.GetEnv(X, …))`)
            if self._tagged_field(bare, origin) or self._parses_boolean(file, bare) or self._parsed_boolean(file, bare):
                return f"{origin}=true"
            # `tlsEnabled := os.Getenv("SB_TLS_SERVE") == "1"` (simplyblock): set to that value, not to any
            wanted = self._compared_setting(file, bare)
            return f"{origin}={wanted}" if wanted is not None else None
        return None

    def _compared_setting(self, file: GoFile, bare: tree_sitter.Node) -> str | None:
        """The string every write of a boolean setting compares its variable to (`os.Getenv("X") == "1"`,
        `strings.EqualFold(v, "true")`, also beside a test that it is there: aerospike's `found &&
        strings.EqualFold(enable, "true")`); None where one write is another test, or they want different
        strings."""
        wanted = {_compared_part(value) if value is not None else None for _, value in self._written_values(file, bare)}
        return wanted.pop() if len(wanted) == 1 else None

    def _parses_boolean(self, file: GoFile, bare: tree_sitter.Node) -> bool:
        """Whether every write of a setting parses it as a boolean: `strconv.ParseBool(…)`, or a module helper
        returning what that gives (weka's `getBoolEnvOrDefault("ENABLE_CLUSTER_API", false)`)."""
        written = self._written_values(file, bare)
        return bool(written) and all(value is not None and self._parsed_boolean(held, value) for held, value in written)

    def _written_values(
        self, file: GoFile, setting: tree_sitter.Node, hops: int = 2
    ) -> list[tuple[GoFile, tree_sitter.Node | None]]:
        """The values the writes of a setting give it, through at most `hops` variables or fields holding
        another's value (`enable := cfg.EnableClusterApi`); None for a chain that ends in a name still, or in a
        name nothing writes; for a module function's call, those of what it returns (aerospike's
        `ew.isWebhookEnabled()`, returning `ew.Enable`)."""
        found: list[tuple[GoFile, tree_sitter.Node | None]] = []
        if setting.type == "call_expression":
            info = self.resolver.callee(file, setting)
            if info is None or hops <= 0:
                return found
            for value in returned_values(info.node):
                found.extend(self._written_values(info.file, value, hops - 1) or [(info.file, None)])
            return found
        for held, value in self._writes(file, setting):
            if value.type not in ("identifier", "selector_expression"):
                found.append((held, value))
            elif hops > 0:
                found.extend(self._written_values(held, value, hops - 1) or [(held, None)])
            else:
                found.append((held, None))
        return found

    def _parsed_boolean(self, file: GoFile, value: tree_sitter.Node, hops: int = 2) -> bool:
        """Whether a call parses a boolean or tests a string for "true", itself or in a helper it returns, alone
        or in a conjunction (humio's `TLSEnabled` returning `UseCertManager() && *tls.Enabled`)."""
        if value.type != "call_expression":
            return False
        if _parses_boolean_call(value):
            return True
        info = self.resolver.callee(file, value)
        if info is None:
            return False
        for returned in returned_values(info.node):
            declaration = self.resolver.declaration(info.file, returned) if returned.type == "identifier" else None
            parsed = declaration.value_node if declaration is not None else returned
            if parsed is None:
                continue
            if _parses_boolean_call(parsed) or self._tests_true(info.file, parsed):
                return True
            if hops and any(self._parsed_boolean(info.file, part, hops - 1) for part in conjuncts(parsed)):
                return True
        return False

    def _tests_true(self, file: GoFile, test: tree_sitter.Node) -> bool:
        """Whether a helper's returned value tests its string for "true" (dash0's `strings.ToLower(raw) ==
        envVarValueTrue`): the setting is a boolean, turned on by that value rather than by any."""
        wanted = _compared_to(test) or self._string_constant_wanted(file, test)
        return wanted is not None and wanted.lower() == "true"

    def _tagged_field(self, bare: tree_sitter.Node, variable: str) -> bool:
        """Whether a condition reads a struct field an env tag fills from `variable` (`env:"X"`, envconfig)."""
        field = bare.child_by_field_name("field") if bare.type == "selector_expression" else None
        entries = self.evaluator.flags.env_by_field.get(parser.text(field), []) if field is not None else []
        return any(tag.variable == variable for _, tag in entries)

    def _reads_boolean(self, file: GoFile, condition: tree_sitter.Node) -> bool:
        """Whether a condition is a boolean as it is stored (`cfg.ClusterWide`), or a module function returning
        one so (`conf.AllNamespacesAccessible()` returning `c.Deployment.ClusterWideAccess`): true then means
        the setting is true, not that a test of it passed."""
        if condition.type in _BOOLEAN_READS:
            return True
        info = self.resolver.callee(file, condition) if condition.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else []
        return bool(returned) and all(value.type in _BOOLEAN_READS for value in returned)

    def _reads_it(self, file: GoFile, read: tree_sitter.Node, origin: str) -> bool:
        """Whether a boolean read may be the setting itself: any but a configuration file's field, which only a
        read of that field is, in place or returned by a method (`c.Access.ClusterWide`), not a boolean computed
        from it (vcluster's `isHostMode`, true unless `Standalone.Enabled` is: that setting turns it off by
        being set)."""
        if not origin.endswith(FROM_FILE):
            return True
        info = self.resolver.callee(file, read) if read.type == "call_expression" else None
        returned = returned_values(info.node) if info is not None else [read]
        return bool(returned) and all(_names(value, origin) for value in returned)

    def set_text(self, origin: str, near: GoFile | None = None) -> str:
        """How a condition that a setting turns on reads: `--all-namespaces=false` for a flag true by default,
        `--namespace is set` otherwise; `near`: where the condition is, for a flag several binaries define."""
        parts = origin.split(" or ")  # any of several settings turns it on (`!allNamespaces || extra != ""`)
        gates = self.evaluator.settings.gate_named
        if len(parts) > 1 and any(self._default_of(part, near) is True or gates(part) for part in parts):
            return " or ".join(self.set_text(part, near) for part in parts)
        if gates(origin) is not None:  # `--feature-gates X=true`
            return self._turned(origin, self._default_of(origin, near) is not True)
        default = self._default_of(origin, near)
        if isinstance(default, list) and any(default) and all(isinstance(item, str) for item in default):
            # a list flag the program reads with a default (`--controllers=*,-sharding-controller`) is set already
            return f"{origin} differs from its default {','.join(default)}"
        return f"{origin}=false" if default is True else given(origin)

    def _turned(self, origin: str, value: bool) -> str:
        """A boolean setting given a value: `--x=false`, a feature gate as the gates are written
        (`FeatureGates InPlaceRestart=true (configuration file)`)."""
        if (gate := self.evaluator.settings.gate_named(origin)) is not None:
            return self.evaluator.settings.gate_setting(gate, value)
        return f"{origin}={str(value).lower()}"

    def _default_of(self, origin: str, near: GoFile | None = None) -> object:
        """The default value of the flag or feature gate an origin names (None when it names neither); of
        flags of one name in several binaries, the one defined nearest `near`."""
        if (gate := self.evaluator.settings.gate_named(origin)) is not None:
            return self.evaluator.settings.feature_gates()[gate]
        flag = self.evaluator.flags.named(origin.removeprefix("--"), near) if origin.startswith("--") else None
        value = self.evaluator.settings.flag_value(flag, 0) if flag is not None else None
        return value.value if isinstance(value, Val) else None

    def _early_return_conditions(self, file: GoFile, statements: tree_sitter.Node) -> list[tree_sitter.Node]:
        """The conditions of a statement list's early returns that `_early_returns` may count, found once
        per list: every site and restriction below the list asks for them."""
        key = (file.path, statements.start_byte)
        conditions = self._early_return_lists.get(key)
        if conditions is None:
            conditions = []
            function = innermost_function(statements)
            # a branch that ends failing anyway (`if err != nil { if !verbose { return err }; …; return err }`)
            # fails on either path: its early returns that fail tell which of its statements run
            kept = parser.named(statements)
            last = kept[-1] if kept else None
            block = statements.parent if statements.type == "statement_list" else statements
            branch = block is not None and block.parent is not None and block.parent.type == "if_statement"
            ends_failing = branch and last is not None and last.type == "return_statement" and returns_failure(last)
            # a reconciler's error only requeues its request: the deployment goes on without what follows
            fails = (
                function is not None and returns_error(function) and not ends_failing and not _requeues(file, function)
            )
            for statement in statements.named_children:
                condition = statement.child_by_field_name("condition") if statement.type == "if_statement" else None
                returned = early_return(statement) if condition is not None else None
                # an early return that fails is passed over: the default deployment does not fail
                failure = returned is not None and returned.type == "return_statement" and returns_failure(returned)
                if condition is not None and returned is not None and not (fails and failure):
                    # `if cfg == nil || cfg.Defaults == nil { return }`: one true part returns alone
                    parts = disjuncts(condition)
                    conditions.extend(part for part in parts if _reads_variables_only(part))
            self._early_return_lists[key] = conditions
        return conditions

    def _filled_by_a_flag(self, file: GoFile, tag: tree_sitter.Node) -> bool:
        """Whether a switch's tag is what a flag fills (`conf.Vtype` of `flag.StringVar(&conf.Vtype, "type", …)`),
        not a value computed from one: the cases then name the flag's values."""
        flags = self.evaluator.flags
        if tag.type == "unary_expression":  # `*driverType` of `driverType := flag.String(…)`
            tag = tag.child_by_field_name("operand") or tag
        if tag.type == "selector_expression":
            return parser.text(tag.child_by_field_name("field")) in flags.by_field
        if tag.type != "identifier":
            return False
        held = any(parser.text(tag) in names for names in flags.pointers.values())  # `*mode` of `flag.String`
        return held or variable_key(file, tag, self.evaluator.resolver) in flags.by_variable

    def _case_values(self, file: GoFile, case: tree_sitter.Node, env: dict[str, Value]) -> str:
        """The strings a case names, as a setting is given them (`"controller"` for `case controllerType:`);
        "" where one is not a string the code shows."""
        named = case.child_by_field_name("value")
        values = [self.evaluator.value(file, item, env, 0) for item in parser.named(named)] if named else []
        strings = [value.value for value in values if isinstance(value, Val) and isinstance(value.value, str)]
        return ", ".join(f'"{value}"' for value in strings) if values and len(strings) == len(values) else ""

    def _only_case_running(self, file: GoFile, case: tree_sitter.Node) -> bool:
        """Whether every other case of a switch with a default ends the program (`switch { case ns != "": …;
        default: os.Exit(2) }`): a deployment that runs takes this one, as the arm of an `if` whose else fails."""
        switch = case.parent
        cases = [c for c in switch.named_children if c.type in _CASES] if switch is not None else []
        return (
            any(c.type == "default_case" for c in cases)
            and len(cases) > 1
            and all(self.surely_fails(file, other) for other in cases if other != case)
        )

    def _case_guard(self, file: GoFile, case: tree_sitter.Node, env: dict[str, Value]) -> Guard:
        switch = case.parent
        while switch is not None and switch.type != "expression_switch_statement":
            switch = switch.parent
        span = file.span(case.child(0) or case)
        if switch is None:
            return Guard(None, "a case", span)
        tag = switch.child_by_field_name("value")
        tag_value = self.evaluator.value(file, tag, env, 0) if tag is not None else Val(True)
        if case.type == "default_case":
            others = [c for c in switch.named_children if c.type == "expression_case"]
            outcomes = [self._case_matches(file, c, tag_value, env) for c in others]
            holds = None if None in outcomes else not any(outcomes)
            return Guard(holds, f"no other case of `switch {parser.text(tag)}` matches", span)
        holds = self._case_matches(file, case, tag_value, env)
        tested = " ".join(parser.text(case.child_by_field_name("value") or case).split())
        text = tested[:60]
        origin = tag_value.origin if isinstance(tag_value, Val) else ""
        if origin and tag is not None:  # the case is chosen by configuration: name it (SPEC §1)
            shown = self._case_values(file, case, env) if self._filled_by_a_flag(file, tag) else ""
            return Guard(holds, f"{origin} selects {shown or text}", span, origin)
        if tag is None:  # `switch { case targets == "": … }`: each case is a condition of its own
            values = parser.named(case.child_by_field_name("value") or case)
            origin = next((found for item in values if (found := self.evaluator.truth(file, item, env)[1])), "")
            if origin and holds is False:
                return Guard(holds, self._turned_on_by(file, values[0], env, origin), span, origin, tested=tested)
        return Guard(holds, text, span, origin)

    def _type_case_guard(self, file: GoFile, case: tree_sitter.Node, env: dict[str, Value]) -> Iterator[Guard]:
        """A case of `switch x := v.(type)` naming types, where v holds nil by default (an interface a setting
        fills only when given): no such case runs; nothing is told of the others."""
        switch = case.parent
        switched = switch.child_by_field_name("value") if switch is not None else None
        types = [parser.text(item) for item in case.children_by_field_name("type")]
        if switched is None or not types or "nil" in types:
            return
        value = self.evaluator.value(file, switched, env, 0)
        if isinstance(value, Val) and value.value is None and not value.unseen:
            text = self.set_text(value.origin, file) if value.origin else f"`{parser.text(switched)}` is not nil"
            yield Guard(False, text, file.span(case.child(0) or case), value.origin)

    def _case_matches(self, file: GoFile, case: tree_sitter.Node, tag: Value, env: dict[str, Value]) -> bool | None:
        values = case.child_by_field_name("value")
        if values is None or not isinstance(tag, Val):
            return None
        results = []
        for item in parser.named(values):
            value = self.evaluator.value(file, item, env, 0)
            if not isinstance(value, Val):
                return None
            results.append(value.value == tag.value)
        return any(results)

    def _loop_guard(self, file: GoFile, loop: tree_sitter.Node, env: dict[str, Value]) -> Guard:
        clause = next((child for child in loop.named_children if child.type == "range_clause"), None)
        span = file.span(clause if clause is not None else loop)
        if clause is None:
            return Guard(None, "a loop", span)
        ranged = clause.child_by_field_name("right")
        text = " ".join(parser.text(ranged).split())
        body = ranged.child_by_field_name("body") if ranged is not None and ranged.type == "composite_literal" else None
        if body is not None:  # `range []string{namespace}`: as many rounds as items, whatever they hold
            return Guard(bool(parser.named(body)), f"`{text}` is not empty", span)
        value = self.evaluator.value(file, ranged, env, 0)
        if isinstance(value, Val) and isinstance(value.value, list | dict | str | tuple | None):
            # `[""]` runs once (every namespace): what the loop does with its item decides, not the loop
            items = value.value or ()
            return Guard(len(items) > 0, _set_text(value.origin or text), span)
        return Guard(None, f"`{text}` is not empty", span)

    def _enabled_beside(self, file: GoFile, construction: tree_sitter.Node) -> Guard | None:
        """A controller built as a field of a registry entry that says whether it runs (`[]Def{{Enabled:
        c.ServiceEnabled, Controller: &R{…}}}`, set up only `if d.Enabled`), also inside a wrapper the entry
        builds (kong's dynamic CRD controllers): that field, as a guard."""
        if construction.type != "composite_literal":
            return None
        value, entry = None, holding_literal(construction)
        # up through the wrappers it is built in (`{Enabled: …, Controller: &Dynamic{Controller: &R{…}}}`)
        for _ in range(_WRAPPERS):
            if entry is None or value is not None:
                break
            value = next((node for key, node in keyed_elements(entry) if key in _ENABLED_FIELDS), None)
            entry = holding_literal(entry)
        if value is None:
            return None
        # the parameters of the function building the entries bound to what its calls pass (Kong's
        # `featureGates.Enabled(…)` of the gates its setupControllers is given)
        env = self.evaluator.parameters(file, value)
        truth, origin = self.evaluator.truth(file, value, env)
        if truth is not False:
            return None
        text = self._turned_on_by(file, value, env, origin) if origin else f"`{parser.text(value)}` is true"
        return Guard(False, text, file.span(value), origin)

    def _given_back_when(self, file: GoFile, value: tree_sitter.Node) -> Guard | None:
        """A function handed to a module function that gives it back only under a condition on its other
        parameters, and a zero value otherwise (a generic `enabled(on bool, fn T) T { if on { return fn }; var
        none T; return none }` over each syncer's constructor): the guards of that return, the parameters bound to
        what this call passes, where they keep it off by default; not where they read a configuration file."""
        arguments = value.parent
        call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
        info = self.resolver.callee(file, call) if call is not None else None
        if info is None or arguments is None or call is None:
            return None
        parameter = info.parameter_at(parser.position_in(arguments, value), variadic=False)
        returns = return_statements(info.node)
        given_back = [statement for statement in returns if _returns_name(statement, parameter)]
        others = [statement for statement in returns if statement not in given_back]
        if (
            parameter is None
            or len(given_back) != 1
            or not all(_returns_zero(info.file, s, self.resolver) for s in others)
        ):
            return None
        env = {item.name: self.evaluator.argument(file, call, item.index, 0) for item in info.parameters if item.name}
        guards = list(self.guards(info.file, given_back[0], env))
        if any(guard.origin.endswith(FROM_FILE) for guard in guards):
            # such helpers enable what a configuration file lists, whose defaults often come from a file embedded in
            # the binary (vcluster's values.yaml syncs Pods by default): a field's zero value is no default there
            return None
        combined = combine(guards)
        if combined is None or combined.holds_by_default is not False:
            return None
        return Guard(False, combined.text, combined.span)

    def _caller_guards(self, file: GoFile, node: tree_sitter.Node, levels: int = CALLER_LEVELS) -> list[Guard]:
        """When a node sits in a helper, the guards around the helper's calls decide for it, and where a
        call is not guarded, those around the calls of the function making it (up to `levels` calls up):
        a feature gate usually guards the entry of a chain of helpers, not the read at its end."""
        key = self.resolver.function_key(file, node)
        info = self.resolver.declarations.functions.get(key) if key is not None else None
        if info is None or info.key.name == "main":
            return []
        # a cycle of calls is taken as a call that may run
        return self.evaluator.once(
            ("callers-off", info.key, levels), lambda: self._off_at_every_call(info.key, levels), []
        )

    def _deployed_calls(self, key: FunctionKey) -> list[tuple[GoFile, tree_sitter.Node]]:
        """The deployed calls of a function, and where it has some, the other places that run it alike."""
        graph = self.evaluator.calls
        calls = graph.deployed_callers(key)
        if calls and key.receiver:
            # a method called by name runs too where the module calls it through an interface (medik8s' certificate
            # storage, read by the manager's reconciler under --is-manager and by the agents through a reader
            # interface)
            calls = calls + graph.deployed(key, graph.dispatched_callers(key))
        if calls and not key.receiver:
            # the loops over a list it is in call it too (provider-kafka's `for _, setup := range
            # []func(…){acl.Setup, …}` beside the SetupGated nothing calls), which its listings stand for
            return calls + graph.deployed(key, graph.called_from_lists(key))
        if calls and self._framework_called(key):
            # controller-runtime calls a reconciler's Reconcile wherever it is built, besides the module's own
            # calls (envoy gateway's offline reconciler calls the one its Kubernetes provider also builds), and a
            # webhook's methods where it is registered
            if key.name in WEBHOOK_CALLED:
                return calls + graph.deployed(key, graph.registrations(key))
            return calls + graph.deployed(key, graph.constructions(key))
        return calls

    def _off_at_every_call(self, key: FunctionKey, levels: int) -> list[Guard]:
        """The first guard that keeps one call of a function off by default, when every call is kept off;
        none when one call may run."""
        graph = self.evaluator.calls
        calls = self._deployed_calls(key)
        if not calls and not key.receiver:
            # a function no call names runs only where it is handed on: where every place that hands it on is off
            # by default (`registry["status"] = status.New` under a feature gate), so is it
            handed = graph.deployed(key, graph.references(key))
            if handed and (off := self._off_at_each(iter(handed), levels)):
                return off
            # else it runs through a struct field or a list it is stored in (`r.newClient = newClient; …;
            # r.newClient(…)`): those calls decide, then the places it is stored, but for the listings whose
            # loops are among those calls (an init appending it to a registry)
            calls = graph.deployed(key, graph.called_as_values(key))
            if not calls and not handed and (leftover := graph.leftover(key)) is not None:
                by_tests = "only tests call it" if graph.callers(key) else "no code outside tests calls it"
                name = leftover.node.child_by_field_name("name")
                return [Guard(False, f"{key.name} is called ({by_tests})", leftover.file.span(name or leftover.node))]
        if calls or not key.receiver:
            listed = graph.listed_where_called(key)

            def stored() -> list[tuple[GoFile, tree_sitter.Node]]:
                handed = graph.deployed(key, graph.references(key))
                return [(file, node) for file, node in handed if (file.path, node.start_byte) not in listed]

            return self._off_at_each(_then(calls, stored), levels, key)
        # A method no call names runs where the module hands it on as a value (a map function given to a watch
        # set up in one mode only); else where its value is built (Reconcile, which controller-runtime calls)
        # and, where the module calls it through an interface (a mockable `Interface` field), where those run.
        values = graph.deployed(key, graph.method_values(key))
        if values:
            return self._off_at_each(iter(values), levels)
        callers = graph.interface_callers(key)
        through = graph.deployed(key, callers) if callers else []
        # a value its own methods build (doris' `Init` registering `(&T{Client: mgr.GetClient()})`) exists only
        # where one of them already runs: the other constructions decide
        built = graph.deployed(key, graph.constructions(key))
        own = [
            (file, node)
            for file, node in built
            if _built_by_its_own_method(self.resolver.function_key(file, node), key)
        ]
        if own and not graph.made_without_a_literal(key):  # else a zero value may be the first of them
            built = [place for place in built if place not in own]
        # a reconciler no code builds (scaffolded, never registered) runs nowhere; other types the module may
        # build in ways not followed
        reconciles = self._framework_called(FunctionKey(key.package, key.receiver, "Reconcile"))
        if not through and not built and reconciles and (nowhere := graph.built_nowhere(key)) is not None:
            file, name = nowhere
            return [Guard(False, f"a {key.receiver} is built (no code of the module builds one)", file.span(name))]
        if self._framework_called(key):
            # controller-runtime calls a Reconcile where it is both built and given to a builder (each keeping it
            # off decides), besides the module's calls through an interface (mongodb's dry run calling the
            # reconcilers its manager also runs)
            registered = graph.deployed(key, graph.registrations(key))
            off = self._off_at_each(iter([*through, *registered]), levels) if registered else []
            return off or self._off_at_each(iter([*through, *built]), levels)
        off = self._off_at_each(iter(through), levels, key) if through else []
        return off or self._off_at_each(iter(built), levels)

    def _kept_off(
        self, file: GoFile, call: tree_sitter.Node, levels: int, reached: FunctionKey | None, outcomes: list[Guard]
    ) -> bool:
        """Whether a guard keeps a call from running by default, around it or around the calls of its function;
        that guard is added to `outcomes`."""
        beside = [self._enabled_beside(file, call), self._given_back_when(file, call)]
        env = self.evaluator.parameters(file, call)  # `if mode == "sso"` on a parameter fed by a flag
        if reached is not None and reached.receiver:
            env = self._holding_the_receiver(file, call, env, reached)
        guards = [*self.guards(file, call, env), *(guard for guard in beside if guard)]
        combined = combine(guards)
        by_a_setting = any(
            guard.holds is False and guard.origin and not self._names_its_field(guard) for guard in guards
        )
        above = self._caller_guards(file, call, levels - 1) if levels > 1 and not by_a_setting else []
        if combined is not None and combined.holds_by_default is False:
            # a guard the code decides (kubeblocks' loop over rules, nil by default only because the function
            # filling them runs under --trace) gives way to a setting keeping the call off further up
            chosen = above[0] if above and above[0].origin else None
            outcomes.append(chosen or Guard(False, combined.text, combined.span, combined.origin))
            return True
        if above:
            outcomes.append(above[0])
        return bool(above)

    def _names_its_field(self, guard: Guard) -> bool:
        """Whether a guard is named only by the field it reads (`if m.enableMountManager`): a field no setting
        fills, whose value the code decides (juicefs' mount manager, false only because the write setting it true
        runs under a setting off by default further up), not a setting of its own (a viper key named alike)."""
        origin = guard.origin
        # the field read alone (`r.syncer`, `!m.enableMountManager`): a test of a setting beside it names that too
        tested = re.sub(r"\s*(?:==\s*true|!=\s*false)$", "", guard.tested.lstrip("!( ").rstrip(") "))
        named = origin.isidentifier() and re.fullmatch(rf"[\w.]*\.{re.escape(origin)}", tested) is not None
        return named and not self.evaluator.settings.names_a_viper_key(origin)

    def _holding_the_receiver(
        self, file: GoFile, call: tree_sitter.Node, env: dict[str, Value], reached: FunctionKey
    ) -> dict[str, Value]:
        """The bindings a call's guards read, where the call goes through an interface to the method reached:
        the interface variable holds a value of the method's type there (volcano's `if !isControllerEnabled(
        c.Name(), …) { return }; c.Initialize(opt)` runs the sharding controller's Initialize only where `c`
        names it)."""
        function = call.child_by_field_name("function") if call.type == "call_expression" else None
        operand = (
            function.child_by_field_name("operand") if function and function.type == "selector_expression" else None
        )
        if operand is None or operand.type != "identifier" or self.resolver.callee(file, call) is not None:
            return env
        if self.evaluator.calls.methods.embedding(TypeRef(reached.package, reached.receiver)):
            return env  # the method may be promoted to a struct embedding its type, whose other methods are its own
        return _Overlaid(env, {parser.text(operand): Val(Implementation(reached.package, reached.receiver))})

    def _framework_called(self, key: FunctionKey) -> bool:
        """A method controller-runtime calls on the values the module builds: `Reconcile(ctx, req)` (not another
        framework's Reconcile of its own signature, kubeblocks' `Reconcile(tree)`), and a webhook's Default or
        Validate methods on the values a webhook builder is given."""
        if key.name in WEBHOOK_CALLED:
            return bool(key.receiver) and bool(self.evaluator.calls.registrations(key))
        info = self.resolver.declarations.functions.get(key)
        parameters = info.parameters if info is not None else ()
        request = parameters[1].type if len(parameters) == 2 else None
        return key.name in _FRAMEWORK_CALLED and request is not None and request.name == "Request"

    def off_at_every_place(self, places: list[tuple[GoFile, tree_sitter.Node]]) -> Condition | None:
        """The condition false by default that keeps each of these places (and the calls reaching them) from
        running; None when one may run, or when there are none."""
        off = self._off_at_each(iter(places), CALLER_LEVELS)
        return Condition(off[0].text, off[0].span, False) if off else None

    def _off_at_each(
        self, calls: Iterator[tuple[GoFile, tree_sitter.Node]], levels: int, reached: FunctionKey | None = None
    ) -> list[Guard]:
        """The first guard keeping one of the calls (or constructions) off, when each is kept off; none when one
        may run, or when there are none. `reached`: the method the calls run, which a call through an interface
        runs only where the interface holds a value of its type."""
        outcomes: list[Guard] = []
        test_support: list[tuple[GoFile, tree_sitter.Node]] = []
        for caller_file, call in calls:
            if not self.evaluator.in_a_binary(caller_file.package_path):
                # a package no binary imports runs nothing (OCM's leftover registry appending a controller's Add
                # in its init, beside the one main calls under --cluster-name)
                continue
            if self.evaluator.calls.serves_tests(caller_file):
                # a helper of a file named as test support that only tests call (volcano's sharding
                # `newTestShardingController`, beside the controller): the calls binaries make decide, and where
                # there are none, what keeps this one from running says why
                test_support.append((caller_file, call))
                continue
            if not self._kept_off(caller_file, call, levels, reached, outcomes):
                return []  # one call that may run is enough
        if not outcomes:
            for caller_file, call in test_support:
                if not self._kept_off(caller_file, call, levels, reached, outcomes):
                    return []
        # it runs where any place does: the guard with the fewest conditions is what turns it on (security-
        # profiles-operator builds the SELinux reconciler under --with-selinux, and again under --with-raw-selinux
        # nested in it)
        return sorted(outcomes, key=lambda guard: guard.text.count(" and "))[:1]


def _built_by_its_own_method(builder: FunctionKey | None, method: FunctionKey) -> bool:
    """Whether a construction of a method's type is made in a method of that very type."""
    return builder is not None and builder.receiver == method.receiver and builder.package == method.package


class _Overlaid(dict[str, Value]):
    """Bindings of a function's parameters with some of them bound otherwise: the rest read through."""

    def __init__(self, under: dict[str, Value], over: dict[str, Value]) -> None:
        super().__init__(over)
        self._under = under

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or name in self._under

    def __missing__(self, name: str) -> Value:
        return self._under[name]


def _returning_true_when(value: tree_sitter.Node, *, chained: bool = False) -> tree_sitter.Node | None:
    """The condition of the `if` whose body returns `true` (the value), alone or among other results (`return
    nil, true`), where it has no else, or with `chained` (the function's one `return true`) an else too; not in
    a loop, whose tests read what the loop derives (an item of `strings.Split(os.Getenv(…), ",")`)."""
    statement = value.parent.parent if value.type == "true" and value.parent is not None else None
    block = statement.parent if statement is not None and statement.type == "return_statement" else None
    block = block.parent if block is not None and block.type == "statement_list" else block
    test = block.parent if block is not None and block.type == "block" else None
    if test is None or test.type != "if_statement" or test.child_by_field_name("consequence") != block:
        return None
    if not chained and test.child_by_field_name("alternative") is not None:
        return None
    current = test.parent
    while current is not None and current.type not in FUNCTIONS:
        if current.type == "for_statement":
            return None
        current = current.parent
    return test.child_by_field_name("condition")


_SHOWN_CONDITION = 48  # the longest condition a note shows whole
_ENABLED_FIELDS = frozenset({"Enabled", "Enable", "IsEnabled"})
_WRAPPERS = 3  # literals a controller may be built in, inside the registry entry that enables it
_FRAMEWORK_CALLED = frozenset({"Reconcile"})  # methods a library calls on the values the module builds


def _returns_name(statement: tree_sitter.Node, parameter: Parameter | None) -> bool:
    """Whether a return statement gives back the parameter alone (`return fn`)."""
    items = return_items(statement)
    return (
        parameter is not None
        and len(items) == 1
        and items[0].type == "identifier"
        and parser.text(items[0]) == parameter.name
    )


def _returns_zero(file: GoFile, statement: tree_sitter.Node, resolver: Resolver) -> bool:
    """Whether a return statement gives back nothing usable: `nil`, or a local declared without a value (`var ret
    T; return ret`)."""
    items = return_items(statement)
    if len(items) != 1:
        return False
    if parser.text(items[0]) == "nil":
        return True
    declaration = resolver.declaration(file, items[0]) if items[0].type == "identifier" else None
    return (
        declaration is not None
        and declaration.value_node is None
        and declaration.parameter_index < 0
        and declaration.ranged_node is None
        and declaration.node.parent is not None
        and declaration.node.parent.type == "var_spec"
    )


def _then(
    calls: list[tuple[GoFile, tree_sitter.Node]], more: Callable[[], list[tuple[GoFile, tree_sitter.Node]]]
) -> Iterator[tuple[GoFile, tree_sitter.Node]]:
    """The calls, then, where every one is off by default, the places a function is handed on as a value
    (`NewManager: reaper.NewManager`): whoever is given it may call it. Found only when needed: none are
    wanted where no call is seen (the function may run) or one call may run."""
    yield from calls
    if calls:
        yield from more()


def combine(guards: list[Guard]) -> Condition | None:
    """All guards must hold; those that fail name the condition (`--legacy-mode and --extra-namespace are
    set` for a write nested in the two), else the first that cannot be told."""
    if not guards:
        return None
    failing = _one_per_setting([guard for guard in guards if guard.holds is False])
    if len(failing) == 1 or (failing and len({guard.text for guard in failing}) == 1):
        return Condition(failing[0].text, failing[0].span, False, failing[0].origin)
    if failing:
        texts = list(dict.fromkeys(guard.text for guard in reversed(failing)))  # outermost first
        return Condition(all_given(texts), failing[0].span, False)
    unknown = next((guard for guard in guards if guard.holds is None), None)
    if unknown is not None:
        return Condition(unknown.text, unknown.span, None)
    return None  # every guard holds: as good as unconditional


def _one_per_setting(failing: list[Guard]) -> list[Guard]:
    """The failing guards, one per setting: where two read the same one (humio's `!c.certManagerEnabled ||
    !TLSEnabled(…)`, both USE_CERTMANAGER), the one saying the value it wants (`USE_CERTMANAGER=true`) rather
    than "is non-empty"."""
    chosen: dict[str, Guard] = {}
    for guard in failing:
        held = chosen.get(guard.origin) if guard.origin else None
        if held is None:
            chosen[guard.origin or f"#{len(chosen)}"] = guard
        elif "=" in guard.text and "=" not in held.text:
            chosen[guard.origin] = guard
    return list(chosen.values())


def _names(read: tree_sitter.Node, origin: str) -> bool:
    """Whether a read of a field names a configuration file's field of the origin (`cfg.Standalone.Enabled` of
    `Standalone.Enabled (configuration file)`)."""
    field = read.child_by_field_name("field") if read.type == "selector_expression" else read
    last = origin.removesuffix(FROM_FILE).strip().rsplit(".", 1)[-1]
    return field is not None and parser.text(field).lower() == last.lower()


def _set_text(origin: str) -> str:
    return given(origin) if not origin.startswith("`") else f"{origin} is not empty"


def _guard_text(condition: tree_sitter.Node, origin: str, negated: bool) -> str:
    if origin:
        return given(origin, negated=negated)
    text = " ".join(parser.text(condition).split())
    text = text if len(text) <= 60 else text[:59] + "…"
    return f"`{text}` is {'false' if negated else 'true'}"


_STRING_TESTS = {
    "Contains": ("contains", "does not contain"),
    "HasPrefix": ("starts with", "does not start with"),
    "HasSuffix": ("ends with", "does not end with"),
}


def _string_function_test(file: GoFile, node: tree_sitter.Node) -> tuple[str, str] | None:
    """`strings.Contains(ns, ",")` and its kin testing a literal: the phrases for the test holding and not."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or function.type != "selector_expression":
        return None
    package = file.imports.get(parser.text(function.child_by_field_name("operand")))
    phrases = _STRING_TESTS.get(parser.text(function.child_by_field_name("field")))
    arguments = parser.named(node.child_by_field_name("arguments") or node)
    literal = (
        unquote(parser.text(arguments[1]))
        if len(arguments) == 2 and arguments[1].type.endswith("string_literal")
        else None
    )
    if package != "strings" or phrases is None or literal is None:
        return None
    return f'{phrases[0]} "{literal}"', f'{phrases[1]} "{literal}"'


def _reads_variables_only(condition: tree_sitter.Node) -> bool:
    """No error variable, and fields only of named values (`flags.Namespace`, `options.UntaintEnabled`,
    `cfg.Gates.Audit.Enabled`), not of what a call returns: a field of an API object evaluates to unknown
    (fields.py), so it never decides."""
    found = parser.captures("[(identifier) @name (selector_expression) @field]", condition)
    for selector in found.get("field", []):
        root = selector.child_by_field_name("operand")
        while root is not None and root.type == "selector_expression":
            root = root.child_by_field_name("operand")
        if root is None or root.type != "identifier":
            return False
    return not any(
        name.text in (b"err", b"error") or (name.text or b"").endswith(b"Err") for name in found.get("name", [])
    )


def _requeues(file: GoFile, function: tree_sitter.Node) -> bool:
    """Whether a function returns controller-runtime's reconcile result before its error (`(ctrl.Result,
    error)`): a reconciler, whose error controller-runtime logs and retries, the program going on."""
    result = function.child_by_field_name("result")
    declarations = parser.named(result) if result is not None and result.type == "parameter_list" else []
    first = declarations[0].child_by_field_name("type") if len(declarations) == 2 else None
    found = resolve_type(first, file) if first is not None else None
    return found is not None and found.is_(_RECONCILE_PACKAGES, "Result") and returns_error(function)


_RECONCILE_PACKAGES = frozenset({CONTROLLER_RUNTIME, f"{CONTROLLER_RUNTIME}/pkg/reconcile"})


def returns_error(function: tree_sitter.Node) -> bool:
    """Whether a function's last result is an `error`."""
    result = function.child_by_field_name("result")
    if result is not None and result.type == "parameter_list":
        declarations = parser.named(result)
        result = declarations[-1].child_by_field_name("type") if declarations else None
    return result is not None and parser.text(result) == "error"


def returned_on_success(function: tree_sitter.Node, index: int = 0) -> list[tree_sitter.Node]:
    """The value at `index` of each return of a function that does not fail: the `ctrl.Options{}` returned
    beside an error is thrown away by the caller."""
    statements = [s for s in return_statements(function) if not is_failing_return(s)]
    return [items[index] for s in statements if index < len(items := return_items(s))]


def block_fails(block: tree_sitter.Node | None) -> bool:
    """Whether a block ends failing: a failing return (`is_failing_return`), os.Exit, panic or a Fatal log call.
    The default deployment does not fail, so what it runs passes such a block by."""
    last = last_statement(block) if block is not None else None
    return is_failing_return(last) if last is not None and last.type == "return_statement" else ends_in_an_exit(last)


def _certain_error(statement: tree_sitter.Node) -> bool:
    """A return whose error is surely not nil: an error made there (`_makes_an_error`), a variable the block
    sets from such a call alone, or one the return sits under `if err != nil` of; not another call's result,
    which may well be nil (seldon's `return newPasswordStoreFromFile(opts)`, `err := check(); return err`)."""
    values = return_items(statement)
    error = values[-1] if values else None
    if error is None or error.type not in ("call_expression", "identifier"):
        return False
    if error.type == "call_expression":
        return _makes_an_error(error)
    name = parser.text(error)
    if in_nil_test(statement, name, is_nil=False):
        return True
    made = _assigned_call(statement, name)
    return made is not None and _makes_an_error(made)


_WRITING_STATEMENTS = ("short_var_declaration", "assignment_statement")
_CASES = ("expression_case", "default_case")
_CALLER_DEPTH = 3  # calls followed up from a function returning an error to where the program stops on it
_COMMAND_FUNCTIONS = frozenset({"RunE", "PreRunE", "PersistentPreRunE"})  # cobra fails the command on their error


def _error_assigned(statement: tree_sitter.Node, call: tree_sitter.Node) -> str | None:
    """The name a call's error is assigned to: the last of `x, err := run()`, or the one at the call's place in
    `errA, errB = a(), b()`."""
    left = statement.child_by_field_name("left") if statement.type in _WRITING_STATEMENTS else None
    right = statement.child_by_field_name("right") if left is not None else None
    names = parser.named(left) if left is not None else []
    values = parser.named(right) if right is not None else []
    if not names or call not in values:
        return None
    if len(values) == 1:
        return parser.text(names[-1])
    return parser.text(names[values.index(call)]) if len(values) == len(names) else None


def _error_test(statement: tree_sitter.Node, error: str) -> tree_sitter.Node | None:
    """The `if error != nil` of an initializer, or the first one after the statement in its block, before the
    name is written again."""
    around = statement.parent
    if around is not None and around.type == "if_statement" and around.child_by_field_name("initializer") == statement:
        following: tree_sitter.Node | None = around
    else:
        following = statement.next_named_sibling
    while following is not None:
        condition = following.child_by_field_name("condition") if following.type == "if_statement" else None
        if condition is not None and " ".join(parser.text(condition).split()) == f"{error} != nil":
            return following
        if following is not around and error in [parser.text(name) for name in _written_names(following)]:
            return None
        if following is around:
            return None
        following = following.next_named_sibling
    return None


def _written_names(statement: tree_sitter.Node) -> list[tree_sitter.Node]:
    left = statement.child_by_field_name("left") if statement.type in _WRITING_STATEMENTS else None
    return parser.named(left) if left is not None else []


def _leaves_early(block: tree_sitter.Node | None) -> bool:
    """Whether a block holds a `break`, `continue` or `goto` that may leave it before its end (`default: if
    all { break }; log.Fatal(…)`)."""
    if block is None:
        return False
    return bool(parser.captures("[(break_statement) (continue_statement) (goto_statement)] @jump", block).get("jump"))


def _runs_a_command(value: tree_sitter.Node) -> bool:
    """Whether a function value is a cobra command's `RunE` (or its pre-run), whose error Execute returns."""
    parent = value.parent
    if parent is not None and parent.type == "literal_element":
        parent = parent.parent
    keys = parser.named(parent) if parent is not None and parent.type == "keyed_element" else []
    return len(keys) == 2 and parser.text(keys[0]) in _COMMAND_FUNCTIONS


def ends_in_an_exit(last: tree_sitter.Node | None) -> bool:
    """Whether a block's last statement calls os.Exit, panic or a Fatal log call."""
    call = parser.first_named(last) if last is not None and last.type == "expression_statement" else None
    return call is not None and call.type == "call_expression" and exits(call)


def exits(call: tree_sitter.Node) -> bool:
    """os.Exit, panic, or a Fatal log call (log.Fatal, klog.Fatalf, setupLog.Fatal…) or klog's Exit calls
    (klog.Exitf, which logs, then exits)."""
    function = call.child_by_field_name("function")
    shown = parser.text(function) if function is not None else ""
    last = shown.rsplit(".", 1)[-1]
    return shown in ("os.Exit", "panic") or last.startswith("Fatal") or ("." in shown and last.startswith("Exit"))


def is_failing_return(statement: tree_sitter.Node) -> bool:
    """A return of a function whose last result is an error that gives a failure (`returns_failure`)."""
    function = innermost_function(statement)
    return function is not None and returns_error(function) and returns_failure(statement)


def returns_failure(statement: tree_sitter.Node) -> bool:
    """A return whose last value, the error, is not nil: a made error (`fmt.Errorf(…)`), an error variable
    made so in the block that returns it, or one in the `if err != nil` block that returns it. An error
    variable returned on its own may be nil (`return true, seq, err` after a parse that succeeds); a bare
    return names its results: not told."""
    values = return_items(statement)
    if not values or parser.text(values[-1]) == "nil":
        return False
    error = values[-1]
    if error.type != "identifier":
        return True
    name = parser.text(error)
    return _made_before(statement, name) or in_nil_test(statement, name, is_nil=False)


def _made_before(statement: tree_sitter.Node, name: str) -> bool:
    """Whether the block of a return last sets `name` alone from a call before it (`err := fmt.Errorf(…)`;
    `log.Error(err, …)`; `return err`), as a return of that call would be."""
    return _assigned_call(statement, name) is not None


def _assigned_call(statement: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """The call the block of a statement last sets `name` from, alone, before it; None where that write gives it
    anything else, or no write does."""
    made = None
    for sibling in statement.parent.named_children if statement.parent is not None else ():
        if sibling == statement:
            break
        if sibling.type in _WRITING_STATEMENTS:
            left, right = sibling.child_by_field_name("left"), sibling.child_by_field_name("right")
            names = [parser.text(node) for node in parser.named(left)] if left is not None else []
            if name in names:
                values = parser.named(right) if right is not None else []
                single = names == [name] and len(values) == 1 and values[0].type == "call_expression"
                made = values[0] if single else None
    return made


def tested_empty(condition: tree_sitter.Node | None) -> str | None:
    """What `x == ""`, `x == nil`, `x == 0` or `len(x) == 0` tests empty, as written (`ns`, `*ns`,
    `o.Namespace`); None for any other condition."""
    return _compared_with_empty(condition, ("==",))


def tested_given(condition: tree_sitter.Node | None) -> str | None:
    """What `x != ""`, `x != nil` or `len(x) > 0` tests given, as `tested_empty` names it; None for any other
    condition."""
    return _compared_with_empty(condition, ("!=", ">"))


def _compared_with_empty(condition: tree_sitter.Node | None, operators: tuple[str, ...]) -> str | None:
    if condition is None or condition.type != "binary_expression":
        return None
    if parser.text(condition.child_by_field_name("operator")) not in operators:
        return None
    sides = [condition.child_by_field_name("left"), condition.child_by_field_name("right")]
    texts = [parser.text(side) for side in sides if side is not None]
    empty = next((index for index, text in enumerate(texts) if text in ('""', "nil", "0", "``")), None)
    if len(texts) != 2 or empty is None:
        return None
    tested = texts[1 - empty]
    return tested[4:-1] if tested.startswith("len(") and tested.endswith(")") else tested


def holds_when_empty(condition: tree_sitter.Node | None) -> str | None:
    """What a test that holds for an empty value tests: `tested_empty`'s, and a length below one or other than a
    positive count (kube-eventer's `if len(argSources) != 1 { klog.Fatal(…) }`, `len(x) < 1`, `len(x) <= 0`):
    a program that fails on such a test runs only with the value given."""
    tested = tested_empty(condition)
    if tested is not None or condition is None or condition.type != "binary_expression":
        return tested
    operator = parser.text(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    shown, bound = parser.text(left), parser.text(right)
    if not (shown.startswith("len(") and shown.endswith(")")) or not bound.isdigit():
        return None
    count = int(bound)
    if (operator == "!=" and count > 0) or (operator == "<" and count == 1) or (operator == "<=" and count == 0):
        return shown[4:-1]
    return None


def conjuncts(condition: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The parts of `a && b && c` (one part for any other condition)."""
    return _operands(condition, "&&")


def disjuncts(condition: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The parts of `a || b || c` (one part for any other condition)."""
    return _operands(condition, "||")


def _operands(condition: tree_sitter.Node, operator: str) -> list[tree_sitter.Node]:
    node = condition
    while node.type == "parenthesized_expression" and parser.named(node):
        node = parser.named(node)[0]
    if node.type == "binary_expression" and parser.text(node.child_by_field_name("operator")) == operator:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None:
            return _operands(left, operator) + _operands(right, operator)
    return [condition]


def after_an_early_return(node: tree_sitter.Node) -> bool:
    """Whether a node follows an `if cond { return }` that may skip it, in its function or one around it (a
    function literal's write after its caller returned early): kueue's `j.isGroup = true` after `if !grouped {
    return … }` is set for some objects only. An early return that fails is passed over when the node's own
    function fails so: the default deployment does not fail."""
    function = innermost_function(node)
    fails = function is not None and returns_error(function)
    return any(not (fails and _returns_made_error(returned)) for _, returned in early_returns_before(node))


def early_returns_before(
    node: tree_sitter.Node, function: tree_sitter.Node | None = None
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """The `if cond { return … }` statements before a node in the blocks holding it, up to `function` (to the
    file's top without one), innermost first, each with its return."""
    child, current = node, node.parent
    while current is not None and current != function:
        if current.type in ("block", "statement_list"):
            for statement in current.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                returned = early_return(statement) if statement.type == "if_statement" else None
                if returned is not None and returned.type == "return_statement":
                    yield statement, returned
        child, current = current, current.parent


def _returns_made_error(statement: tree_sitter.Node) -> bool:
    """A failing return whose error is made as one (`fmt.Errorf(…)`, `errors.Wrap(err, …)`, an `err` set so),
    not the result of another call that may well be nil (`return c.Get(…)`)."""
    values = return_items(statement)
    made = values[-1] if values else None
    if made is None or made.type != "call_expression":
        return returns_failure(statement)
    return _makes_an_error(made)


def _makes_an_error(call: tree_sitter.Node) -> bool:
    """`fmt.Errorf`, `errors.Wrap`, and an errors package's constructors (`errors.New`, `apierrors.NewBadRequest`;
    not NewAggregate, nil for no errors)."""
    qualifier, _, called = parser.text(call.child_by_field_name("function")).rpartition(".")
    made_by_errors = qualifier.lower().endswith("errors") and called.startswith("New") and called != "NewAggregate"
    return "err" in called.lower() or "wrap" in called.lower() or made_by_errors


def early_return(statement: tree_sitter.Node) -> tree_sitter.Node | None:
    """The return ending the block of an `if`, if it ends with one; or the `continue`, which passes the rest of
    the loop round over alike (`if s == "" { continue }` before `out = append(out, s)`). Whatever its `else`
    does, what follows the statement runs only where the condition is false (vcluster's `if !etcd { return nil }
    else if privateNodes { return nil }`)."""
    last = last_statement(statement.child_by_field_name("consequence"))
    return last if last is not None and last.type in ("return_statement", "continue_statement") else None


def _parses_boolean_call(value: tree_sitter.Node) -> bool:
    function = value.child_by_field_name("function") if value.type == "call_expression" else None
    return function is not None and parser.text(function) == "strconv.ParseBool"


def _unequal_test(condition: tree_sitter.Node) -> tuple[str, bool] | None:
    """The string a `!=` test compares with (`cfg.CachingLevel != "off"`: on unless it is off), as
    Guards._string_test gives it; None for another condition, and for a test against "" (which "is set" says)."""
    if condition.type != "binary_expression" or parser.text(condition.child_by_field_name("operator")) != "!=":
        return None
    wanted = _string_side([condition.child_by_field_name("right"), condition.child_by_field_name("left")])
    return (wanted, False) if wanted else None


def _compared_part(
    value: tree_sitter.Node, compared: Callable[[tree_sitter.Node], str | None] | None = None
) -> str | None:
    """The string the one comparison among a conjunction's parts wants (`found && v == "1"`), where the others
    compare nothing, as `compared` reads each part (`_compared_to` by default); None otherwise."""
    read = compared or _compared_to
    wanted = [found for part in conjuncts(value) if (found := read(part)) is not None]
    return wanted[0] if len(wanted) == 1 else None


def _compared_to(condition: tree_sitter.Node) -> str | None:
    """The string an equality test wants (`os.Getenv("TENANCY_MODE") == "dynamic"` -> dynamic, also
    `strings.EqualFold(os.Getenv("METRICS_ENABLED"), "true")`, and kubeflow notebooks' `value == "true" || value
    == "True" || value == "TRUE"`, one word in any of its spellings), or None."""
    spellings = disjuncts(condition)
    if len(spellings) == 1:
        return _compared_once(condition)
    wanted = [_compared_once(part) for part in spellings]
    tested = {_tested_side(part) for part in spellings}
    words = {word.lower() for word in wanted if word is not None}
    return wanted[0] if None not in wanted and len(words) == 1 and len(tested) == 1 else None


def _compared_once(condition: tree_sitter.Node) -> str | None:
    sides = _equality_sides(condition)
    return _string_side(sides) if sides is not None else None


def _tested_side(condition: tree_sitter.Node) -> str | None:
    """The text of what an equality test compares with its string literal (`value` of `value == "true"`)."""
    sides = _equality_sides(condition) or []
    other = [side for side in sides if side is not None and side.type not in parser.STRING_LITERALS]
    return parser.text(other[0]) if len(other) == 1 else None


def _equality_sides(condition: tree_sitter.Node) -> list[tree_sitter.Node | None] | None:
    """The two sides of `a == b` or `strings.EqualFold(a, b)`, the right one first; None for another test."""
    function = condition.child_by_field_name("function") if condition.type == "call_expression" else None
    if function is not None and parser.text(function).endswith(".EqualFold"):
        return list(parser.named(condition.child_by_field_name("arguments") or condition))
    if condition.type == "binary_expression" and parser.text(condition.child_by_field_name("operator")) == "==":
        return [condition.child_by_field_name("right"), condition.child_by_field_name("left")]
    return None


def _string_side(sides: list[tree_sitter.Node | None]) -> str | None:
    """The non-empty string the first string literal among a test's sides holds."""
    for side in sides:
        if side is not None and side.type in parser.STRING_LITERALS:
            return unquote(parser.text(side)) or None
    return None
