"""For any input that parses: no codemod crashes, the output parses, a second run is a no-op.

Inputs come from two places: modules hypothesis assembles from training-code fragments
(every codemod's triggers, in every layout we could think of), and real PyTorch source
files (torch's own, from site-packages) mutated by hypothesis. Plus: very large files,
and kill -9 in the middle of `torchfix apply`.
"""

from __future__ import annotations

import base64
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings, FileResult
from torchfix.rewrite import registry

from conftest import EXPLICIT_STRICT_CONFIG

ALL = EngineSettings(
    codemods=tuple(codemod.name for codemod in registry.all_codemods()), unsafe_fixes=True
)
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Statements that trigger the codemods, and ordinary ones around them. `{x}` is a name.
FRAGMENTS = [
    "{x}.load_state_dict(sd)",
    "{x}.load_state_dict(sd, strict=False)",
    "self.{x}.load_state_dict(\n    torch.load(path),\n)",
    "assert {x} > 0, 'must be positive'",
    "assert isinstance({x}, nn.Module)",
    "assert {x} is not None  # checked",
    "assert ({x} ==\n        3), f'got {{{x}}}'",
    "with torch.cuda.amp.autocast():\n    y = {x} @ {x}",
    "scaler = torch.cuda.amp.GradScaler(enabled=True)",
    "torch.save({x}.state_dict(), path)",
    "torch.save({{'model': {x}}}, os.path.join(out, 'ckpt.pt'))",
    "logits = logits.masked_fill(mask, torch.tensor(-1e9, device=logits.device))",
    "y = torch.where(mask, {x}, torch.tensor(0.0))",
    "ratio = torch.exp(new_log_prob - old_log_prob)",
    "ratio = ({x}_logp - old_logp).exp()",
    "y = {x}(obs).cpu().numpy()",
    "print(self.{x}.weight.numpy())",
    "try:\n    {x}.flush()\nexcept Exception:\n    pass",
    "p = 1 / (1 + math.exp(-{x}))",
    "t = {x}.view(-1).kthvalue(int(0.9 * {x}.numel())).values",
    "a = torch.atanh(torch.clamp({x}, -0.999999, 0.999999))",
    "c = torch.log(1 - {x}.pow(2) + 1e-6)",
    "def f({x}: any) -> any:\n    return {x}",
    "self.{x} = nn.Conv1d(8, 8, 3); self.norm = nn.LayerNorm(8)",
    "{x} = [i * 2 for i in range(3)]; z = {x}",
    "if {x}:\n    pass\nelse:\n    {x} = None",
    "for i in range(3):\n    {x} += i",
    "try:\n    {x}()\nexcept AssertionError:\n    pass",
    "# a comment about {x}",
    "return {x}",
    # TorchFix's rules and the torch 2.x migrations (issue 17).
    "{x} = torch.load(path)",
    "ckpt = torch.load(path, map_location='cpu'); {x}.load_state_dict(ckpt['model'])",
    "x = torch.solve(b, {x}).solution",
    "L = torch.cholesky({x}, upper=cfg.upper)",
    "Q, R = torch.qr({x}, some=False)",
    "g = torch.range(0, {x})",
    "from functorch import vmap\nj = vmap({x})",
    "from torch.distributed._tensor import DTensor\n{x} = DTensor",
    "{x}.require_grad = False",
    "y = torch.utils.checkpoint.checkpoint({x}, h)",
    "y = torch.log(1 + {x})",
    "y = torch.exp({x}) - 1",
    "y = torch.log(torch.sum(torch.exp({x}), dim=-1))",
    "{x} = torchvision.models.resnet18(pretrained=True)",
    "{x} = torchvision.models.resnet18(pretrained=cfg.pretrained)",
    "import torchvision.models as models\n{x} = models.vit_h_14(pretrained=True)",
    "{x} = torch.utils.data.DataLoader(ds, batch_size=4)",
    "opt.zero_grad(set_to_none=False)",
    "with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False):\n"
    "    y = {x}(q)",
    "s = torch.optim.lr_scheduler.StepLR(opt, 30, verbose=False)",
    "torch.distributed.checkpoint.save_state_dict({x}.state_dict(), writer)",
    "dt = torch.get_autocast_gpu_dtype(); on = torch.is_autocast_enabled()",
    "{x} = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))",
    "s = {x}.storage()",
]
NAMES = st.sampled_from(["model", "net", "policy", "x", "cfg", "opt", "encoder", "thing"])


@st.composite
def statements(draw: st.DrawFn, depth: int = 0) -> str:
    fragment = draw(st.sampled_from(FRAGMENTS)).format(x=draw(NAMES))
    if depth < 2 and draw(st.booleans()):
        body = draw(st.lists(statements(depth + 1), min_size=1, max_size=4))
        header = draw(st.sampled_from([
            "if {x}:", "for {x} in items:", "with ctx as {x}:", "while {x}:",
            "def step(self, {x}, config):", "class Trainer{x}(nn.Module):",
        ])).format(x=draw(NAMES))
        fragment = header + "\n" + _indent("\n".join(body))
    return fragment


