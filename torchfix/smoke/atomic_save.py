"""atomic-save, executed: an interrupted save leaves the old checkpoint or the complete new
one (the original leaves a truncated file), a normal save writes the same bytes with the
same permissions and leaves nothing behind, and file objects are saved as before."""

from __future__ import annotations

import io
import os
import signal
import stat
import time
import warnings
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any

from torchfix.smoke import (
    Scenario,
    ScenarioFailed,
    ScenarioSkipped,
    expect,
    load_module,
    require_cuda,
    require_torch,
    rewrite,
)

CODEMOD = "atomic-save"

CHECKPOINTING = '''
import torch


def save_checkpoint(state, path):
    torch.save(state, path)


def save_legacy(state, path):
    torch.save(state, path, pickle_protocol=2, _use_new_zipfile_serialization=False)


def make_state(value, count, numel):
    return {
        "step": int(value),
        "weights": [torch.full((numel,), float(value)) for _ in range(count)],
    }


def on_epoch_end(state, path):
    save_checkpoint(state, path)


def on_train_end(state, path):
    save_legacy(state, path)

'''

# The interrupted save writes about 100 MB in 1600 records, so the write takes long
# enough to be caught in the middle; the kill comes once this much of it is on disk.
KILL_COUNT, KILL_NUMEL = 1600, 16384
KILL_AFTER_BYTES = 4 << 20
ATTEMPTS = 5
CHILD_TIMEOUT_S = 120.0


def _sources() -> tuple[str, str]:
    fixed = rewrite(CHECKPOINTING, CODEMOD)
    expect("_torchfix_atomic_save(state, path)" in fixed, "save_checkpoint was not rewritten")
    return CHECKPOINTING, fixed


def _modules(folder: Path) -> tuple[ModuleType, ModuleType]:
    original, fixed = _sources()
    return (load_module(original, folder, "checkpointing_before"),
            load_module(fixed, folder, "checkpointing_after"))


def _same_state(torch: Any, loaded: Any, expected: Any) -> bool:
    return (
        loaded["step"] == expected["step"]
        and len(loaded["weights"]) == len(expected["weights"])
        and all(
            torch.equal(a, b)
            for a, b in zip(loaded["weights"], expected["weights"], strict=True)
        )
    )


def _load_or_none(torch: Any, path: Path) -> Any:
    try:
        return torch.load(path, weights_only=True)
    except Exception:  # a truncated zip raises RuntimeError; other damage other things
        return None


def _litter(folder: Path, keep: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir() if entry != keep)


# -- kill -9 in the middle of a save --------------------------------------------------------


