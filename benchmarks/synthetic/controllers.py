"""The reconciler files of an operator module: struct, RBAC markers, Reconcile with its cached reads and
owned dependents, map functions and the SetupWithManager builder chain."""

from __future__ import annotations

from synthetic.fillers import CONTROLLER_K8S_IMPORTS, CONTROLLER_STD_IMPORTS, GO_FILLERS
from synthetic.operator_plan import Controller, OperatorPlan
from synthetic.vocabulary import BUILTIN, go_imports, lower_first, plural_of, prune_imports


def controller(operator: OperatorPlan, plan: Controller) -> str:
    rng = operator.rng
    kind = plan.kind
    receiver = f"{kind}Reconciler"
    # Every import a reconciler may need; prune_imports drops those this one does not use.
    std = list(CONTROLLER_STD_IMPORTS)
    k8s = [*CONTROLLER_K8S_IMPORTS, *sorted(set(BUILTIN.values()))]
    own = [
        (operator.group_alias, f"{operator.module}/api/v1"),
        ("", f"{operator.module}/internal/{operator.helper_package}"),
    ]
    used_kinds = set(plan.owns) | set(plan.watches) | set(plan.gets) | set(plan.lists)
    if plan.builtin:
        used_kinds.add(kind)
    object_type = f"{BUILTIN[kind][0]}.{kind}" if plan.builtin else f"{operator.group_alias}.{kind}"
    finalizer = f"{kind.lower()}.{operator.group}/finalizer"
    struct_fields = [
        "\tclient.Client",
        "\tScheme   *runtime.Scheme",
        "\tRecorder record.EventRecorder",
    ]
    if plan.api_reader:
        struct_fields.append("\t// APIReader reads from the API server, bypassing the cache.")
        struct_fields.append("\tAPIReader client.Reader")
    rbac = [
        f"// +kubebuilder:rbac:groups={operator.group},resources={plural_of(kind)},verbs=get;list;watch;update;patch",
        f"// +kubebuilder:rbac:groups={operator.group},resources={plural_of(kind)}/status,verbs=get;update;patch",
    ]
    for used in sorted(used_kinds):
        group = {"corev1": '""', "appsv1": "apps", "batchv1": "batch"}.get(BUILTIN[used][0], BUILTIN[used][0])
        rbac.append(f"// +kubebuilder:rbac:groups={group},resources={plural_of(used)},verbs=get;list;watch")
    body = _reconcile_body(operator, plan, object_type, finalizer)
    fillers = [
        GO_FILLERS[name](kind, object_type, plan.builtin)
        for name in rng.sample(sorted(GO_FILLERS), min(plan.fillers, len(GO_FILLERS)))
    ]
    map_funcs = [_map_func(operator, plan, watched) for watched in plan.watches]
    setup = _setup(operator, plan, object_type)
    text = "\n".join(
        [
            f"// Package {operator.controller_package} holds the reconcilers of the {operator.name}.",
            f"package {operator.controller_package}",
            "",
            go_imports(std, [k8s, own]),
            f'const {lower_first(kind)}Finalizer = "{finalizer}"',
            "",
            f"// {receiver} reconciles a {kind} object.",
            f"type {receiver} struct {{",
            *struct_fields,
            "}",
            "",
            *rbac,
            "",
            f"// Reconcile moves the cluster state of a {kind} towards its spec.",
            f"func (r *{receiver}) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{",
            body,
            "}",
            "",
            *[item + "\n" for item in map_funcs],
            *[item + "\n" for item in fillers],
            setup,
        ]
    )
    return prune_imports(text)


