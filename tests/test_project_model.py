"""The project model's answers that codemods rely on: the torch floor and min-torch."""

from __future__ import annotations

import pytest

from torchfix.model.project import Project
from torchfix.model.torch_floor import find_torch_floor, requirement_floor


@pytest.mark.parametrize(("line", "floor"), [
    ("torch==2.0.0", (2, 0)),
    ("torch>=1.13,<3", (1, 13)),
    ("torch==2.0.1+cu118 ; sys_platform == 'linux'", (2, 0)),
    ("pytorch=2.1", (2, 1)),
    ("pytorch==2.0.0=py3.10_cuda11.7_cudnn8.5.0_0", (2, 0)),
    ("torch", None),
    ("torchvision==0.15.1", None),
    ("pytorch-cuda=11.8", None),
    # A direct reference names a wheel, not a version range: no floor (not 118.0).
    ("torch @ https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-linux.whl",
     None),
])
def test_requirement_floor(line, floor):
    assert requirement_floor(line) == floor


def test_floor_from_a_conda_environment_file(tmp_path):
    (tmp_path / "environment.yaml").write_text(
        "name: seg\nchannels:\n  - pytorch\ndependencies:\n  - python=3.10\n"
        "  - pytorch=2.1\n  - pytorch-cuda=11.8\n  - pip:\n      - timm==0.9.2\n")
    floor = find_torch_floor(tmp_path)
    assert floor is not None
    assert (floor.version, floor.source) == ((2, 1), "environment.yaml")


def test_the_lowest_declared_floor_wins(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch==2.0.0\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n'
                                             'dependencies = ["torch>=2.2"]\n')
    floor = find_torch_floor(tmp_path)
    assert floor is not None
    assert (floor.version, floor.source) == ((2, 0), "requirements.txt")


def test_configured_min_torch_wins_and_is_a_fact_of_the_result(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch==2.0.0\n")
    configured = Project(tmp_path, configured_min_torch=(2, 4))
    assert configured.min_torch() == (2, 4)
    # Not part of the engine's settings: a cached result that read it must be redone
    # when it changes.
    assert configured.facts_read["config:min-torch"] == repr((2, 4))
    assert Project(tmp_path).current_digest("config:min-torch") != repr((2, 4))


def test_without_configuration_min_torch_is_the_floor(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch==2.0.0\n")
    project = Project(tmp_path)
    assert project.min_torch() == (2, 0)
    assert project.facts_read["config:min-torch"] == repr(None)
    assert project.facts_read["project:torch-floor"] == repr((2, 0))
