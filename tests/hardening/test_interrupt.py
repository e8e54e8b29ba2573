"""A Ctrl-C behind an error is answered as the Ctrl-C (`interrupt.behind`): heard while the command ran, or
kept by a library as the cause or context of the error it raised in its place."""

from __future__ import annotations

import pytest

from authoring.interrupt import Heard, behind


def test_a_ctrl_c_kept_as_the_cause_or_context_is_found():
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ImportError("numpy._core.multiarray failed to import")  # noqa: B904 - as the library does
    except ImportError as exc:
        assert behind(exc)
    assert not behind(ImportError("no module named x"))


def test_a_ctrl_c_heard_while_the_command_ran_explains_any_error():
    heard = Heard()
    error = ImportError("numpy._core.multiarray failed to import")  # the C extension printed the interrupt
    assert not behind(error, heard)
    with pytest.raises(KeyboardInterrupt):
        heard(2, None)
    assert heard.times == 1 and behind(error, heard)
