"""The project model: what other modules of the repository define, read lazily."""

from __future__ import annotations

import ast
import datetime
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from torchfix.model.module_names import module_name_for
from torchfix.model.project import ABSENT, Project
from torchfix.model.python_floor import find_python_floor
from torchfix.model.torch_era import find_torch_era
from torchfix.model.torch_floor import (
    find_dependencies_without_torch,
    find_torch_floor,
    parse_floor,
    requirement_floor,
)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path, {
        "rlpkg/__init__.py": "",
        "rlpkg/constants.py": "MASKED_LOGIT_VALUE = -1e4\nGAMMA = 0.99\nCHANGED = 1\nCHANGED = 2\n",
        "rlpkg/agents/__init__.py": "from .updaters import TargetNetUpdater\n"
                                    "from rlpkg.constants import *\n",
        "rlpkg/agents/updaters.py": """
            import torch.nn as nn

            class TargetNetUpdater:
                def __init__(self, net):
                    self.net = net

                def load_state_dict(self, state_dict):
                    pass

            class Base(nn.Module):
                pass

            class QNet(Base):
                def __init__(self):
                    super().__init__()
                    self.updater = TargetNetUpdater(self)
                    self.head = nn.Linear(3, 3).to("cpu")

            class Loop(Base, QNet):  # a diamond, and a cycle guard
                pass
        """,
        "src/otherpkg/__init__.py": "VALUE = 3\n",
    })
    return tmp_path


def test_module_names_follow_packages(repo: Path) -> None:
    name = module_name_for(repo / "rlpkg/agents/updaters.py")
    assert (name.name, name.is_package, name.source_root) == ("rlpkg.agents.updaters", False, repo)
    package = module_name_for(repo / "rlpkg/agents/__init__.py")
    assert (package.name, package.is_package) == ("rlpkg.agents", True)
    assert module_name_for(repo / "script.py").name == "script"


def test_classes_resolve_through_re_exports(repo: Path) -> None:
    project = Project(repo)
    facts = project.class_facts("rlpkg.agents.TargetNetUpdater")
    assert facts is not None and facts.qualified_name == "rlpkg.agents.updaters.TargetNetUpdater"
    owner, signature = project.find_method("rlpkg.agents.TargetNetUpdater", "load_state_dict")
    assert owner == "rlpkg.agents.updaters.TargetNetUpdater"
    assert not signature.accepts_keyword("strict")
    assert signature.names() == ("self", "state_dict")


def test_the_class_hierarchy_reaches_outside_the_project(repo: Path) -> None:
    project = Project(repo)
    assert list(project.ancestors("rlpkg.agents.updaters.QNet")) == [
        "rlpkg.agents.updaters.Base", "torch.nn.Module"]
    # Each class once, whatever the shape of the hierarchy.
    assert list(project.ancestors("rlpkg.agents.updaters.Loop")) == [
        "rlpkg.agents.updaters.Base", "rlpkg.agents.updaters.QNet", "torch.nn.Module"]
    # What `self.<name> = ...` builds, qualified in the defining module.
    assert project.class_facts("rlpkg.agents.updaters.QNet").attributes == {
        "updater": ("rlpkg.agents.updaters.TargetNetUpdater",),
        "head": ("torch.nn.Linear",),
    }


def test_constants_resolve_through_star_imports_and_src_layouts(repo: Path) -> None:
    project = Project(repo)
    assert project.constant("rlpkg.constants.MASKED_LOGIT_VALUE") == -1e4
    assert project.constant("rlpkg.agents.GAMMA") == 0.99  # `from rlpkg.constants import *`
    assert project.constant("rlpkg.constants.CHANGED") is None  # bound twice
    assert project.constant("otherpkg.VALUE") == 3  # under src/
    assert project.constant("torch.pi") is None  # not the project's


def test_every_fact_read_is_noted_with_its_digest(repo: Path) -> None:
    project = Project(repo)
    project.begin_file(repo / "rlpkg/agents/updaters.py")
    project.constant("rlpkg.constants.GAMMA")
    read = project.facts_read
    assert read["module:rlpkg.constants"] == project.current_digest("module:rlpkg.constants")
    assert read["module:rlpkg.constants.GAMMA"] == ABSENT
    (repo / "rlpkg/constants.py").write_text("GAMMA = 0.9\n")
    later = Project(repo)  # a new run
    assert later.current_digest("module:rlpkg.constants") != read["module:rlpkg.constants"]
    project.begin_file(repo / "other.py")
    assert project.facts_read == {}


def test_the_project_travels_to_workers_without_its_memory(repo: Path) -> None:
    import pickle

    project = Project(repo)
    project.class_facts("rlpkg.agents.TargetNetUpdater")
    copy = pickle.loads(pickle.dumps(project))
    assert copy._modules == {} and copy.root == project.root
    assert copy.class_facts("rlpkg.agents.TargetNetUpdater") is not None


@pytest.mark.parametrize(("spec", "floor"), [
    ("==2.0.0", (2, 0)), (">=1.13,<3", (1, 13)), ("~=2.1", (2, 1)), ("^2.2", (2, 2)),
    ("<2.3", None), ("2.0.*", (2, 0)), ("!=2.1", None), (">2.4", (2, 4)),
])
def test_version_floors(spec: str, floor: tuple[int, int] | None) -> None:
    assert parse_floor(spec) == floor


def test_requirement_lines_name_torch_only() -> None:
    assert requirement_floor("torch==2.0.0") == (2, 0)
    assert requirement_floor("torch[opt]>=2.1 ; python_version>'3.8'") == (2, 1)
    assert requirement_floor("pytorch=2.1") == (2, 1)  # conda
    assert requirement_floor("pytorch 2.1.*") == (2, 1)
    assert requirement_floor("torchvision==0.16") is None
    assert requirement_floor("torch") is None


def test_the_lowest_declared_floor_wins(tmp_path: Path) -> None:
    assert find_torch_floor(tmp_path) is None
    write(tmp_path, {"pyproject.toml": '[project]\ndependencies = ["torch>=2.2"]\n'})
    assert find_torch_floor(tmp_path).version == (2, 2)
    write(tmp_path, {"requirements-dev.txt": "numpy\ntorch==2.0.0\n"})
    floor = find_torch_floor(tmp_path)
    assert (floor.version, floor.source) == ((2, 0), "requirements-dev.txt")
    write(tmp_path, {"environment.yml": "dependencies:\n  - pytorch=1.13\n  - pip\n"})
    assert find_torch_floor(tmp_path).version == (1, 13)


