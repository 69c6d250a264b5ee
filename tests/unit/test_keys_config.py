"""Issue 9, item 18 ([keys]): values that are not key names are reported, and the action
keeps its default key."""

from __future__ import annotations

import pytest

from paperterm.tui.bindings import check_keymap, is_key_name


@pytest.mark.parametrize("key", ["s", "*", "ctrl+q", "f5", "pageup", "space", "asterisk",
                                 "slash", "at", "ctrl+shift+x", "shift+tab", "enter"])
def test_real_key_names_are_accepted(key: str) -> None:
    assert is_key_name(key)
    good, problems = check_keymap({"star": key})
    assert good == {"star": key} and problems == []


@pytest.mark.parametrize("key", ["star key", "ctrl+shft+x", "ctrlq", "pgup", "ctrl+", "F 5"])
def test_values_that_are_not_key_names_are_reported(key: str) -> None:
    good, problems = check_keymap({"star": f"s, {key}", "quit": "ctrl+q"})
    assert good == {"quit": "ctrl+q"}  # star keeps its default
    (problem,) = problems
    assert "'star'" in problem and repr(key) in problem and "not a key name" in problem


def test_no_default_key_does_two_things() -> None:
    """Two helpers once both took `A` (seen above, follow author): one of them never ran."""
    from paperterm.tui.bindings import ALL_KEYS

    owner: dict[str, str] = {}
    for spec in ALL_KEYS:
        for key in spec.keys.split(","):
            assert is_key_name(key.strip()), (spec.id, key)
            assert key not in owner, f"{key!r} is bound to both {owner[key]} and {spec.id}"
            owner[key] = spec.id
