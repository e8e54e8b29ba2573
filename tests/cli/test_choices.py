"""Every choice of every command answers a near miss with the nearest valid value ("did you mean")."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from authoring.cli import main
from authoring.cli.args import Choice


def _choice_options(command: click.Command, path: tuple[str, ...] = ()):
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _choice_options(sub, (*path, name))
        return
    for param in command.params:
        if isinstance(param.type, click.Choice):
            yield path, param


OPTIONS = list(_choice_options(main))


def _slip(word: str) -> str:
    """One letter changed at the end (`a4` -> `a5`, `json` -> `jsoz`)."""
    return word[:-1] + ("5" if not word[-1].isalpha() else "y" if word[-1] == "z" else "z")


def test_the_table_covers_the_known_choices():
    names = {(" ".join(p), param.opts[0]) for p, param in OPTIONS}
    assert {
        ("validate", "--format"),
        ("build sheets", "--paper"),
        ("build sheets", "--duplex"),
        ("watch", "--stage"),
        ("export-setup", "--format"),
        ("check", "--format"),
    } <= names


@pytest.mark.parametrize(("path", "param"), OPTIONS, ids=[f"{' '.join(p)} {q.opts[0]}" for p, q in OPTIONS])
def test_every_choice_suggests_the_nearest_value(path, param):
    assert isinstance(param.type, Choice), "use authoring.cli.args.Choice, which suggests the nearest value"
    for wanted in param.type.choices:
        r = CliRunner().invoke(main, [*path, param.opts[0], _slip(str(wanted))])
        assert r.exit_code == 2, r.output
        assert f"did you mean {wanted!r}?" in r.stderr, r.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["validate", "--format", "jsn"],
            "'jsn' is not one of 'full', 'concise', 'json', 'sarif'; did you mean 'json'?",
        ),
        (["build", "sheets", "--paper", "a5"], "did you mean 'a4'?"),
        (["build", "sheets", "--paper", "A4"], "did you mean 'a4'?"),
        (["schema", "gme"], "Invalid value for KIND: 'gme' is not one of 'game', "),
        (["schema", "gme"], "; did you mean 'game'?"),
        (["build", "all", "--duplex", "shrot"], "did you mean 'short'?"),
        (["watch", "--stage", "mpas"], "did you mean 'maps'?"),
    ],
)
def test_named_near_misses(args, said):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and said in r.stderr, r.stderr


def test_a_far_value_lists_the_choices_without_a_guess():
    r = CliRunner().invoke(main, ["build", "sheets", "--paper", "tabloid"])
    assert r.exit_code == 2 and "'tabloid' is not one of 'letter', 'a4'" in r.stderr and "did you mean" not in r.stderr