@st.composite
def modules(draw: st.DrawFn) -> bytes:
    body = "\n".join(draw(st.lists(statements(), min_size=1, max_size=8)))
    text = "import os\nimport torch\nfrom torch import nn\n\n" + _wrap_returns(body) + "\n"
    if draw(st.booleans()):
        text = text.replace("    ", "\t")
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    data = text.encode()
    return b"\xef\xbb\xbf" + data if draw(st.booleans()) else data


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else line for line in text.split("\n"))


def _wrap_returns(body: str) -> str:
    # A bare `return` outside a function does not compile; wrap such modules in one.
    try:
        compile(body, "m.py", "exec")
    except SyntaxError:
        return "def main(sd, path, mask, logits, items, ctx):\n" + _indent(body)
    return body


def check_invariants(data: bytes, name: str = "snippet.py") -> FileResult:
    result = process_source(data, Path(name), ALL)
    if result.error is not None:
        assert not result.error.internal, result.error.message
        return result
    if result.output is not None:
        compile(result.output, name, "exec", dont_inherit=True)  # the output is valid Python
        again = process_source(result.output, Path(name), ALL)
        assert again.error is None, again.error
        assert again.output is None, "a second run changed the output again"
    return result


def _compiles(data: bytes) -> bool:
    # A full compile: `return` in a class body parses, but it is not valid Python.
    try:
        compile(data, "m.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


@FUZZ
@given(modules())
def test_fuzzed_training_code_keeps_the_invariants(data):
    if not _compiles(data):
        return  # the property is about input that parses
    check_invariants(data)


def _torch_sources() -> list[Path]:
    try:
        import torch
    except ImportError:
        return []
    root = Path(torch.__file__).parent
    folders = ["nn/modules", "optim", "utils/data", "amp", "distributed/checkpoint"]
    files = [path for folder in folders for path in sorted((root / folder).glob("*.py"))]
    return [path for path in files if path.stat().st_size < 60_000]


TORCH_SOURCES = _torch_sources()


@pytest.mark.skipif(not TORCH_SOURCES, reason="torch is not installed: no real sources")
@FUZZ
@given(
    source=st.sampled_from(TORCH_SOURCES or [Path(__file__)]),
    edits=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["insert", "delete", "copy"]),
                             st.sampled_from(FRAGMENTS), NAMES), max_size=6),
)
def test_mutated_real_pytorch_files_keep_the_invariants(source, edits):
    lines = source.read_text(encoding="utf-8").split("\n")
    for where, action, fragment, name in edits:
        index = int(where * (len(lines) - 1))
        indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
        if action == "insert":
            lines[index:index] = [indent + line for line in fragment.format(x=name).split("\n")]
        elif action == "delete":
            del lines[index]
        else:
            lines.insert(index, lines[index])
    data = "\n".join(lines).encode()
    if _compiles(data):
        check_invariants(data, source.name)


def test_a_5_mb_file(tmp_path, cli):
    # Data embedded in a module (a vocabulary, small weights) is how real .py files reach
    # megabytes. 61,000 string rows keep the test to seconds; a table of 200,000 tuples
    # works too but takes minutes to parse with libcst. 5.2 million bytes: under the
    # default max-file-size (5 MB = 5,242,880 bytes).
    blob = base64.b64encode(random.Random(0).randbytes(3_500_000)).decode()
    rows = "\n".join(f'    "{blob[i:i + 76]}",' for i in range(0, len(blob), 76))
    source = (f"import torch\n\nVOCAB_B64 = [\n{rows}\n]\n\n\n"
              "def resume(model: torch.nn.Module, sd):\n    model.load_state_dict(sd)\n")
    target = tmp_path / "embedded_vocab.py"
    target.write_text(source)
    assert target.stat().st_size > 5_000_000
    result = cli("apply", "--no-cache", ".")
    assert result.exit_code == 0, result.stderr
    assert target.read_text() == source.replace("(sd)", "(sd, strict=True)")


def test_kill_9_during_apply_leaves_each_file_old_or_new_and_a_rerun_finishes(tmp_path):
    old = ("from torch import nn\n\n\n"
           "def resume(model: nn.Module, sd):\n    model.load_state_dict(sd)\n"
           + "# padding\n" * 200)
    new = old.replace("(sd)", "(sd, strict=True)")
    tree = tmp_path / "tree"
    for index in range(600):
        path = tree / f"pkg{index // 50}" / f"mod{index}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(old)
    files = sorted(tree.rglob("*.py"))
    # a subprocess: the project's configuration asks for strict=True where it is the default
    (tree / "pyproject.toml").write_text(EXPLICIT_STRICT_CONFIG)

    command = [sys.executable, "-m", "torchfix", "apply", "--no-cache", "--quiet",
               "--jobs", "2", str(tree)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if any(path.read_text() == new for path in files[::25]):
            break
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)  # the tool and its workers, as a scheduler would
    process.wait()

    contents = [path.read_text() for path in files]
    assert all(text in (old, new) for text in contents), "a file was left half-written"
    assert any(text == new for text in contents)

    finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    assert all(path.read_text() == new for path in files)
