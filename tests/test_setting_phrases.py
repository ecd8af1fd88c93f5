"""How conditions name the settings that turn them on: flags are set, environment variables non-empty."""

from watchlint.settingphrases import all_given, any_given, either_given, given, setting_of


def test_a_flag_is_set_and_an_environment_variable_non_empty() -> None:
    assert given("--namespace") == "--namespace is set"
    assert given("WATCH_NAMESPACE") == "WATCH_NAMESPACE is non-empty"
    assert given("--namespace", negated=True) == "--namespace is not set"
    assert given("WATCH_NAMESPACE", negated=True) == "WATCH_NAMESPACE is empty"


def test_a_setting_with_the_value_a_condition_wants_is_said_as_it_is() -> None:
    assert given("AGENT_RBAC_SCOPE=namespace") == "AGENT_RBAC_SCOPE=namespace"
    assert given("--mode=stream", negated=True) == "--mode is not stream"
    assert given("ADMIN_ENABLED=true or OIDC_ENABLED=true") == "ADMIN_ENABLED=true or OIDC_ENABLED=true"
    assert given("A=true or --b", negated=True) == "A is not true and --b is not set"
    assert any_given(["ADMIN_ENABLED=true", "OIDC_ENABLED=true"]) == "ADMIN_ENABLED=true or OIDC_ENABLED=true"


def test_a_python_variable_is_an_environment_variable_whatever_its_spelling() -> None:
    assert given("shop_namespace", environment=True) == "shop_namespace is non-empty"


def test_settings_of_both_sorts_take_a_phrase_each() -> None:
    assert given("--namespaces or WATCH_NAMESPACE") == "--namespaces is set or WATCH_NAMESPACE is non-empty"
    assert any_given(["--a", "--b", "--c"]) == "--a, --b or --c is set"
    assert any_given(["A", "--b"]) == "A is non-empty or --b is set"


def test_an_origin_naming_settings_of_one_sort_lists_them_under_one_verb() -> None:
    assert given("A or B") == "A or B is non-empty"
    assert given("A or B or C") == "A, B or C is non-empty"
    assert given("--a or --b or --c", negated=True) == "--a or --b or --c is not set"


def test_phrases_of_one_sort_are_joined_under_one_verb() -> None:
    assert all_given(["A is non-empty", "B is non-empty"]) == "A and B are non-empty"
    assert all_given(["--a is set", "B is non-empty"]) == "--a is set and B is non-empty"
    assert either_given(["A is non-empty", "B is non-empty"]) == "A or B is non-empty"
    assert either_given(["A is non-empty", "`x` holds"]) == "A is non-empty or `x` holds"


def test_settings_read_from_one_source_name_it_once() -> None:
    on = ["Deployed.Enabled (configuration file) is set", "External.Enabled (configuration file) is set"]
    assert either_given(on) == "Deployed.Enabled or External.Enabled (configuration file) is set"
    assert (
        any_given(["a (configuration file)", "b (configuration file)", "c"]) == "a (configuration file), b "
        "(configuration file) or c is set"
    )


def test_a_disjunction_beside_one_of_its_settings_says_nothing_more() -> None:
    assert all_given(["--logs or --metrics is set", "--metrics is set"]) == "--metrics is set"
    assert (
        all_given(["--logs or --metrics is set", "--traces is set"]) == "--logs or --metrics is set and --traces is set"
    )


def test_a_disjunction_named_twice_in_another_order_is_said_once() -> None:
    """kyma-infrastructure-manager fills a slice of predicates under `if acl || bootstrapper` and watches once
    per item: the branch needs both the outer test and a filled slice, which name the same two flags."""
    assert (
        all_given(["--acl or --bootstrapper is set", "--bootstrapper or --acl is set"])
        == "--acl or --bootstrapper is set"
    )


def test_the_setting_a_phrase_names() -> None:
    assert setting_of("--namespace is set") == "--namespace"
    assert setting_of("WATCH_NAMESPACE is non-empty") == "WATCH_NAMESPACE"
    assert setting_of("--a is set or B is non-empty") == "--a or B"
    assert setting_of("--a is set or `ns` is not empty") is None
    assert setting_of("`ns` is not empty") is None