def test_torch_among_the_build_requirements_is_a_floor(tmp_path: Path) -> None:
    # rethge-torch (round 58) lists its dependencies under [build-system] only; setuptools
    # there is no dependency of the project, torch is
    write(tmp_path, {"pyproject.toml": '[build-system]\nrequires = ["setuptools>=61.0", '
                                       '"torch>=1.13.1", "numpy>=1.25"]\n'})
    floor = find_torch_floor(tmp_path)
    assert (floor.version, floor.source) == ((1, 13), "pyproject.toml")
    write(tmp_path, {"pyproject.toml": '[build-system]\nrequires = ["setuptools", "wheel"]\n'
                                       '[project]\nname = "x"\n'})
    assert find_torch_floor(tmp_path) is None


def test_every_metadata_file_is_read(tmp_path: Path) -> None:
    cases = {
        "setup.cfg": "[options]\ninstall_requires =\n    numpy\n    torch>=1.12\n",
        "setup.py": "from setuptools import setup\nsetup(install_requires=['torch>=1.11'])\n",
        "requirements/base.txt": "torch==1.10.2\n",
        "pyproject.toml": '[tool.poetry.dependencies]\ntorch = "^1.9"\n',
    }
    for name, text in cases.items():
        folder = tmp_path / name.replace("/", "_").replace(".", "_")
        write(folder, {name: text})
        assert find_torch_floor(folder) is not None, name


def test_torch_ceiling_is_the_first_version_a_requirement_no_longer_admits(
        tmp_path: Path) -> None:
    from torchfix.model.torch_floor import find_torch_ceiling, parse_ceiling

    assert [parse_ceiling(spec) for spec in (
        ">=2.0,<2.2", "<=2.3.1", "<2.4.1", ">=1.13", "==2.0.0", "~=2.1")] == [
        (2, 2), (2, 4), (2, 5), None, None, None]
    write(tmp_path, {"pyproject.toml": '[project]\ndependencies = ["torch>=2.0,<2.2"]\n',
                     "requirements-dev.txt": "torch<2.6\nnumpy<2\n"})
    ceiling = find_torch_ceiling(tmp_path)
    assert ceiling is not None and (ceiling.version, ceiling.source) == (
        (2, 2), "pyproject.toml")
    # what pip holds a package's users to: an exact pin of its install requirements
    # bounds torch; the same pin in a requirements file is an environment's lock
    assert parse_ceiling("==1.9.0", pins=True) == (1, 10)
    assert parse_ceiling("==1.9.*", pins=True) is None
    locked = tmp_path / "locked"
    write(locked, {"requirements.txt": "torch==1.9.0\n"})
    assert find_torch_ceiling(locked) is None
    write(locked, {"pkg.egg-info/requires.txt": "numpy\ntorch==1.9.0\n[dev]\ntorch==2.4\n"})
    ceiling = find_torch_ceiling(locked)
    assert ceiling is not None and (ceiling.version, ceiling.source) == (
        (1, 10), "pkg.egg-info/requires.txt")


def test_python_floor_from_every_metadata_file(tmp_path: Path) -> None:
    cases = {
        "pyproject.toml": ('[project]\nrequires-python = ">=3.9"\n', (3, 9)),
        "setup.cfg": ("[options]\npython_requires = >=3.8\n", (3, 8)),
        "setup.py": "from setuptools import setup\nsetup(python_requires='>=3.7')\n",
        "PKG-INFO": ("Metadata-Version: 2.1\nRequires-Python: >=2.7,!=3.0.*,!=3.1.*\n\n"
                     "Requires-Python: >=3.12 in the README body is not metadata\n", (2, 7)),
    }
    for name, case in cases.items():
        text, expected = case if isinstance(case, tuple) else (case, (3, 7))
        folder = tmp_path / name.replace(".", "_")
        assert find_python_floor(folder) is None
        write(folder, {name: text})
        floor = find_python_floor(folder)
        assert floor is not None and (floor.version, floor.source) == (expected, name), name
    both = tmp_path / "both"
    write(both, {"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\n',
                 "setup.py": "setup(python_requires='>=3.6')\n"})
    assert find_python_floor(both).version == (3, 6)  # the lowest wins
    # an old-style `Description:` header continues over lines of spaces, headers follow
    # (pytorch-fasterrcnn's PKG-INFO, round 38)
    described = tmp_path / "described"
    described.mkdir()
    (described / "PKG-INFO").write_text(  # not dedented: the line of spaces is the point
        "Metadata-Version: 2.1\nDescription: # Title\n        \n        text\n"
        "Requires-Python: >=3.6\n\nbody\n")
    assert find_python_floor(described).version == (3, 6)


def test_python_floor_from_trove_classifiers_where_nothing_else_declares_one(
        tmp_path: Path) -> None:
    # inferno-pytorch (round 42) lists Python 3.5 and 3.6 and declares no Requires-Python
    classifiers = ("Classifier: Programming Language :: Python :: 3.6\n"
                   "Classifier: Programming Language :: Python :: 3.5\n")
    write(tmp_path / "sdist", {"PKG-INFO": "Metadata-Version: 2.1\n" + classifiers
                               + "\nProgramming Language :: Python :: 2.7 in the README\n"})
    floor = find_python_floor(tmp_path / "sdist")
    assert floor is not None and floor.version == (3, 5)
    assert floor.source == "the classifiers of PKG-INFO"
    write(tmp_path / "setup", {"setup.py": "setup(classifiers=[\n"
                               "    'Programming Language :: Python :: 3.7',\n"
                               "    'Programming Language :: Python :: 3 :: Only',\n])\n"})
    assert find_python_floor(tmp_path / "setup").version == (3, 7)
    write(tmp_path / "toml", {"pyproject.toml": '[project]\nclassifiers = '
                              '["Programming Language :: Python :: 3.9"]\n'})
    assert find_python_floor(tmp_path / "toml").version == (3, 9)
    # a declared Requires-Python wins over the classifiers (often left stale)
    write(tmp_path / "sdist", {"setup.cfg": "[options]\npython_requires = >=3.8\n"})
    assert find_python_floor(tmp_path / "sdist").version == (3, 8)