def _reconcile_body(operator: OperatorPlan, plan: Controller, object_type: str, finalizer: str) -> str:
    rng = operator.rng
    kind = plan.kind
    var = lower_first(kind)
    lines = [
        "\tlogger := log.FromContext(ctx)",
        "",
        f"\tvar {var} {object_type}",
        f"\tif err := r.Get(ctx, req.NamespacedName, &{var}); err != nil {{",
        "\t\tif errors.IsNotFound(err) {",
        '\t\t\tlogger.V(1).Info("object is gone", "name", req.NamespacedName)',
        "\t\t\treturn ctrl.Result{}, nil",
        "\t\t}",
        "\t\treturn ctrl.Result{}, err",
        "\t}",
    ]
    if not plan.builtin:
        lines += [
            "",
            f"\tif !{var}.DeletionTimestamp.IsZero() {{",
            f"\t\tif controllerutil.ContainsFinalizer(&{var}, {var}Finalizer) {{",
            f'\t\t\tr.Recorder.Event(&{var}, "Normal", "Finalizing", "cleaning up dependents")',
            f"\t\t\tcontrollerutil.RemoveFinalizer(&{var}, {var}Finalizer)",
            f"\t\t\tif err := r.Update(ctx, &{var}); err != nil {{",
            "\t\t\t\treturn ctrl.Result{}, err",
            "\t\t\t}",
            "\t\t}",
            "\t\treturn ctrl.Result{}, nil",
            "\t}",
            f"\tif controllerutil.AddFinalizer(&{var}, {var}Finalizer) {{",
            f"\t\tif err := r.Update(ctx, &{var}); err != nil {{",
            "\t\t\treturn ctrl.Result{}, err",
            "\t\t}",
            "\t}",
        ]
    for index, got in enumerate(plan.gets):
        lines += _get_lines(operator, plan, index, got, var)
    for index, listed in enumerate(plan.lists):
        name = f"{lower_first(listed)}List{index}"
        alias = BUILTIN[listed][0]
        lines += [
            "",
            f"\tvar {name} {alias}.{listed}List",
            f"\tif err := r.List(ctx, &{name}, client.InNamespace(req.Namespace),",
            f'\t\tclient.MatchingLabels{{"app.kubernetes.io/instance": {var}.Name}}); err != nil {{',
            "\t\treturn ctrl.Result{}, err",
            "\t}",
            f"\tfor i := range {name}.Items {{",
            f'\t\tlogger.V(2).Info("dependent", "kind", "{listed}", "name", {name}.Items[i].Name)',
            "\t}",
        ]
    for owned in plan.owns:
        if owned == "ConfigMap":
            lines += [
                "",
                "\tdesired := &corev1.ConfigMap{",
                f'\t\tObjectMeta: metav1.ObjectMeta{{Name: {var}.Name + "-config", Namespace: {var}.Namespace}},',
                f'\t\tData:       map[string]string{{"owner": {var}.Name}},',
                "\t}",
                f"\tif err := controllerutil.SetControllerReference(&{var}, desired, r.Scheme); err != nil {{",
                "\t\treturn ctrl.Result{}, err",
                "\t}",
                f"\tif err := {operator.helper_package}.EnsureConfigMap(ctx, r.Client, desired); err != nil {{",
                "\t\treturn ctrl.Result{}, err",
                "\t}",
            ]
        elif not plan.builtin:
            alias = BUILTIN[owned][0]
            name = f"owned{owned}"
            lines += [
                "",
                f"\t{name} := &{alias}.{owned}{{ObjectMeta: metav1.ObjectMeta{{"
                f'Name: {var}.Name + "-{owned.lower()}", Namespace: {var}.Namespace}}}}',
                f"\tif _, err := controllerutil.CreateOrUpdate(ctx, r.Client, {name}, func() error {{",
                f"\t\tif {name}.Labels == nil {{",
                f"\t\t\t{name}.Labels = map[string]string{{}}",
                "\t\t}",
                f'\t\t{name}.Labels["app.kubernetes.io/instance"] = {var}.Name',
                f'\t\t{name}.Labels["app.kubernetes.io/managed-by"] = "{operator.name}"',
                f"\t\treturn controllerutil.SetControllerReference(&{var}, {name}, r.Scheme)",
                "\t}); err != nil {",
                f'\t\treturn ctrl.Result{{}}, fmt.Errorf("reconcile {owned.lower()}: %w", err)',
                "\t}",
            ]
    if not plan.builtin:
        lines += [
            "",
            f"\t{var}.Status.ObservedGeneration = {var}.Generation",
            f'\t{var}.Status.Phase = "Ready"',
            f"\tmeta.SetStatusCondition(&{var}.Status.Conditions, metav1.Condition{{",
            '\t\tType:               "Ready",',
            "\t\tStatus:             metav1.ConditionTrue,",
            f"\t\tObservedGeneration: {var}.Generation,",
            '\t\tReason:             "Reconciled",',
            '\t\tMessage:            "all dependents are up to date",',
            "\t})",
            f"\tif err := r.Status().Update(ctx, &{var}); err != nil {{",
            "\t\treturn ctrl.Result{}, err",
            "\t}",
        ]
    else:
        lines += [
            "",
            f'\tif {var}.Labels["app.kubernetes.io/managed-by"] != "{operator.name}" {{',
            "\t\treturn ctrl.Result{}, nil",
            "\t}",
            f'\tr.Recorder.Event(&{var}, "Normal", "Seen", "{kind} observed")',
        ]
    interval = rng.choice((30, 60, 120, 300, 600))
    lines += ["", f"\treturn ctrl.Result{{RequeueAfter: {interval} * time.Second}}, nil"]
    return "\n".join(lines)


