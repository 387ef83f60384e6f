"""amp-api behaviour that golden files cannot show: the `min-torch` option, read from
pyproject.toml, and its validation; which of the configuration and the project's torch
floor wins, and that a cached result does not hide a new one."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from codemods.migrations.amp_api import parse_version
from torchfix.cli import app
from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings
from torchfix.rewrite.contract import Safety

TRAINER = """\
import torch
from torch.cuda.amp import GradScaler, autocast, custom_fwd


class Square(torch.autograd.Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, x):
        return x * x


def step(model, batch, use_amp):
    scaler = GradScaler(enabled=use_amp)
    with autocast(use_amp):
        loss = model(batch)
    return scaler.scale(loss)
"""


@pytest.fixture(autouse=True)
def _project_of_its_own(tmp_path, monkeypatch):
    # A file named alone belongs to the folder holding it: an empty one, not this
    # repository, whose golden cases hold amp shims and torch floors of their own.
    monkeypatch.chdir(tmp_path)


def _run(source: str, min_torch: str) -> tuple[str | None, list[str]]:
    settings = EngineSettings(codemods=("amp-api",), options={"amp-api": {"min-torch": min_torch}})
    result = process_source(source.encode(), Path("trainer.py"), settings)
    assert result.error is None, result.error
    manual = [c.message for c in result.changes if c.safety is Safety.MANUAL]
    return (result.output.decode() if result.output else None), manual


def test_min_torch_keeps_replacements_that_need_a_newer_torch():
    output, manual = _run(TRAINER, "2.1")
    assert output is not None
    # autocast moves; GradScaler (torch 2.3) and custom_fwd (2.4) stay, and are reported.
    kept_and_moved = (
        "from torch.cuda.amp import GradScaler, custom_fwd\nfrom torch.amp import autocast\n"
    )
    assert kept_and_moved in output
    assert 'with autocast("cuda", enabled=use_amp):' in output
    assert "scaler = GradScaler(enabled=use_amp)" in output
    assert "    @custom_fwd\n" in output
    assert len(manual) == 2
    assert any("torch.amp.GradScaler needs torch >= 2.3 (min-torch is 2.1)" in m for m in manual)
    assert any("torch.amp.custom_fwd needs torch >= 2.4 (min-torch is 2.1)" in m for m in manual)


def test_min_torch_2_3_moves_grad_scaler_but_not_custom_fwd():
    output, manual = _run(TRAINER, "2.3")
    assert output is not None
    kept_and_moved = (
        "from torch.cuda.amp import custom_fwd\nfrom torch.amp import GradScaler, autocast\n"
    )
    assert kept_and_moved in output
    assert len(manual) == 1


def test_default_min_torch_moves_everything():
    output, manual = _run(TRAINER, "2.4.1")
    assert output is not None
    assert "from torch.amp import GradScaler, autocast, custom_fwd\n" in output
    assert '@custom_fwd(device_type="cuda")' in output
    assert not manual


def test_min_torch_from_pyproject(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[tool.torchfix.amp-api]\nmin-torch = "2.2"\n')
    (tmp_path / "trainer.py").write_text(TRAINER)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "--select", "amp-api", "--quiet", "--show-all",
                                       "trainer.py"])
    assert "torch.amp.GradScaler needs torch >= 2.3 (min-torch is 2.2)" in result.stdout


@pytest.mark.parametrize(("text", "version"), [("2.4", (2, 4)), ("2.3.1", (2, 3)), ("3", (3, 0))])
def test_parse_version(text, version):
    assert parse_version(text) == version


def test_invalid_min_torch_is_a_clear_error():
    with pytest.raises(ValueError, match=r"min-torch must look like '2\.4'"):
        parse_version("latest")


def test_invalid_min_torch_fails_the_file_not_the_run():
    settings = EngineSettings(codemods=("amp-api",), options={"amp-api": {"min-torch": "latest"}})
    result = process_source(TRAINER.encode(), Path("trainer.py"), settings)
    assert result.error is not None
    assert "min-torch must look like '2.4', got 'latest'" in result.error.message


def test_invalid_min_torch_in_pyproject_is_a_usage_error(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from torchfix.cli import app

    (tmp_path / "pyproject.toml").write_text('[tool.torchfix.amp-api]\nmin-torch = "latest"\n')
    (tmp_path / "trainer.py").write_text(TRAINER)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "."])
    assert result.exit_code == 2
    assert "[tool.torchfix.amp-api] min-torch: amp-api: min-torch must look like" in result.stderr


# -- the project's torch floor --------------------------------------------------------------


def _check_project(tmp_path, monkeypatch, files: dict[str, str]) -> str:
    for name, text in {"trainer.py": TRAINER, **files}.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "--select", "amp-api", "--quiet", "--show-all",
                                      "."])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_requirements_pin_is_the_floor(tmp_path, monkeypatch):
    output = _check_project(tmp_path, monkeypatch, {"requirements.txt": "torch==2.0.0\n"})
    # autocast exists in torch.amp on 2.0 and moves; GradScaler (2.3) and custom_fwd (2.4)
    # would be ImportErrors for the project's users, so they are reported, saying why.
    assert "import autocast from torch.amp" in output
    assert ("torch.amp.GradScaler needs torch >= 2.3 (min-torch is 2.0, from "
            "requirements.txt)") in output
    assert "torch.amp.custom_fwd needs torch >= 2.4 (min-torch is 2.0, from requirements.txt)" \
        in output


def test_conda_environment_pin_is_the_floor(tmp_path, monkeypatch):
    environment = "name: train\ndependencies:\n  - python=3.10\n  - pytorch=2.3\n"
    output = _check_project(tmp_path, monkeypatch, {"environment.yml": environment})
    assert "import GradScaler, autocast from torch.amp" in output
    assert "torch.amp.custom_fwd needs torch >= 2.4 (min-torch is 2.3, from environment.yml)" \
        in output


def test_top_level_min_torch_wins_over_the_floor(tmp_path, monkeypatch):
    output = _check_project(tmp_path, monkeypatch, {
        "requirements.txt": "torch==2.0.0\n",
        "pyproject.toml": '[tool.torchfix]\nmin-torch = "2.3"\n',
    })
    assert "import GradScaler, autocast from torch.amp" in output
    assert "torch.amp.custom_fwd needs torch >= 2.4 (min-torch is 2.3)" in output


def test_the_codemods_own_min_torch_wins_over_the_top_level_one(tmp_path, monkeypatch):
    output = _check_project(tmp_path, monkeypatch, {
        "requirements.txt": "torch==2.0.0\n",
        "pyproject.toml": '[tool.torchfix]\nmin-torch = "2.4"\n\n'
                          '[tool.torchfix.amp-api]\nmin-torch = "2.1"\n',
    })
    assert "import autocast from torch.amp" in output
    assert "torch.amp.GradScaler needs torch >= 2.3 (min-torch is 2.1)" in output


def test_without_configuration_or_floor_newer_apis_are_unsafe(tmp_path, monkeypatch):
    # torch unpinned: torch.amp.autocast (any torch 2) stays safe; GradScaler (2.3) and
    # custom_fwd (2.4) are still migrated, but only as unsafe fixes that say why.
    output = _check_project(tmp_path, monkeypatch, {"requirements.txt": "torch\nnumpy>=1.24\n"})
    assert "import autocast from torch.amp" in output
    assert ("torch.amp.GradScaler needs torch >= 2.3, and the project declares no torch "
            "version") in output
    assert "torch.amp.custom_fwd needs torch >= 2.4, and the project declares no torch" in output
    assert "(min-torch is" not in output


def test_a_new_floor_or_min_torch_is_not_hidden_by_the_cache(tmp_path, monkeypatch):
    pinned = _check_project(tmp_path, monkeypatch, {"requirements.txt": "torch==2.0.0\n"})
    assert "needs torch >= 2.4" in pinned
    bumped = _check_project(tmp_path, monkeypatch, {"requirements.txt": "torch==2.4.1\n"})
    assert "needs torch" not in bumped
    configured = _check_project(tmp_path, monkeypatch, {
        "pyproject.toml": '[tool.torchfix]\nmin-torch = "2.2"\n'})
    assert "torch.amp.GradScaler needs torch >= 2.3 (min-torch is 2.2)" in configured