def test_python_floor_from_the_codes_own_version_checks(tmp_path: Path) -> None:
    python_2 = "import sys\nOLD = sys.version_info[0] == 2\n"
    f_string = "def name(x):\n    return f'{x}.pt'\n"
    # pytorch-pretrained-bert (round 23) branches on Python 2 and declares nothing
    write(tmp_path / "old", {"pkg/a.py": python_2, "pkg/b.py": python_2, "pkg/c.py": f_string})
    floor = find_python_floor(tmp_path / "old")
    assert floor is not None and floor.version == (2, 7)
    assert floor.source == "the Python version check at pkg/a.py:2"
    # a branch below 3.4 runs on 3.3; one that refuses the older Python says nothing
    write(tmp_path / "branch", {"pkg/a.py": "import sys\nNEW = sys.version_info >= (3, 4)\n",
                                "pkg/b.py": "import sys\nif sys.version_info < (3, 6):\n"
                                            "    sys.exit('Python 3.6 is required')\n"})
    assert find_python_floor(tmp_path / "branch").version == (3, 3)
    # more modules with f-strings than with Python 2 branches: the branch is a leftover
    write(tmp_path / "new", {"pkg/a.py": python_2, "pkg/b.py": f_string, "pkg/c.py": f_string})
    assert find_python_floor(tmp_path / "new") is None
    # a declared floor wins over the code
    write(tmp_path / "old", {"pyproject.toml": '[project]\nrequires-python = ">=3.8"\n'})
    assert find_python_floor(tmp_path / "old").version == (3, 8)


def test_configured_min_torch_wins_over_the_floor(tmp_path: Path) -> None:
    write(tmp_path, {"requirements.txt": "torch==2.0\n"})
    assert Project(tmp_path).min_torch() == (2, 0)
    assert Project(tmp_path, configured_min_torch=(2, 4)).min_torch() == (2, 4)


def test_tests_expecting_assertion_errors(tmp_path: Path) -> None:
    write(tmp_path, {
        "tests/test_config.py": """
            import pytest
            from pkg.config import make_config, check_gamma

            def test_gamma():
                with pytest.raises(AssertionError, match="gamma must"):
                    make_config(gamma=2)

            def test_called_form(self):
                self.assertRaises(AssertionError, check_gamma, 3)

            def test_other():
                with pytest.raises(ValueError):
                    make_config(lr=-1)
        """,
        "pkg/config.py": "def make_config(gamma):\n    assert gamma < 1\n",  # not a test file
    })
    expectations = Project(tmp_path).assertion_expectations()
    assert [(e.path, sorted(e.callees), e.pattern) for e in expectations] == [
        ("tests/test_config.py", ["make_config"], "gamma must"),
        ("tests/test_config.py", ["check_gamma"], None),
    ]
    expected = expectations[0]
    assert expected.matches("make_config", "gamma must be below 1")
    assert not expected.matches("make_config", "lr must be positive")
    assert expected.matches("make_config", None)  # a message that is not a literal
    assert not expected.matches("other_function", "gamma must be below 1")


def test_parametrized_tests_expect_the_assertion_error_of_their_rows(tmp_path: Path) -> None:
    # renate's test_l2p.py (round 27): the exception and the class come from the rows
    write(tmp_path, {
        "tests/test_pool.py": """
            import pytest
            from pkg.pool import Pool, Prompt

            @pytest.mark.parametrize(
                "cls,arg,error",
                [[Pool, "fn", ValueError], [Prompt, "features", AssertionError]],
            )
            def test_raises(cls, arg, error):
                with pytest.raises(error):
                    cls(**{arg: "bad"})
        """,
    })
    expectations = Project(tmp_path).assertion_expectations()
    assert len(expectations) == 1
    assert expectations[0].matches("Prompt", "anything")
    assert not expectations[0].matches("Pool", "anything")  # its row expects ValueError