def _get_lines(operator: OperatorPlan, plan: Controller, index: int, got: str, var: str) -> list[str]:
    """A cached read of a built-in kind, in one of the shapes operators write it."""
    name = f"{lower_first(got)}{index}"
    alias = BUILTIN[got][0]
    reader = "r.APIReader" if plan.api_reader and index == 0 else "r"
    key_name = f'{var}.Name + "-{got.lower()}"'
    style = operator.rng.random()
    if style < 0.45:
        return [
            "",
            f"\tvar {name} {alias}.{got}",
            f"\t{name}Key := types.NamespacedName{{Namespace: req.Namespace, Name: {key_name}}}",
            f"\tif err := {reader}.Get(ctx, {name}Key, &{name}); err != nil {{",
            "\t\tif !errors.IsNotFound(err) {",
            "\t\t\treturn ctrl.Result{}, err",
            "\t\t}",
            f'\t\tlogger.Info("{got} not found yet", "key", {name}Key)',
            "\t}",
        ]
    if style < 0.8:
        return [
            "",
            f"\t{name} := &{alias}.{got}{{}}",
            f"\t{name}Key := client.ObjectKey{{Namespace: req.Namespace, Name: {key_name}}}",
            f"\tif err := {reader}.Get(ctx, {name}Key, {name}); client.IgnoreNotFound(err) != nil {{",
            "\t\treturn ctrl.Result{}, err",
            "\t}",
        ]
    if got == "Secret":
        return [
            "",
            f'\tvalue, err := {operator.helper_package}.SecretValue(ctx, r.Client, req.Namespace, {key_name}, "token")',
            "\tif err != nil {",
            "\t\treturn ctrl.Result{RequeueAfter: 30 * time.Second}, nil",
            "\t}",
            '\tlogger.V(2).Info("token read", "length", len(value))',
        ]
    return [
        "",
        f"\t{name} := &{alias}.{got}{{}}",
        f"\tif err := r.Get(ctx, types.NamespacedName{{Namespace: req.Namespace, Name: {key_name}}}, "
        f"{name}); err != nil {{",
        "\t\treturn ctrl.Result{}, client.IgnoreNotFound(err)",
        "\t}",
    ]


def _map_func(operator: OperatorPlan, plan: Controller, watched: str) -> str:
    kind = plan.kind
    list_type = f"{BUILTIN[kind][0]}.{kind}List" if plan.builtin else f"{operator.group_alias}.{kind}List"
    signature = (
        f"func (r *{kind}Reconciler) {lower_first(watched)}To{kind}(ctx context.Context, obj client.Object) "
        "[]reconcile.Request {"
        if operator.era.minor >= 15
        else f"func (r *{kind}Reconciler) {lower_first(watched)}To{kind}(obj client.Object) []reconcile.Request {{"
    )
    context_line = [] if operator.era.minor >= 15 else ["\tctx := context.Background()"]
    return "\n".join(
        [
            f"// {lower_first(watched)}To{kind} maps a {watched} to the {kind}s of its namespace that refer to it.",
            signature,
            *context_line,
            f"\tvar owners {list_type}",
            "\tif err := r.List(ctx, &owners, client.InNamespace(obj.GetNamespace())); err != nil {",
            "\t\treturn nil",
            "\t}",
            "\trequests := make([]reconcile.Request, 0, len(owners.Items))",
            "\tfor i := range owners.Items {",
            '\t\tif owners.Items[i].Labels["app.kubernetes.io/instance"] != '
            'obj.GetLabels()["app.kubernetes.io/instance"] {',
            "\t\t\tcontinue",
            "\t\t}",
            "\t\trequests = append(requests, reconcile.Request{NamespacedName: types.NamespacedName{",
            "\t\t\tNamespace: owners.Items[i].Namespace,",
            "\t\t\tName:      owners.Items[i].Name,",
            "\t\t}})",
            "\t}",
            "\treturn requests",
            "}",
        ]
    )


def _setup(operator: OperatorPlan, plan: Controller, object_type: str) -> str:
    era = operator.era
    chain = ["\treturn ctrl.NewControllerManagedBy(mgr)."]
    if plan.predicates:
        chain.append(f"\t\tFor(&{object_type}{{}}, builder.WithPredicates(predicate.GenerationChangedPredicate{{}})).")
    else:
        chain.append(f"\t\tFor(&{object_type}{{}}).")
    for owned in plan.owns:
        alias = BUILTIN[owned][0]
        if plan.only_metadata and owned in ("ConfigMap", "Secret", "Job"):
            chain.append(f"\t\tOwns(&{alias}.{owned}{{}}, builder.OnlyMetadata).")
        else:
            chain.append(f"\t\tOwns(&{alias}.{owned}{{}}).")
    for watched in plan.watches:
        alias = BUILTIN[watched][0]
        mapper = f"handler.EnqueueRequestsFromMapFunc(r.{lower_first(watched)}To{plan.kind})"
        source = f"&{alias}.{watched}{{}}" if era.minor >= 15 else f"&source.Kind{{Type: &{alias}.{watched}{{}}}}"
        if plan.predicates and watched in ("Pod", "Event"):
            chain.append(
                f"\t\tWatches({source}, {mapper},\n"
                "\t\t\tbuilder.WithPredicates(predicate.ResourceVersionChangedPredicate{}))."
            )
        else:
            chain.append(f"\t\tWatches({source}, {mapper}).")
    if plan.builtin:
        chain.append(f'\t\tNamed("{plan.kind.lower()}-labeler").')
    chain.append("\t\tComplete(r)")
    return "\n".join(
        [
            "// SetupWithManager registers the controller with the manager.",
            f"func (r *{plan.kind}Reconciler) SetupWithManager(mgr ctrl.Manager) error {{",
            *chain,
            "}",
        ]
    )