def _save_until_killed(
    save: Callable[[], None], partial_file: Callable[[], Path | None]
) -> bool:
    """Run `save()` in a forked child; SIGKILL it once `partial_file()` holds enough bytes.

    True if the child was killed mid-write, False if the save finished first (the caller
    then tries again). Forking from this process, which has torch imported and the state
    built, starts the save in milliseconds where a fresh interpreter takes seconds to
    import torch on a loaded machine. Polls rather than sleeping fixed amounts.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # "fork() in a threaded process"
        pid = os.fork()
    if pid == 0:  # the child: save, then leave without running any of the parent's cleanup
        code = 1
        try:
            save()
            code = 0
        finally:
            os._exit(code)
    deadline = time.monotonic() + CHILD_TIMEOUT_S
    try:
        while True:
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                if os.waitstatus_to_exitcode(status) != 0:
                    raise ScenarioFailed("the saving process failed")
                return False
            path = partial_file()
            try:
                size = path.stat().st_size if path is not None else 0
            except FileNotFoundError:
                size = 0  # renamed or removed between the two calls
            if size >= KILL_AFTER_BYTES:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pid = 0
                return True
            if time.monotonic() > deadline:
                raise ScenarioFailed(f"the saving process did not finish in {CHILD_TIMEOUT_S}s")
            time.sleep(0.0002)
    finally:
        if pid:
            with suppress(ChildProcessError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def _temporary_file(destination: Path) -> Callable[[], Path | None]:
    def find() -> Path | None:
        return next(destination.parent.glob(f".{destination.name}.*.tmp/{destination.name}"),
                    None)
    return find


def _attempts(
    module: ModuleType,
    state: Any,
    folder: Path,
    watch: Callable[[Path], Callable[[], Path | None]],
) -> Iterator[tuple[bool, Path]]:
    """Each attempt: a fresh folder holding the old checkpoint, then a save that is killed."""
    for attempt in range(ATTEMPTS):
        destination = folder / f"attempt-{attempt}" / "ckpt.pt"
        destination.parent.mkdir(parents=True)
        module.save_checkpoint(module.make_state(1.0, 1, 4), destination)
        killed = _save_until_killed(
            lambda d=destination: module.save_checkpoint(state, d), watch(destination)
        )
        yield killed, destination


def kill_mid_write_keeps_a_loadable_checkpoint(folder: Path) -> None:
    torch = require_torch()
    if not hasattr(os, "fork"):
        raise ScenarioSkipped("needs os.fork to kill a save in the middle")
    before, after = _modules(folder)
    old_state = before.make_state(1.0, 1, 4)
    new_state = before.make_state(2.0, KILL_COUNT, KILL_NUMEL)

    # The original, killed mid-write, leaves a truncated checkpoint that does not load.
    truncated = False
    for killed, destination in _attempts(before, new_state, folder / "before",
                                         lambda d: lambda: d):
        if killed:
            truncated = _load_or_none(torch, destination) is None
            if truncated:
                break
    expect(truncated, f"could not interrupt the original save mid-write in {ATTEMPTS} tries")

    # The rewrite, killed mid-write, leaves the old checkpoint; at worst the new one.
    interrupted = False
    for killed, destination in _attempts(after, new_state, folder / "after", _temporary_file):
        loaded = _load_or_none(torch, destination)
        expect(loaded is not None, "the rewritten save left a checkpoint that does not load")
        is_old = _same_state(torch, loaded, old_state)
        expect(is_old or _same_state(torch, loaded, new_state),
               "the rewritten save left a checkpoint that is neither the old nor the new one")
        if killed and is_old:
            # The kill leaves the documented litter: one hidden temporary folder.
            litter = _litter(destination.parent, destination)
            expect(len(litter) == 1 and litter[0].startswith(".ckpt.pt.")
                   and litter[0].endswith(".tmp"),
                   f"unexpected files beside the checkpoint after the kill: {litter}")
            interrupted = True
            break
    expect(interrupted, f"could not interrupt the rewritten save mid-write in {ATTEMPTS} tries")


# -- normal saves ----------------------------------------------------------------------------


def normal_save_same_bytes_no_litter(folder: Path) -> None:
    torch = require_torch()
    before, after = _modules(folder)
    state = before.make_state(3.0, 4, 1000)
    for saver in ("save_checkpoint", "save_legacy"):
        original_dir, fixed_dir = folder / f"{saver}-before", folder / f"{saver}-after"
        original_dir.mkdir()
        fixed_dir.mkdir()
        getattr(before, saver)(state, original_dir / "model.pt")
        getattr(after, saver)(state, str(fixed_dir / "model.pt"))  # a str path too
        # Saving over an existing checkpoint replaces it.
        getattr(after, saver)(before.make_state(4.0, 4, 1000), fixed_dir / "model.pt")
        getattr(after, saver)(state, fixed_dir / "model.pt")
        expect(_litter(fixed_dir, fixed_dir / "model.pt") == [],
               f"{saver}: files left beside the checkpoint: "
               f"{_litter(fixed_dir, fixed_dir / 'model.pt')}")
        # torch.save names the archive inside the file after the file: same bytes.
        expect((original_dir / "model.pt").read_bytes() == (fixed_dir / "model.pt").read_bytes(),
               f"{saver}: the rewritten save wrote different bytes")
        expect(_same_state(torch, torch.load(fixed_dir / "model.pt", weights_only=True), state),
               f"{saver}: the saved state does not load back")


def error_mid_save_keeps_old_checkpoint(folder: Path) -> None:
    torch = require_torch()
    before, after = _modules(folder)
    old_state = before.make_state(1.0, 2, 10)
    broken = {**before.make_state(2.0, 2, 10), "callback": lambda: None}  # cannot pickle
    errors = []
    for module, name in ((before, "before"), (after, "after")):
        (folder / name).mkdir()
        destination = folder / name / "ckpt.pt"
        before.save_checkpoint(old_state, destination)
        try:
            module.save_checkpoint(broken, destination)
        except Exception as exc:
            errors.append(type(exc))
        else:
            raise ScenarioFailed(f"saving an unpicklable object did not raise ({name})")
    expect(errors[0] is errors[1], f"the error changed: {errors[0]} became {errors[1]}")
    expect(_load_or_none(torch, folder / "before" / "ckpt.pt") is None,
           "the original kept the old checkpoint: the scenario proves nothing")
    loaded = _load_or_none(torch, folder / "after" / "ckpt.pt")
    expect(loaded is not None and _same_state(torch, loaded, old_state),
           "a failed rewritten save damaged the old checkpoint")
    expect(_litter(folder / "after", folder / "after" / "ckpt.pt") == [],
           "a failed save left temporary files behind")


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _outcome(call: Callable[[], None]) -> str:
    try:
        call()
    except Exception as exc:
        return type(exc).__name__
    return "saved"


def file_modes_and_links_preserved(folder: Path) -> None:
    require_torch()
    before, after = _modules(folder)
    state = before.make_state(1.0, 2, 10)
    (folder / "before").mkdir()
    (folder / "after").mkdir()

    def both(name: str) -> tuple[Path, Path]:
        return folder / "before" / name, folder / "after" / name

    # New files: the umask decides, as it did (mkstemp would have made them 0600).
    for mask in (0o022, 0o077, 0o002):
        original, fixed = both(f"new-{mask:o}.pt")
        with _umask(mask):
            before.save_checkpoint(state, original)
            after.save_checkpoint(state, fixed)
        expect(_mode(fixed) == _mode(original) == 0o666 & ~mask,
               f"umask {mask:o}: new file mode {_mode(fixed):o}, the original gave "
               f"{_mode(original):o}")

    # Existing files keep their mode, also one the umask would not give.
    for mode in (0o640, 0o664, 0o600):
        original, fixed = both(f"existing-{mode:o}.pt")
        for path in (original, fixed):
            before.save_checkpoint(state, path)
            path.chmod(mode)
        with _umask(0o022):
            before.save_checkpoint(state, original)
            after.save_checkpoint(state, fixed)
        expect(_mode(fixed) == _mode(original) == mode,
               f"an existing {mode:o} checkpoint became {_mode(fixed):o}")

    # A read-only checkpoint stays protected exactly as before (root may still write it).
    original, fixed = both("read-only.pt")
    for path in (original, fixed):
        before.save_checkpoint(state, path)
        path.chmod(0o444)
    outcomes = (_outcome(lambda: before.save_checkpoint(state, original)),
                _outcome(lambda: after.save_checkpoint(state, fixed)))
    expect(outcomes[0] == outcomes[1],
           f"a read-only checkpoint: the original {outcomes[0]}, the rewrite {outcomes[1]}")
    expect(_mode(fixed) == 0o444, "the read-only checkpoint lost its mode")

    # A symlinked destination is written through; the link stays a link.
    new_state = before.make_state(5.0, 2, 10)
    for side in ("before", "after"):
        target, link = folder / side / "ckpt-000100.pt", folder / side / "latest.pt"
        before.save_checkpoint(state, target)
        link.symlink_to(target.name)
        (before if side == "before" else after).save_checkpoint(new_state, link)
        expect(link.is_symlink(), f"{side}: the symlink was replaced by a file")
        expect(target.read_bytes() == (folder / "before" / "ckpt-000100.pt").read_bytes(),
               f"{side}: the symlink's target holds different bytes")

    # Hard links keep seeing the same file: a rename would have split them.
    original, fixed = both("hard.pt")
    for path in (original, fixed):
        before.save_checkpoint(state, path)
        os.link(path, path.with_name("hard-link.pt"))
    before.save_checkpoint(new_state, original)
    after.save_checkpoint(new_state, fixed)
    expect(fixed.with_name("hard-link.pt").read_bytes() == fixed.read_bytes(),
           "the hard link no longer shows the saved checkpoint")
    expect(fixed.read_bytes() == original.read_bytes(), "the hard-linked save differs")


# -- destinations that are not paths ---------------------------------------------------------


def file_objects_saved_as_before(folder: Path) -> None:
    require_torch()
    before, after = _modules(folder)
    state = before.make_state(7.0, 3, 100)
    outputs: dict[str, list[bytes]] = {}
    for module, name in ((before, "before"), (after, "after")):
        buffer = io.BytesIO()
        module.save_checkpoint(state, buffer)
        handle_path = folder / f"{name}-handle.pt"
        with open(handle_path, "wb") as handle:
            module.save_checkpoint(state, handle)
        zip_path = folder / f"{name}-bundle.zip"
        with zipfile.ZipFile(zip_path, "w") as bundle, bundle.open("model.pt", "w") as member:
            module.save_checkpoint(state, member)
        with zipfile.ZipFile(zip_path) as bundle:
            member_bytes = bundle.read("model.pt")
        outputs[name] = [buffer.getvalue(), handle_path.read_bytes(), member_bytes]
    for kind, original, fixed in zip(("BytesIO", "open file", "zip member"),
                                     outputs["before"], outputs["after"], strict=True):
        expect(original == fixed, f"{kind}: the rewritten save wrote different bytes")
    expect(sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(".")) == [],
           "saving to file objects left temporary files")


# -- CUDA --------------------------------------------------------------------------------------


def cuda_tensors_round_trip(folder: Path) -> None:
    torch = require_cuda()
    before, after = _modules(folder)
    state = {"step": 3, "weights": [torch.randn(256, device="cuda") for _ in range(4)]}
    original, fixed = folder / "before" / "ckpt.pt", folder / "after" / "ckpt.pt"
    for path, module in ((original, before), (fixed, after)):
        path.parent.mkdir()
        module.save_checkpoint(state, path)
    expect(original.read_bytes() == fixed.read_bytes(),
           "the rewritten save wrote different bytes for CUDA tensors")
    on_cpu = torch.load(fixed, map_location="cpu", weights_only=True)
    expect(all(tensor.device.type == "cpu" for tensor in on_cpu["weights"]),
           "map_location='cpu' did not move the tensors to the CPU")
    expect(_same_state(torch, on_cpu, {**state, "weights": [t.cpu() for t in state["weights"]]}),
           "CUDA tensors changed on the way through the file (map_location='cpu')")
    on_gpu = torch.load(fixed, map_location="cuda:0", weights_only=True)
    expect(all(tensor.is_cuda for tensor in on_gpu["weights"]),
           "map_location='cuda:0' did not put the tensors on the GPU")
    expect(_same_state(torch, on_gpu, state), "CUDA tensors changed (map_location='cuda:0')")


SCENARIOS = [
    Scenario(CODEMOD, "kill_mid_write_keeps_a_loadable_checkpoint",
             kill_mid_write_keeps_a_loadable_checkpoint),
    Scenario(CODEMOD, "normal_save_same_bytes_no_litter", normal_save_same_bytes_no_litter),
    Scenario(CODEMOD, "error_mid_save_keeps_old_checkpoint", error_mid_save_keeps_old_checkpoint),
    Scenario(CODEMOD, "file_modes_and_links_preserved", file_modes_and_links_preserved),
    Scenario(CODEMOD, "file_objects_saved_as_before", file_objects_saved_as_before),
    Scenario(CODEMOD, "cuda_tensors_round_trip", cuda_tensors_round_trip, needs_cuda=True),
]