def test_calling_a_metric_instance_reaches_its_update(tmp_path: Path) -> None:
    # renate's regression metrics (round 27): `metric(new, old, gt)` runs torchmetrics'
    # forward, which runs the project's `update`
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/metric.py": """
            from torchmetrics import Metric

            class FlipRate(Metric):
                def update(self, new, old):
                    assert new.shape == old.shape, "shapes differ"
        """,
        "tests/test_metric.py": """
            import pytest
            from pkg.metric import FlipRate

            def test_shapes():
                metric = FlipRate()
                with pytest.raises(AssertionError):
                    metric([1, 2], [1])
        """,
    })
    assert "pkg.metric.FlipRate.update" in Project(tmp_path).assertion_reach()


def test_a_method_of_what_a_call_returns_is_a_callee(tmp_path: Path) -> None:
    # crypten's test_communicator.py (round 28): `comm.get().set_name(0)`
    write(tmp_path, {"tests/test_comm.py": """
        import pytest
        from pkg import comm

        def test_bad_name():
            with pytest.raises(AssertionError):
                comm.get().set_name(0)
    """})
    (expectation,) = Project(tmp_path).assertion_expectations()
    assert expectation.matches("set_name", "Improper name")


def test_a_test_class_helper_method_is_followed(tmp_path: Path) -> None:
    # joeynmt's test_prediction.py (round 28): `self._translate(n)` runs `predict`
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/search.py": """
            def predict(n_best, beam_size):
                assert n_best <= beam_size, "n_best must not exceed beam_size"
        """,
        "tests/test_prediction.py": """
            import unittest
            from pkg.search import predict

            class TestPrediction(unittest.TestCase):
                def _translate(self, n_best):
                    return predict(n_best, 5)

                def test_too_many(self):
                    with self.assertRaises(AssertionError):
                        self._translate(10)
        """,
    })
    assert "pkg.search.predict" in Project(tmp_path).assertion_reach()


def test_a_python_floor_bounds_the_torch_floor_where_none_is_declared(tmp_path: Path) -> None:
    # medcam (round 27): python_requires=">=3.6" and no torch requirement: its users on
    # Python 3.6 have torch 1.10 at most
    write(tmp_path, {"setup.py": "from setuptools import setup\n"
                                 "setup(name='m', python_requires='>=3.6')\n"})
    assert Project(tmp_path).torch_floor().version == (1, 10)
    write(tmp_path, {"requirements.txt": "torch>=2.0\n"})  # a declared floor wins
    assert Project(tmp_path).torch_floor().version == (2, 0)
    write(tmp_path / "new", {"setup.py": "from setuptools import setup\n"
                                         "setup(name='m', python_requires='>=3.10')\n"})
    assert Project(tmp_path / "new").torch_floor() is None
    # ring-flash-attn (round 31): `requires-python = ">=3.8"` and nothing else; its users'
    # torch is at most 2.4, and may be any torch 2 release: no floor above 2.0 from that
    write(tmp_path / "py38", {"pyproject.toml": '[project]\nname = "m"\n'
                                                'requires-python = ">=3.8"\n'})
    assert Project(tmp_path / "py38").torch_floor() is None


def test_tests_name_what_they_call(tmp_path: Path) -> None:
    write(tmp_path, {"tests/test_a.py": "from pkg import scale\n\ndef test_scale():\n"
                                       "    assert scale(2) == 4\n"})
    project = Project(tmp_path)
    assert project.named_by_tests("scale") and not project.named_by_tests("shift")


def test_tests_reach_asserts_through_the_calls_they_make(tmp_path: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "from pkg.model import Model\n",
        "pkg/config.py": """
            class Config:
                def __post_init__(self):
                    self.validate()

                def validate(self):
                    self._check()

                def _check(self):
                    pass

            def unrelated(x):
                assert x
        """,
        "pkg/data.py": """
            class Data:
                def prepare(self, split):
                    assert 0 < split < 1
        """,
        "pkg/model.py": """
            from pkg.config import Config
            from pkg.data import Data

            class Base:
                def __init__(self):
                    self.config = Config()

            class Model(Base):
                def __init__(self):
                    super().__init__()
                    self.data = Data()

                def fit(self, split):
                    self.data.prepare(split)

                def predict(self):
                    pass
        """,
        "tests/test_model.py": """
            import pytest
            from pkg import Model

            def _run(split):
                model = Model()
                return model.fit(split)

            def test_split():
                with pytest.raises(AssertionError):
                    _run(2.0)

            def test_tolerant():
                with pytest.raises((AssertionError, ValueError)):
                    Model().predict()
        """,
    })
    project = Project(tmp_path)
    first, second = project.assertion_expectations()
    assert first.entries == ("pkg.Model", "pkg.Model.fit")  # the helper's calls
    assert not first.accepts("ValueError") and second.accepts("ValueError")
    reached = project.assertion_reach()
    chains = {key: found[0].chain for key, found in reached.items()
              if found[0].expectation is first}
    assert chains["pkg.model.Model.__init__"] == ("Model.__init__",)
    assert chains["pkg.model.Base.__init__"] == ("Model.__init__", "Base.__init__")
    assert chains["pkg.config.Config.__post_init__"] == (
        "Model.__init__", "Base.__init__", "Config.__post_init__")
    assert chains["pkg.data.Data.prepare"] == ("Model.fit", "Data.prepare")
    assert "pkg.config.unrelated" not in reached
    # Three calls below Model(...) counts; Config._check, four below, is past the depth.
    assert "pkg.config.Config.validate" in reached
    assert "pkg.config.Config._check" not in reached
    # Every module the walk read keys the cached results that ask.
    assert {"module:pkg.model", "module:pkg.data", "module:pkg.config"} <= set(project.facts_read)


@pytest.mark.parametrize(("files", "expected"), [
    ({}, None),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 120\n"}, 120),
    ({"pyproject.toml": "[tool.black]\nline-length = 100\n"}, 100),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 99\n[tool.black]\nline-length = 100\n"}, 99),
    ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['E']\n[tool.black]\nline-length = 79\n"},
     79),
    ({"ruff.toml": "line-length = 110\n", "pyproject.toml": "[tool.ruff]\nline-length = 90\n"},
     110),
    ({".ruff.toml": "line-length = 111\n", "ruff.toml": "line-length = 110\n"}, 111),
    ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['E']\n[tool.yapf]\ncolumn_limit = 120\n"},
     120),  # formatted by yapf
    ({"pyproject.toml": "[tool.black]\nline-length = 100\n[tool.yapf]\ncolumn_limit = 120\n"},
     100),
    # No ruff or black configured: the line flake8 (or pycodestyle) allows.
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n"}, 100),
    ({"tox.ini": "[pycodestyle]\nmax_line_length = 79\n"}, 79),
    ({".flake8": "[flake8]\nmax-line-length = 120\n",
      "setup.cfg": "[pep8]\nmax-line-length = 99\n"}, 120),
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n",
      "pyproject.toml": "[tool.black]\nskip-string-normalization = true\n"}, None),
    ({"setup.cfg": "[flake8]\nmax-line-length = long\n"}, None),
    # flake8 configured without a length: pycodestyle's 79, unless E501 is ignored.
    ({"setup.cfg": "[flake8]\nextend-ignore = D107\n"}, 79),
    ({"tox.ini": "[flake8]\nextend-ignore = E203, E501\n"}, None),
    ({"setup.cfg": "[flake8]\n", "pyproject.toml": "[tool.black]\nline-length = 100\n"}, 100),
    # yapf: its column limit, else its base style's.
    ({"setup.cfg": "[flake8]\n[yapf]\nbased_on_style = pep8\n"}, 79),
    ({".style.yapf": "[style]\nbased_on_style = facebook\n"}, 80),
    ({"pyproject.toml": "[tool.yapf]\nbased_on_style = 'google'\n"}, 80),
    ({"setup.cfg": "[yapf]\nbased_on_style = pep8\ncolumn_limit = 100\n"}, 100),
    # black run, not configured: its 88, whatever flake8 allows.
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n",
      "requirements/dev.txt": "flake8>=3.9\nblack>=23.1.0\n"}, 88),
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n[isort]\nprofile = black\n"}, 88),
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n",
      ".pre-commit-config.yaml": "repos:\n- repo: https://github.com/psf/black\n"
                                "  hooks:\n  - id: black\n"}, 88),
    ({"pyproject.toml": "[project.optional-dependencies]\ndev = ['pytest', 'black']\n"}, 88),
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n",
      "requirements.txt": "blackjax\nblack-box-tools\n"}, 100),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 'long'\n"}, None),
    ({"pyproject.toml": "[tool.ruff\nline-length = 120\n"}, None),  # not TOML
])
def test_formatter_line_length(tmp_path, files, expected):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert Project(tmp_path).formatter_line_length() == expected


def test_formatter_line_length_is_a_fact_of_the_result(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    project = Project(tmp_path)
    project.formatter_line_length()
    assert project.facts_read == {"project:line-length": "100"}
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 120\n")
    assert project.current_digest("project:line-length") == "100"  # until refreshed
    project.refresh()
    assert project.current_digest("project:line-length") == "120"


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


def test_a_pinned_requirement_below_the_pyproject_range_wins(tmp_path):
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


def test_the_module_being_decided_is_read_as_decided_not_from_disk(tmp_path: Path) -> None:
    """An editor's buffer (or a file an earlier codemod changed) defines what it defines
    now: a class only the text being decided has still resolves."""
    from torchfix.engine.process import process_source
    from torchfix.engine.results import EngineSettings

    (tmp_path / "train.py").write_text("x = 1\n")  # what is on disk: no class at all
    buffer = (b"import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n\n\n"
              b"def resume(sd):\n    net = Net()\n    net.load_state_dict(sd)\n")
    result = process_source(buffer, tmp_path / "train.py",
                            EngineSettings(codemods=("strict-load-state-dict",)))
    assert [(c.line, c.safety.value, c.applied) for c in result.changes] == [
        (10, "safe", True)]
    assert "module:train" not in dict(result.facts)  # its own text keys the cache already


def test_formatter_settings_read_ruffs_quotes_and_rules(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ruff]\nline-length = 100\n[tool.ruff.format]\nquote-style = "single"\n'
        '[tool.ruff.lint]\nselect = ["ALL"]\nignore = ["SIM102"]\n'
        '[tool.ruff.lint.per-file-ignores]\n"{pkg,tools}/**" = ["EM"]\n'
    )
    settings = Project(tmp_path).formatter_settings()
    assert (settings.line_length, settings.quote) == (100, "'")
    assert settings.enables("EM101", "other/mod.py")
    assert not settings.enables("EM101", "pkg/sub/mod.py")
    assert not settings.enables("SIM102", "other/mod.py")


def test_formatter_settings_of_black(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nskip-string-normalization = true\n")
    settings = Project(tmp_path).formatter_settings()
    assert settings.quote is None and not settings.enables("EM101")


def test_has_tests_is_a_fact_of_the_result(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "conftest.py").write_text("")
    project = Project(tmp_path)
    assert not project.has_tests()  # helpers are not tests
    assert project.facts_read == {"project:has-tests": "False"}
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_pkg.py").write_text("def test_pkg():\n    pass\n")
    project.refresh()
    assert project.current_digest("project:has-tests") == "True"


@pytest.mark.parametrize(
    ("name", "text", "counts"),
    [
        ("pkg/test_helpers.py", "def test_model(model):\n    pass\n", False),
        ("pkg/test_utils.py", "class TestCaseBase(unittest.TestCase):\n    pass\n", False),
        ("tests/testing.py", "def test_x():\n    pass\n", False),
        ("pkg/test_data.py", "DATA = 'def test_x(): pass'\n", False),  # in a string
        ("pkg/test_data.py", "# class Test:\nX = 1\n", False),  # in a comment
        ("tests/__init__.py", "", False),
        ("pkg/test_model.py", "async def test_model():\n    pass\n", True),
        ("tests/model.py", "class TestModel:\n    def check(self): ...\n", True),
        ("pkg/model_test.py", "class Model(unittest.TestCase):\n    pass\n", True),
    ],
)
def test_only_files_holding_a_test_are_tests(tmp_path, name, text, counts):
    path = tmp_path / name
    path.parent.mkdir(parents=True)
    path.write_text(text)
    assert Project(tmp_path).has_tests() is counts


def test_a_linter_prefix_covers_only_its_own_rules(tmp_path):
    (tmp_path / "ruff.toml").write_text('[lint]\nselect = ["E", "SIM1", "PL"]\n')
    settings = Project(tmp_path).formatter_settings()
    assert not settings.enables("EM101")  # E is pycodestyle's, EM flake8-errmsg's
    assert settings.enables("SIM102") and settings.enables("PLR0913")


def test_floor_from_an_sdists_metadata_without_its_extras(tmp_path):
    (tmp_path / "PKG-INFO").write_text(
        "Metadata-Version: 2.1\nName: x\nRequires-Dist: torch>=1.11.0\n"
        'Requires-Dist: torch==2.5.0; extra == "pinned"\n')
    floor = find_torch_floor(tmp_path)
    assert floor is not None
    assert (floor.version, floor.source) == ((1, 11), "PKG-INFO")


def test_floor_from_an_unpacked_wheels_metadata_over_the_codes_version_checks(tmp_path):
    """A wheel unpacked (no pyproject.toml, no PKG-INFO): its METADATA declares the floor,
    which wins over a version check in its code that would say an older torch."""
    info = tmp_path / "pkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pkg\nRequires-Dist: torch (!=1.13.0,<3.0,>=1.9)\n"
        'Requires-Dist: torch (==1.4) ; extra == "old"\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "compat.py").write_text(
        "import torch\nOLD = torch.__version__ < '1.5'\n")
    floor = find_torch_floor(tmp_path)
    assert floor is not None
    assert (floor.version, floor.source) == ((1, 9), "pkg-1.0.dist-info/METADATA")


def test_floor_from_egg_info_requirements_without_extras(tmp_path):
    info = tmp_path / "pkg.egg-info"
    info.mkdir()
    (info / "requires.txt").write_text("numpy\ntorch>=2.0\n\n[dev]\ntorch==1.8\n")
    floor = find_torch_floor(tmp_path)
    assert floor is not None and floor.version == (2, 0)


@pytest.mark.parametrize("readme, floor", [
    ("The `main` branch works with **PyTorch 1.8+**.\n", (1, 8)),
    ("Requires PyTorch 2.1 or later.\n", (2, 1)),
    ("pip install x  # needs torch >= 1.13\n", (1, 13)),
    # segment-anything's README, its only statement of a floor (round 14)
    ("The code requires `python>=3.8`, as well as `pytorch>=1.7` and `torchvision>=0.8`.\n",
     (1, 7)),
    # the versions the code was made and tested on: the oldest is the floor (advertorch,
    # round 25: `weights_only=` broke its documented PyTorch 1.0.0 & 0.4.1)
    ("Tested with PyTorch 2.3 on CUDA 12.\n", (2, 3)),
    ("We developed AdverTorch under Python 3.6 and PyTorch 1.0.0 & 0.4.1. To install\n",
     (0, 4)),
    # hear21passt 0.0.26: a pinned install command
    ("pip3 install torch==1.8.1+cu111  torchaudio==0.8.1 -f https://download.pytorch.org\n",
     (1, 8)),
    # tevatron 0.1.0 (round 29): a pin in a list of tested versions
    ("> Note: The current code base has been tested with, `torch==1.10.1`, "
     "`faiss-cpu==1.7.2`\n", (1, 10)),
    ("This model runs fast on a GPU.\n", None),
    # a badge (mmcv 2.2.0, round 30: its checkpoint calls broke on the 1.8 it shows)
    ("[![pytorch](https://img.shields.io/badge/pytorch-1.8~2.0-orange)](https://pytorch.org)\n"
     "For apple silicon users, please use PyTorch 1.13+.\n", (1, 8)),
    ("![torch](https://img.shields.io/badge/PyTorch-%3E%3D1.7-red)\n", (1, 7)),
    ("![python](https://img.shields.io/badge/python-3.8-blue)\n", None),
    # fairseq 0.12.2's README: a linked name and "version >=" (round 19)
    ("# Requirements\n* [PyTorch](http://pytorch.org/) version >= 1.5.0\n", (1, 5)),
    # dive-into-graphs 1.1.0: the bound in parentheses (round 22); another package's bound
    # in the same sentence is not torch's
    ("The key dependencies are PyTorch (>=1.10.0), PyTorch Geometric (>=2.0.0).\n"
     "1. Install [PyTorch](https://pytorch.org/get-started/locally/) (>=1.10.0)\n", (1, 10)),
    ("Install PyTorch Geometric (>=2.0.0) first.\n", None),
])
def test_floor_a_readme_promises_where_no_file_pins_it(tmp_path, readme, floor):
    (tmp_path / "README.md").write_text(readme)
    found = find_torch_floor(tmp_path)
    assert (found.version if found else None) == floor


@pytest.mark.parametrize("requirement, floor", [
    ("torchaudio>=0.7.0", (1, 7)),  # hear21passt 0.0.26 names no torch at all
    ("torchvision>=0.8", (1, 7)),
    ("torchvision>=0.99", None),  # newer than the table knows: nothing implied
])
def test_floor_of_torchvision_and_torchaudio_where_nothing_names_torch(tmp_path, requirement,
                                                                       floor):
    (tmp_path / "requirements.txt").write_text(f"numpy\n{requirement}\n")
    found = find_torch_floor(tmp_path, code=False)
    assert (found.version if found else None) == floor
    (tmp_path / "requirements.txt").write_text(f"torch>=2.1\n{requirement}\n")
    assert find_torch_floor(tmp_path, code=False).version == (2, 1)  # torch's own wins


def test_a_wheel_states_its_floor_in_the_body_of_its_metadata(tmp_path):
    # adapters 1.3.0: no README file in the wheel, its README is the METADATA's body; the
    # headers' requirements of extras (`torch>=1.5; extra == "dev"`) are no floor.
    info = tmp_path / "adapters-1.3.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: adapters\nRequires-Dist: torch>=1.5 ; extra == 'dev'\n"
        "Description-Content-Type: text/markdown\n\n# Adapters\n\n`adapters` currently "
        "supports **Python 3.9+** and **PyTorch 2.0+**.\n")
    found = find_torch_floor(tmp_path)
    assert found is not None and found.version == (2, 0)
    assert found.source == "adapters-1.3.0.dist-info/METADATA"
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: adapters\nRequires-Dist: torch>=1.5 ; extra == 'dev'\n"
        "\n# Adapters\n")
    assert find_torch_floor(tmp_path, code=False) is None


def test_the_expectations_fact_is_the_same_in_every_process(tmp_path):
    # A warm run is a new process with other string hashes: a digest that printed a set in
    # hash order made every cached result that read the expectations miss.
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_model.py").write_text(
        "import pytest\nfrom pkg import build, check, load, train\n\n\n"
        "def test_bad():\n    with pytest.raises((AssertionError, KeyError, TypeError)):\n"
        "        build(); check(); load(); train()\n")
    probe = ("import sys\nfrom torchfix.model.project import Project\n"
             "project = Project(sys.argv[1])\nproject.assertion_expectations()\n"
             "print(project.facts_read['project:assertion-expectations'])\n")
    digests = {
        subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True,
                       text=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}
                       ).stdout.strip()
        for seed in ("1", "2", "3", "4")
    }
    assert len(digests) == 1 and "" not in digests


@pytest.mark.parametrize(("files", "formatter", "hugs"), [
    ({"setup.cfg": "[yapf]\nbased_on_style = pep8\n"}, "yapf", True),
    ({".style.yapf": "[style]\nbased_on_style = facebook\n"}, "yapf", False),
    ({"pyproject.toml": "[tool.yapf]\nbased_on_style = 'pep8'\ndedent_closing_brackets = true\n"},
     "yapf", False),
    ({"pyproject.toml": "[tool.ruff.lint]\nselect = ['E']\n"}, "ruff", False),
    ({"setup.cfg": "[isort]\nprofile = black\n"}, "black", False),
    ({"setup.cfg": "[flake8]\nmax-line-length = 100\n"}, None, False),
])
def test_formatter_and_its_closing_bracket(tmp_path, files, formatter, hugs):
    from torchfix.model.line_length import find_formatting

    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = find_formatting(tmp_path)
    assert (found.formatter, found.hugs_closing_bracket) == (formatter, hugs)


@pytest.mark.parametrize(("files", "git", "built"), [
    (["PKG-INFO", "setup.py"], False, True),          # an unpacked sdist
    (["pkg-1.0.dist-info/METADATA"], False, True),    # an unpacked wheel
    (["PKG-INFO", "setup.py"], True, False),          # a checkout that keeps a PKG-INFO
    (["pyproject.toml"], False, False),               # a repository without git
])
def test_an_unpacked_sdist_or_wheel_is_not_the_repository(tmp_path, files, git, built):
    # The tests an sdist ships are the ones its packaging chose: assert-to-raise cannot
    # trust them to be the suite (round 9: mmsegmentation's sdist leaves out test_losses).
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("Name: pkg\n")
    if git:
        (tmp_path / ".git").mkdir()
    assert Project(tmp_path).is_built_distribution() is built


def test_a_project_fact_reads_the_module_being_decided_without_parsing_it_again(tmp_path):
    # components.py asks for the facts of the module whose assert is being decided; where
    # the file on disk holds that same text, its facts come from the parse already made
    # (timm's cold check read each such module twice: 2x slower).
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    text = "class Block:\n    def __init__(self, stride):\n        self.stride = stride\n"
    (tmp_path / "pkg" / "layers.py").write_text(text)
    project = Project(tmp_path)
    project.begin_module(tmp_path / "pkg" / "layers.py")
    asked: list[str] = []

    def facts_of_text(path: str, digest: str):
        asked.append(digest)
        import ast as ast_module

        from torchfix.model.facts import module_facts
        from torchfix.model.semantic import SemanticModel
        return module_facts(SemanticModel(ast_module.parse(text), "pkg.layers", False),
                            path, digest)

    project.decide_module("pkg.layers", lambda: None, text, facts_of_text)
    project._current = None  # as inside a derived fact: the module is read "from disk"
    facts = project.module("pkg.layers")
    assert facts is not None and "Block" in facts.classes and len(asked) == 1
    # A different text on disk is parsed from disk, not taken from the decided text.
    project2 = Project(tmp_path)
    project2.begin_module(tmp_path / "pkg" / "layers.py")
    project2.decide_module("pkg.layers", lambda: None, text + "# edited\n", facts_of_text)
    project2._current = None
    assert project2.module("pkg.layers") is not None and len(asked) == 1


@pytest.mark.parametrize("files, listed", [
    # tape-proteins 0.5 (round 29): setup.py reads requirements.txt; the sdist's egg-info
    # holds what it read, and no torch
    ({"tape.egg-info/requires.txt": "tqdm\nscipy\nboto3\n"}, "tape.egg-info/requires.txt"),
    # tevatron 0.1.0: transformers and datasets only (transformers runs on torch 1.x)
    ({"setup.py": 'setup(install_requires=["transformers>=4.10.0", "datasets>=1.1.3"])\n'},
     "setup.py"),
    ({"requirements.txt": "numpy\ntorch\n"}, None),  # torch, if without a version
    ({"requirements.txt": "numpy\ntorchvision>=0.15\n"}, None),  # implies a torch
    # nothing lists a dependency (no package named, a loose repository of scripts, or
    # torchnn 0.1's setup.py without install_requires, round 45): "" says none is listed
    ({"requirements.txt": "# pinned in CI\n-r base.txt\n"}, ""),
    ({"environment.yml": "dependencies:\n  - python=3.10\n  - pip\n"}, ""),
    ({}, ""),
    ({"setup.py": "from setuptools import setup\nsetup(name='torchnn', version='0.1')\n"}, ""),
    # a README's promise is not a dependency list
    ({"README.md": "Tested with PyTorch 2.3.\n", "setup.py": "setup(install_requires=['numpy'])\n"},
     "setup.py"),
])
def test_dependencies_that_name_no_torch(tmp_path, files, listed):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert find_dependencies_without_torch(tmp_path) == listed


def test_floor_a_setup_py_tells_users_without_torch(tmp_path):
    # pytorch-fast-transformers 0.4.0 (round 30): install_requires=["torch"], and the
    # message for a user without torch names the releases it supports
    (tmp_path / "setup.py").write_text(
        "try:\n    import torch\nexcept ImportError:\n    raise ImportError(\n"
        '        ("PyTorch is required to install pytorch-fast-transformers. Please "\n'
        '         "install your favorite version of PyTorch, we support 1.3.1, 1.5.0 "\n'
        '         "and >=1.6"))\nsetup(install_requires=["torch"])\n')
    found = find_torch_floor(tmp_path, code=False)
    assert found is not None and (found.version, found.source) == ((1, 3), "setup.py")


def test_a_module_finds_its_own_packages_first(tmp_path):
    # salesforce-merlion's sdist (round 30): `merlion/` and `merlion/models/` have no
    # `__init__.py`, so `merlion/models/anomaly/vae.py` is `anomaly.vae`, and
    # `merlion/evaluate/anomaly.py` is another module named `anomaly`. Deciding vae.py,
    # its package `anomaly` is the folder beside it, whatever folder the run met first.
    (tmp_path / "merlion/evaluate").mkdir(parents=True)
    (tmp_path / "merlion/evaluate/anomaly.py").write_text("class Metric:\n    pass\n")
    package = tmp_path / "merlion/models/anomaly"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from .vae import VAE\n")
    (package / "vae.py").write_text("class VAE:\n    pass\n")
    project = Project(tmp_path)
    project.begin_module(tmp_path / "merlion/evaluate/anomaly.py")
    name = project.begin_module(package / "vae.py")
    assert name.name == "anomaly.vae"
    assert project.module_path("anomaly") == tmp_path / "merlion/evaluate/anomaly.py"
    project.begin_file(package / "vae.py")
    project.decide_module(name.name, lambda: project._read_module("anomaly.vae"),
                          root=name.source_root)
    assert project.module_path("anomaly") == package / "__init__.py"
    assert "VAE" in project.module("anomaly").names


def _dated(path: Path, year: int, month: int) -> None:
    stamp = datetime.datetime(year, month, 15, tzinfo=datetime.timezone.utc).timestamp()
    os.utime(path, (stamp, stamp))


def test_the_torch_of_a_release_left_as_it_was(tmp_path):
    # pytorch-sconce 1.4.0 (round 48): its sdist's PKG-INFO is from 2021-09, torch 1.9's day
    (tmp_path / "requirements.txt").write_text("torch\ntorchvision\n")
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 1.2\nName: pytorch-sconce\n")
    _dated(tmp_path / "requirements.txt", 2021, 5)
    _dated(tmp_path / "PKG-INFO", 2021, 9)
    era = find_torch_era(tmp_path)
    assert era is not None
    assert (era.current, era.month_text, era.source) == ((1, 9), "2021-09", "PKG-INFO")
    assert era.torch == (1, 8)  # what its users still ran: the torch of 2021-03
    _dated(tmp_path / "PKG-INFO", 2023, 4)  # after torch 2.0: nothing more than "torch 2"
    assert find_torch_era(tmp_path) is None


def test_a_release_weeks_after_a_torch_relies_on_the_one_before(tmp_path, cli):
    # torchiva 0.1.1 (round 55): November 2022, torch bare, four weeks after torch 1.13;
    # its reviewer called `weights_only=True` (1.13) wrong: the code runs on torch 1.8
    (tmp_path / "setup.py").write_text(
        'from setuptools import setup\nsetup(name="iva", install_requires=["torch"])\n')
    (tmp_path / "train.py").write_text(LOAD_WEIGHTS)
    _dated(tmp_path / "setup.py", 2022, 11)
    old = cli("check", "--select", "load-weights-only", "--show-all", "--unsafe-fixes", ".")
    assert "weights_only needs torch >= 1.13, and the project names torch without a " \
           "version in metadata last changed in 2022-11 (setup.py), when torch 1.13 was " \
           "current and its users still ran the torch of six months before, 1.11" in old.stdout
    assert "[no automatic fix]" in old.stdout


CHECKPOINT = ("import torch\n\n\ndef save_checkpoint(model, path='checkpoint.pt'):\n"
              "    torch.save(model.state_dict(), path)\n\n\n"
              "def load_checkpoint(model, path='checkpoint.pt'):\n"
              "    model.load_state_dict(torch.load(path))\n")


def test_a_release_of_torch_on_python_35_gets_no_atomic_save_helper(tmp_path, cli):
    # torchlib (2018) and pytorch-skipthoughts (2017), round 56: no Python version
    # declared, torch 0.4's days; the helper's f-strings do not import on Python 3.5
    (tmp_path / "setup.py").write_text(
        'from setuptools import setup\nsetup(name="lib", install_requires=["torch"])\n')
    (tmp_path / "train.py").write_text(CHECKPOINT)
    fresh = cli("check", "--select", "atomic-save", "--show-all", ".")
    assert "train.py:5:5" in fresh.stdout and "[no automatic fix]" not in fresh.stdout
    _dated(tmp_path / "setup.py", 2018, 10)
    old = cli("check", "--select", "atomic-save", "--show-all", "--unsafe-fixes", ".")
    assert "not rewritten: the helper needs Python 3.6, and the project declares no " \
           "Python version in metadata last changed in 2018-10 (setup.py), when its " \
           "torch, 0.4, still ran on Python 3.5 [no automatic fix]" in old.stdout
    cli("apply", "--select", "atomic-save", "--unsafe-fixes", ".")
    assert (tmp_path / "train.py").read_text() == CHECKPOINT


def test_a_fresh_checkout_is_read_as_current(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch\n")
    assert find_torch_era(tmp_path) is None
    assert find_torch_era(tmp_path / "missing") is None


AUTOCAST = "import torch\n\n\ndef step(model, x):\n    with torch.cuda.amp.autocast():\n" \
    "        return model(x)\n"


def test_an_old_release_naming_torch_bare_is_told_not_fixed(tmp_path, cli):
    # pytorch-sconce (round 48): wrong as a safe fix; round 52's and 53's reviewers called
    # such fixes wrong as unsafe fixes too, so they are reported
    (tmp_path / "requirements.txt").write_text("torch\n")
    (tmp_path / "train.py").write_text(AUTOCAST)
    fresh = cli("check", "--select", "amp-api", "--show-all", ".")
    assert "torch.amp.autocast" in fresh.stdout and "[unsafe fix" not in fresh.stdout
    _dated(tmp_path / "requirements.txt", 2021, 9)
    old = cli("check", "--select", "amp-api", "--show-all", ".")  # the cache must follow
    assert "names torch without a version in metadata last changed in 2021-09 " \
           "(requirements.txt), when torch 1.9 was current and its users still ran the " \
           "torch of six months before, 1.8" in old.stdout
    assert "[no automatic fix]" in old.stdout
    cli("apply", "--unsafe-fixes", ".")
    assert (tmp_path / "train.py").read_text() == AUTOCAST


LOAD_WEIGHTS = ("import torch\n\n\ndef restore(model, path):\n"
                "    model.load_state_dict(torch.load(path))\n")
WHERE_SCALAR = ("import torch\n\n\ndef masked(x, keep):\n"
                "    return torch.where(keep, x, torch.tensor(0.0))\n")


@pytest.mark.parametrize(("setup", "codemod", "source", "needs"), [
    # torch-buddy 0.0.5 (round 53): 2019, `install_requires=["pandas-summary>=0.0.5"]`
    ('from setuptools import setup\nsetup(name="buddy", '
     'install_requires=["pandas-summary>=0.0.5"])\n',
     "load-weights-only", LOAD_WEIGHTS, "weights_only needs torch >= 1.13"),
    # nn-torch (round 52): 2020, torch bare; a Python number in torch.where needs 1.12
    ('from setuptools import setup\nsetup(name="nn", install_requires=["torch"])\n',
     "hoist-mask-constant", WHERE_SCALAR, None),
])
def test_an_old_release_gets_no_fix_its_torch_cannot_run(tmp_path, cli, setup, codemod,
                                                         source, needs):
    (tmp_path / "setup.py").write_text(setup)
    (tmp_path / "train.py").write_text(source)
    fresh = cli("check", "--select", codemod, "--show-all", "--unsafe-fixes", ".")
    assert "train.py:" in fresh.stdout and "[no automatic fix]" not in fresh.stdout
    _dated(tmp_path / "setup.py", 2019, 8)
    old = cli("check", "--select", codemod, "--show-all", "--unsafe-fixes", ".")
    if needs is None:
        assert "train.py:" not in old.stdout  # left alone
    else:
        assert f"{needs}, and the project names no torch version in metadata last " \
               "changed in 2019-08 (setup.py), when torch 1.2 was current and its users " \
               "still ran the torch of six months before, 1.0" in old.stdout
        assert "[no automatic fix]" in old.stdout
    cli("apply", "--select", codemod, "--unsafe-fixes", ".")
    assert (tmp_path / "train.py").read_text() == source


def test_the_torch_names_a_shim_replaces_are_read_through_its_imports():
    from torchfix.model.torch_shims import replaced_torch_modules

    tree = ast.parse(textwrap.dedent("""\
        import sys
        import torch
        import torch.cuda as tc

        torch.cuda = object()
        setattr(tc, "amp", None)
        sys.modules["torch.cuda.amp"] = None
        sys.modules["numpy"] = None
        settings = {"torch.cuda": None}
    """))
    assert replaced_torch_modules(tree) == [
        ("torch.cuda", 5), ("torch.cuda.amp", 6), ("torch.cuda.amp", 7)]


def test_the_names_a_test_replaces_are_read_through_its_imports():
    from torchfix.model.test_doubles import replaced_names

    tree = ast.parse(textwrap.dedent("""\
        from unittest import mock

        import torch


        @mock.patch("torch.save")
        def test_saves(save, monkeypatch):
            import torchvision.models as tv_models

            monkeypatch.setattr(tv_models, "vgg16", lambda pretrained=True: None)
            with mock.patch.object(torch, "load", wraps=torch.load):
                pass
            monkeypatch.setattr("pkg.module.torch.save", None)
            monkeypatch.setenv("TORCH_HOME", "/tmp")
    """))
    assert replaced_names(tree) == [
        ("torch.save", 6), ("torchvision.models.vgg16", 10), ("torch.load", 11),
        ("pkg.module.torch.save", 13)]
