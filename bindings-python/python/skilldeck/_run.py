"""``async`` running: ``run_command``, ``run_script`` and ``call_tool``.

Each awaits the matching ``*_sync`` function of the native module, which blocks its thread
with the GIL released, on the event loop's default executor (``loop.run_in_executor``), so
the loop keeps serving other tasks while the skill runs. Cancelling the awaiting task
cancels the run: the token is cancelled (the skill's whole process group is killed) and
the ``CancelledError`` propagates once the process is gone. ``on_event`` is called on the
event loop's thread, in order, every event before the ``await`` returns.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence, Union

from ._native import CancelToken, Deck, call_tool_sync, run_command_sync, run_script_sync

if TYPE_CHECKING:
    import os

    from typing_extensions import Unpack

    from .types import ExecEvent, RunOptions, RunOutcome

    _OnEvent = Optional[Callable[[ExecEvent], object]]


async def _in_thread(
    call: Callable[[CancelToken, Any], RunOutcome],
    cancel: Optional[CancelToken],
    on_event: _OnEvent,
) -> RunOutcome:
    loop = asyncio.get_running_loop()
    token = cancel if cancel is not None else CancelToken()
    forward: Any = on_event
    if on_event is not None and callable(on_event):
        callback = on_event

        def to_loop(event: ExecEvent) -> None:
            # Runs on the runner's thread: hand the event to the loop, in order. Scheduled
            # before the executor future completes, so all are delivered before `await`.
            loop.call_soon_threadsafe(callback, event)

        forward = to_loop

    future = loop.run_in_executor(None, call, token, forward)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        token.cancel()
        # Let the kill finish, so the caller's cancellation means the process is gone.
        try:
            await asyncio.wait({future})
        finally:
            if future.done() and not future.cancelled():
                future.exception()  # retrieved: no "exception was never retrieved" log
        raise


async def run_command(
    deck: Deck,
    skill: str,
    input: Optional[Mapping[str, Any]] = None,
    *,
    cancel: Optional[CancelToken] = None,
    on_event: _OnEvent = None,
    **options: Unpack[RunOptions],
) -> RunOutcome:
    """Run a command skill with ``input`` (its ``parameters``) as JSON on standard input.

    The input is validated against the skill's parameters first (``InvalidInputError``,
    nothing run); a refusal is ``RunError``. Options: see ``skilldeck.types.RunOptions``
    (``timeout`` in seconds, ``sandbox="enforce"|"none"``, ``approved``, ...). Returns the
    ``RunOutcome`` dict (``stdout``, ``stderr``, ``exit_code``, ``timed_out``, ...).
    """

    def call(token: CancelToken, forward: Any) -> RunOutcome:
        return run_command_sync(deck, skill, input, cancel=token, on_event=forward, **options)

    return await _in_thread(call, cancel, on_event)


async def run_script(
    deck: Deck,
    skill: str,
    script: str,
    args: Optional[Sequence[str]] = None,
    *,
    stdin: Optional[str] = None,
    destination: Union[str, os.PathLike[str], None] = None,
    cancel: Optional[CancelToken] = None,
    on_event: _OnEvent = None,
    **options: Unpack[RunOptions],
) -> RunOutcome:
    """Run a file of the skill's ``scripts/`` with ``args`` (and ``stdin`` text); the files
    it writes are delivered to ``destination`` (inside the deck's project directory) and
    listed in the outcome's ``artifacts``. Returns the ``RunOutcome`` dict.
    """

    def call(token: CancelToken, forward: Any) -> RunOutcome:
        return run_script_sync(
            deck,
            skill,
            script,
            args,
            stdin=stdin,
            destination=destination,
            cancel=token,
            on_event=forward,
            **options,
        )

    return await _in_thread(call, cancel, on_event)


async def call_tool(
    deck: Deck,
    name: str,
    arguments: Optional[Mapping[str, Any]] = None,
    *,
    cancel: Optional[CancelToken] = None,
    on_event: _OnEvent = None,
    **options: Unpack[RunOptions],
) -> RunOutcome:
    """Run a model's tool call: ``name`` as ``tool_definitions``/``agent_tools`` gave it and
    the ``arguments`` object the model produced. An unknown name is ``RunError`` (code
    ``NOT_FOUND``); arguments of the wrong shape are ``InvalidInputError``.
    """

    def call(token: CancelToken, forward: Any) -> RunOutcome:
        return call_tool_sync(deck, name, arguments, cancel=token, on_event=forward, **options)

    return await _in_thread(call, cancel, on_event)


__all__ = ["run_command", "run_script", "call_tool"]
