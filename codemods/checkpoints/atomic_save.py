"""atomic-save: make `torch.save` to a path replace the destination atomically."""

from __future__ import annotations

import ast
import copy
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from pathlib import Path

from torchfix.model.ast_index import nodes_of
from torchfix.model.formatter import FormatterSettings
from torchfix.model.module_names import ModuleName
from torchfix.model.project import Project, register_derived_fact
from torchfix.model.scan_memo import first_answer, parse_if_mentions, project_modules
from torchfix.model.semantic import Binding, BindingKind, ScopeKind, SemanticModel
from torchfix.model.test_code import (
    below_working_folder,
    identifier_words,
    is_example_code,
    is_test_path,
)
from torchfix.model.test_doubles import replaced_names
from torchfix.rewrite.contract import (
    Codemod,
    CreateFile,
    FileContext,
    Finding,
    Option,
    RemoveImport,
    Safety,
)
from torchfix.rewrite.import_order import ImportInsertion, NewImport, is_docstring, plan_imports
from torchfix.rewrite.layout import LineSplit, split_line

HELPER = "_torchfix_atomic_save"  # the helper's name in a module ("inline")
HELPER_MODULE = "_torchfix_atomic_save"  # the package's helper module ("module")
MODULE_HELPER = "atomic_save"  # the helper's name in that module
# The helper's docstring says this; it is how a later run knows the helper is its own.
HELPER_MARKER = "Inserted by torchfix (atomic-save)"
HELPER_IMPORTS = ("os", "shutil", "tempfile", "typing")
# What every helper torchfix ever inserted needs; older ones (no annotations) do without
# `typing`, and are reused as they are (found by name and HELPER_MARKER, not by text).
OLD_HELPER_IMPORTS = ("os", "shutil", "tempfile")
TORCH_SAVE = frozenset({"torch.save", "torch.serialization.save"})
HELPER_MODES = ("auto", "inline", "module")
# The project-wide fact "auto" reads: how many modules of a package atomic-save rewrites.
SAVING_MODULES = "atomic-save/saving-modules"  # "<codemod>/<fact>": see register_derived_fact
# The project's own functions named as library savers (see `own_savers`).
OWN_SAVERS = "atomic-save/own-savers-by-class"
# The project's own atomic writer, if it has one: "name|path|line" (see `own_atomic_writer`).
OWN_ATOMIC_WRITER = "atomic-save/own-atomic-writer"
# The comment header (copyright, license) every module of a package starts with.
PACKAGE_HEADER = "atomic-save/package-header"
# Where the project picks its latest checkpoint by listing a folder (see `latest_lister`).
LATEST_LISTER = "atomic-save/latest-checkpoint-lister"
# How often the project's files name a word (see `mentions`): a saver named once is uncalled.
MENTIONS = "atomic-save/mentions"

# `{name}`: the helper's name; `{save}`: how its module reaches torch.save (`torch.save`,
# `th.save`, `save`, ...). Formatter-stable: every line fits in 79 columns (so black and
# ruff format leave it alone at any line length from 79 up), no expression spans lines,
# and the signature is split by a magic trailing comma, which formatters keep. Indented
# with 4 spaces; the editor uses the module's indentation.
HELPER_TEMPLATE = '''\
def {name}(
    obj: object,
    f: typing.Any,
    *args: typing.Any,
    **kwargs: typing.Any,
) -> None:
    """torch.save that never leaves a truncated file at a path destination.

    Inserted by torchfix (atomic-save). torch.save writes a path in place,
    so a crash, an OOM kill or a preemption mid-write leaves a truncated
    file, often the only checkpoint. This saves into a temporary folder
    beside the destination, under the same file name (so the bytes are the
    ones torch.save writes), fsyncs the file and renames it over the
    destination: readers see the old file or the complete new one. A new
    file gets its permissions from the umask, as before; a replaced one
    keeps its mode and group. Buffers and open files, and paths that a
    rename cannot replace faithfully (read-only, hard-linked or foreign
    files, devices, folders this process cannot write), are written by
    torch.save in place, exactly as before.
    """
    if not isinstance(f, (str, os.PathLike)):
        {save}(obj, f, *args, **kwargs)
        return
    path = os.path.realpath(f)  # through symlinks, like torch.save
    folder = os.path.dirname(path)
    name = os.path.basename(os.fspath(f))  # the archive is named after it
    old = os.stat(path) if os.path.exists(path) else None
    in_place = not os.access(folder, os.W_OK | os.X_OK)
    if old is not None:  # a rename must give the same file: else, in place
        in_place = in_place or not os.path.isfile(path)
        in_place = in_place or old.st_nlink != 1
        in_place = in_place or not os.access(path, os.W_OK)
        if os.name == "posix":
            groups = (os.getegid(), *os.getgroups())
            in_place = in_place or old.st_uid != os.geteuid()
            in_place = in_place or old.st_gid not in groups
    if in_place:
        {save}(obj, f, *args, **kwargs)
        return
    prefix = f".{{name}}."
    tmp_folder = tempfile.mkdtemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        tmp_path = os.path.join(tmp_folder, name)
        {save}(obj, tmp_path, *args, **kwargs)
        with open(tmp_path, "rb+") as tmp:
            os.fsync(tmp.fileno())  # on disk before the name points at it
        if old is not None:
            os.chmod(tmp_path, old.st_mode & 0o7777)
            if os.name == "posix":
                os.chown(tmp_path, -1, old.st_gid)
        os.replace(tmp_path, path)
    finally:
        shutil.rmtree(tmp_folder, ignore_errors=True)
'''

# The same helper for projects whose linter asks for pathlib (ruff's flake8-use-pathlib,
# `PTH`): `Path.resolve`, `.stat()`, `.open()`, `.chmod()`, `.replace()` instead of
# `os.path.*`, `os.stat`, `open`, `os.chmod`, `os.replace`, with the same behaviour.
HELPER_TEMPLATE_PATHLIB = HELPER_TEMPLATE.replace(
    "    path = os.path.realpath(f)  # through symlinks, like torch.save\n"
    "    folder = os.path.dirname(path)\n"
    "    name = os.path.basename(os.fspath(f))  # the archive is named after it\n"
    "    old = os.stat(path) if os.path.exists(path) else None\n",
    "    path = pathlib.Path(f).resolve()  # through symlinks, like torch.save\n"
    "    folder = path.parent\n"
    "    name = pathlib.Path(os.fspath(f)).name  # the archive is named after it\n"
    "    old = path.stat() if path.exists() else None\n",
).replace(
    "        in_place = in_place or not os.path.isfile(path)\n",
    "        in_place = in_place or not path.is_file()\n",
).replace(
    "        tmp_path = os.path.join(tmp_folder, name)\n",
    "        tmp_path = pathlib.Path(tmp_folder) / name\n",
).replace(
    '        with open(tmp_path, "rb+") as tmp:\n',
    '        with tmp_path.open("rb+") as tmp:\n',
).replace(
    "            os.chmod(tmp_path, old.st_mode & 0o7777)\n",
    "            tmp_path.chmod(old.st_mode & 0o7777)\n",
).replace(
    "        os.replace(tmp_path, path)\n",
    "        tmp_path.replace(path)\n",
)
# The helper's parameters, documented where the project checks docstrings with darglint
# (its DAR101 wants every parameter in the docstring's Args section), in its style.
HELPER_PARAMETERS = (  # (name, annotation, description)
    ("obj", "object", "what torch.save saves."),
    ("f", "typing.Any", "the destination: a path, a buffer or an open file."),
    ("*args", "typing.Any", "passed on to torch.save."),
    ("**kwargs", "typing.Any", "passed on to torch.save."),
)
_DOCSTRING_END = '    torch.save in place, exactly as before.\n    """\n'


def documented(template: str, style: str | None) -> str:
    """The helper's template with an Args section in darglint's `style` (`google`,
    `sphinx` or `numpy`); unchanged for None (the project does not use darglint)."""
    if style is None:
        return template
    if style == "sphinx":
        lines = [f"    :param {name.lstrip('*')}: {text}" for name, _, text in HELPER_PARAMETERS]
    elif style == "numpy":
        lines = ["    Parameters", "    ----------"]
        for name, annotation, text in HELPER_PARAMETERS:
            lines += [f"    {name} : {annotation}", f"        {text[0].upper()}{text[1:]}"]
    else:
        lines = ["    Args:"] + [f"        {name}: {text[0].upper()}{text[1:]}"
                                  for name, _, text in HELPER_PARAMETERS]
    section = "\n".join(lines)
    return template.replace(_DOCSTRING_END, _DOCSTRING_END.replace(
        '    """\n', f"\n{section}\n    \"\"\"\n"))


# The destination's annotation where the project's ruff bans `Any` there (ANN401): what
# torch.save accepts. `os.PathLike[str]` is quoted: subscripting it at run time needs
# Python 3.9, and mypy's `disallow_any_generics` wants the parameter.
PRECISE_DESTINATION = 'typing.Union[str, "os.PathLike[str]", typing.IO[bytes]]'
# ANN401 without `allow-star-arg-any` flags `*args: Any` too; `object` there fails mypy
# (torch.save's extra parameters are typed), so those two keep `Any` and say why not.
STAR_ANY_NOQA = "  # noqa: ANN401"


def annotated(template: str, ann401: bool, allow_star_arg_any: bool) -> str:
    """The helper's definition with annotations the project's ruff accepts: unchanged
    where ANN401 is off; else `f` typed as torch.save's destination, and `*args` and
    `**kwargs` `Any` (with a `noqa: ANN401` where `allow-star-arg-any` is not set)."""
    if not ann401:
        return template
    template = template.replace("    f: typing.Any,\n", f"    f: {PRECISE_DESTINATION},\n")
    if not allow_star_arg_any:
        for star in ("*args", "**kwargs"):
            template = template.replace(f"    {star}: typing.Any,\n",
                                        f"    {star}: typing.Any,{STAR_ANY_NOQA}\n")
    return template


def bans_any(file: FileContext) -> bool:
    """Whether the project's ruff flags `Any` annotations (ANN401) in this file."""
    return file.project.formatter_settings().enables("ANN401", _project_path(file))


def _project_path(file: FileContext) -> str | None:
    """The file's path relative to the project root, `/`-separated; None if outside."""
    try:
        return file.path.resolve().relative_to(file.project.root.resolve()).as_posix()
    except (OSError, ValueError):
        return None


PATHLIB_HELPER_IMPORTS = ("os", "pathlib", "shutil", "tempfile", "typing")
# ruff's flake8-use-pathlib rules the plain helper would break.
PATHLIB_RULES = ("PTH100", "PTH101", "PTH105", "PTH110", "PTH113", "PTH116", "PTH118",
                 "PTH119", "PTH120", "PTH123")

# The package's helper module ("module"): the same function, sorted imports, nothing else.
HELPER_MODULE_TEMPLATE = '''\
"""One atomic torch.save for the whole package: see atomic_save below.

Inserted by torchfix (atomic-save). The modules of this package that save
checkpoints import atomic_save from here instead of each defining its own.
"""

{imports}

import torch


{helper}'''

# Calls that return an open file or an in-memory buffer, by the last part of their name.
FILE_OPENERS = frozenset(
    {"BytesIO", "GzipFile", "NamedTemporaryFile", "SpooledTemporaryFile", "TemporaryFile",
     "fdopen"}
)
# Annotations that say a parameter is a file object, by their last dotted part.
FILE_ANNOTATIONS = frozenset(
    {"BinaryIO", "BufferedIOBase", "BufferedWriter", "BytesIO", "IO", "IOBase", "RawIOBase"}
)
# Words that name a file object or buffer rather than a path.
HANDLE_WORDS = frozenset(
    {"bio", "buf", "buffer", "bytesio", "fh", "fileobj", "fobj", "handle", "stream", "writer"}
)
# Words that name something temporary: a save there is not the checkpoint a crash destroys
# (and is often the first half of a temp-file-and-rename the code already does).
TEMP_WORDS = frozenset(
    {"gettempdir", "mkdtemp", "mkstemp", "temp", "tempdir", "tempfile", "temporary", "tmp",
     "tmpdir", "tmpfile", "tmpname"}
)
# Paths that start so are temporary: the system's, or a `temp/` folder of the working
# folder (cornac's encoding cache, "temp/encoded_corpus.pt", rebuilt when missing: round
# 25 called its atomic saves noise).
TEMP_PREFIXES = ("/tmp/", "/var/tmp/", "tmp/", "temp/", "./tmp/", "./temp/")
# Calls whose result is a temporary folder or file (so are names bound to it).
TEMP_FACTORIES = frozenset(
    {"NamedTemporaryFile", "TemporaryDirectory", "gettempdir", "mkdtemp", "mkstemp"}
)
# Modules whose functions make up throwaway names: a file saved under a random name is
# measured or read back and deleted, not a checkpoint anyone resumes from.
RANDOM_NAME_MODULES = ("random.", "uuid.", "secrets.", "tempfile.")
# A helper's name that says it empties or removes a folder (`cleanupdir`, `clean_dir`,
# `empty_folder`, `remove_dir`, `rmtree`).
_EMPTIES_FOLDER = re.compile(
    r"_*(?:clean_?up|clean|clear|empty|wipe|purge|remove|rm|delete)_?(?:dir|directory|folder|tree)",
    re.IGNORECASE)
# Values that name one object or process: no later run can find a file named by them
# (torch-tensornet's LR finder caching `state_{key}_{id(self)}.pt`, round 44).
PROCESS_NAME_CALLS = frozenset({"builtins.id", "os.getpid"})
REMOVERS = frozenset({"os.remove", "os.unlink"})
# Words that name a debugging or logging artifact (`if debug:`, `dump_activations`).
DEBUG_WORDS = frozenset({"debug", "debugging", "dump", "dumps"})  # torchsul's ./layer_dumps/
# What a TensorBoard-style logger's `add_<media>` methods log (`add_video`, `add_image`).
LOGGED_MEDIA = frozenset(
    {"audio", "embedding", "figure", "histogram", "image", "images", "mesh", "scalar",
     "scalars", "text", "video"}
)
# Words of a file that commits a checkpoint folder once all its files are written
# (llamafactory's `CHECKPOINT_COMPLETE`, Megatron's `latest_checkpointed_iteration.txt`
# tracker, DeepSpeed's `latest`): a reader trusts only a folder the marker names, so a
# torn file in it is never loaded, and an atomic write of each file is noise.
MARKER_WORDS = frozenset({"complete", "completed", "done", "finished", "marker", "tracker",
                          "checkpointed", "commit", "committed"})
# The names of functions that export a model (`export_onnx`, torch.fx's
# `GraphModule.to_folder`): one-shot outputs, made again by exporting again, and often one
# file of several (round 12's reviewers: noise), so their saves are unsafe fixes.
EXPORT_WORDS = frozenset({"export", "exporter", "exports"})
EXPORT_ENDINGS = frozenset({("to", "folder"), ("to", "dir"), ("to", "directory")})
# Words of a destination that name a checkpoint a run resumes from (`ckpt_path`,
# `"checkpoint.pt"`, `f"epoch_{epoch}.pt"`, `best.pt`, `last.ckpt`), and of a function that
# writes one (`save_checkpoint`, `on_save_checkpoint`, `take_snapshot`): where none says so
# and the module never loads the file back, the atomic save is an unsafe fix.
RESUME_WORDS = frozenset(
    {"checkpoint", "checkpoints", "ckpt", "ckpts", "resume", "snapshot", "snapshots", "latest",
     "last", "best", "epoch", "epochs", "step", "steps", "iteration", "iter", "iters"}
)
RESUME_FUNCTION_WORDS = frozenset({"checkpoint", "checkpoints", "ckpt", "resume", "snapshot"})
# Words of a saved value that only a run resuming needs: optimizer and scheduler state, a
# gradient scaler's, a training counter (`{"model": ..., "optimizer": ..., "epoch": ...}`).
RESUME_VALUE_WORDS = frozenset(
    {"optimizer", "optimizers", "optim", "scheduler", "schedulers", "scaler", "epoch",
     "epochs", "step", "steps", "iteration", "iterations", "iter"}
)
# Whose state is a run's whole state, optimizer included (`trainer.state_dict()`).
RESUMED_OWNERS = frozenset({"trainer", "engine", "agent", "learner", "runner"})
PER_COUNTER_MARK = "each save names a new file by its `"
PER_COUNTER_REASON = (" (" + PER_COUNTER_MARK + "{counter}`: a crash tears only the "
                      "newest, and the earlier ones survive)")
CALLER_CHOSEN_REASON = (" (the caller chooses the file: `{parameter}` is a parameter of "
                        "{function}(), so whether a run resumes from it is up to the "
                        "caller)")
FINAL_SAVE_REASON = (" (written once, after the training at line {line}: a crash tears "
                     "only what running again makes again)")
EARLY_STOPPING_REASON = (" (the best model so far, kept by {owner} for the same run to read "
                         "back: a crash that tears it ends that run too)")
# "no load of it is seen", not "never loads it back": round 29's reviewers found the file
# loaded through a folder joined with another name (bmtrain, deepod, slideflow).
UNKNOWN_CHECKPOINT_REASON = (" (nothing says the file is a checkpoint a run resumes from: "
                             "neither its path nor the function names one, and no load of it "
                             "is seen in this module)")
# Words that name a checkpoint: a function `dump_checkpoint` writes one all the same.
CHECKPOINT_WORDS = frozenset(
    {"checkpoint", "checkpoints", "ckpt", "model", "resume", "snapshot", "state", "weights"}
)
# Words that name a re-creatable output rather than a checkpoint: results and metrics of a
# run, benchmark outputs, cached or precomputed features and embeddings, and a dataset's
# raw and processed files (PyG's `self.raw_paths[0]`, downloaded again, and
# `self.processed_paths[0]`, made again from the raw files when missing:
# torch-geometric-pool's dataset, round 53, where `edge_weights` in the data looked like
# training state; pytorch-concepts' `download()`, round 54).
RESULT_WORDS = frozenset(
    {"result", "results", "metrics", "benchmark", "benchmarks", "cache", "cached", "embeddings",
     "features", "feats", "predictions", "preds", "precomputed", "preprocessed", "processed",
     "raw"}
)
# First words of functions that prepare a dataset (`preprocess`, `prepare_data`,
# `partition_clients`, fintorch's `process_dir` writing a tensor per annotation file,
# round 49): what they save is made again from the raw data.
DATA_PREPARATION_WORDS = frozenset({"preprocess", "prepare", "partition", "process"})
# First words of functions that write inference outputs (`predict_from_file_to_file`,
# `embed_audio`, `infer_batch`), and the last words of one writing an output per input
# file (`pitch_to_file`): a prediction or embedding saved there is made again by running
# the model on the input again.
INFERENCE_WORDS = frozenset({"predict", "embed", "infer", "inference"})
PER_FILE_ENDINGS = frozenset({("to", "file"), ("to", "files")})
# Words of a saved value that is training state, not an output: the model, its weights,
# an optimizer or a scheduler (a state_dict() says "state").
# Words of a destination that holds an evaluation's output, not training state.
EVALUATION_WORDS = frozenset({"eval", "evals", "evaluation", "evaluations"})
STATE_WORDS = CHECKPOINT_WORDS | frozenset(
    {"module", "net", "network", "optim", "optimizer", "params", "parameters", "scheduler"}
)
# Methods that hand back their receiver, or the same values (a tensor moved, detached or
# converted; a module moved): the saved value is what they are called on.
PASS_THROUGH = frozenset(
    {"bfloat16", "clone", "contiguous", "cpu", "cuda", "detach", "double", "eval", "float",
     "half", "numpy", "requires_grad_", "squeeze", "to", "tolist", "train", "unsqueeze"}
)
# Words of a function that reads a saved file back (`torch.load`, `load_state_dict`,
# `resume_from`, `restore`).
LOAD_WORDS = frozenset({"load", "resume", "restore"})
# Training counters: a saved value naming one is a checkpoint's (`{"epoch": epoch, ...}`).
COUNTER_WORDS = frozenset({"epoch", "epochs", "step", "steps", "iteration", "iterations",
                           "iter", "itr"})
# What a function that makes a file's name from its arguments is called
# (`get_checkpoint_filename(itr)`).
FILE_NAMER_WORDS = frozenset({"filename", "fname", "filepath"})
# What a file name numbered per save formats: a training counter, or a trainer's milestone
# (`f"model-{milestone}.pt"`, milestone = step // save_every).
FILE_COUNTER_WORDS = COUNTER_WORDS | {"milestone"}
COPIES = frozenset({"copy", "deepcopy", "dict", "OrderedDict"})  # what they copy is saved
# Functions a script runs once: `main()`, and what command decorators mark.
ENTRY_POINTS = frozenset({"main", "cli"})
COMMAND_DECORATORS = frozenset({"command", "main"})  # app.command(), click.command, hydra.main
# Clocks: a save between two reads of one is being measured.
TIMERS = frozenset(
    {"default_timer", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
     "process_time", "process_time_ns", "time", "time_ns"}
)
# Library savers that write a checkpoint folder's bulk in place, by method name: a
# torch.save beside one of them, into the same folder, makes one small file of a
# multi-file checkpoint atomic while the rest is written in place (pytorch-accelerated's
# `accelerator.save_state(dir)` then `torch.save(metadata, dir / "trainer_metadata.pt")`),
# so a crash still leaves a torn checkpoint and the helper is noise. Each writes model
# weights or training state, in place: `save_pretrained` (transformers, diffusers, peft,
# huggingface_hub: config and weight shards), `save_state` (accelerate: model, optimizer,
# scheduler, sampler and RNG files), `save_checkpoint` (DeepSpeed's engine, Lightning's
# Trainer), `save_model` (transformers' Trainer, accelerate, mlflow, safetensors),
# `save_16bit_model` (DeepSpeed), `save_lora_weights` (diffusers). Config writers
# (`save_config`, `to_json_file`) are not among them: they write a small file beside
# weights that torch.save writes, the bulk, whose atomicity is worth having. A method of
# one of these names defined in the project may be the project's own torch.save
# wrapper (neuraloperator's `model.save_checkpoint(dir, name)`), which atomic-save makes
# atomic too: such a call does not count (see `own_savers`).
LIBRARY_SAVERS = frozenset(
    {"save_pretrained", "save_state", "save_checkpoint", "save_model", "save_16bit_model",
     "save_lora_weights"}
)
# What a library saver's receiver may name it by: objects of a library's own (transformers'
# configs, tokenizers and processors) rather than the project's model or trainer.
RECEIVER_KINDS = frozenset({"config", "configuration", "tokenizer", "processor"})
# safetensors' savers, by qualified name (`save_file` is too common a name to go by).
SAFETENSORS_SAVERS = frozenset({"save_file", "save_model"})
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")

SWAPPED_MESSAGE = ("torch.save(obj, f) takes the object first and the file second: this "
                   "call hands it a path first, so it fails on every run; swap them")
# Words of a name that holds a path, and of one that holds an open file.
PATH_WORDS = frozenset({"path", "paths", "filename", "fname", "filepath", "file", "dir",
                        "folder"})
FILE_OBJECT_WORDS = frozenset({"f", "fp", "fh", "fd", "buffer", "buf", "stream", "io",
                               "handle", "out", "output"})
CALL_MESSAGE = (
    "torch.save writes in place, so a crash mid-write leaves a truncated file; save to a "
    "temporary file and rename it over the destination"
)
VALUE_MESSAGE = (
    "torch.save passed on as a value writes in place wherever it is called; pass the "
    "atomic helper instead"
)

DEFAULT_VALUE_REASON = (" (a parameter's default: see what the function passes it; where "
                        "it writes a temporary file and renames it, or passes open files, "
                        "nothing is to change)")

# Words of a call's name that say it writes files (`model.save`, `save_json`, `write_config`)
WRITER_WORDS = frozenset({"save", "write", "dump", "export"})
FRESH_FOLDER_MESSAGE = (
    "this checkpoint is a folder named per training counter, new each time, whose other "
    "files `{saver}` on line {line} writes in place: the file replaces nothing, and one "
    "atomic file leaves the folder as torn as before; to make the checkpoint atomic, write "
    "the folder under a temporary name and rename it once complete"
)
FRESH_FILES_MESSAGE = (
    "this checkpoint is several files named per training counter, new each time, and "
    "torch.save on line {line} writes another of them: the file replaces nothing, and one "
    "atomic file leaves the checkpoint as torn as before; to make it atomic, save its parts "
    "as one file, or write them into a folder under a temporary name and rename it once "
    "complete"
)
OPEN_MESSAGE = (
    "torch.save writes this path while the `with` on line {line} holds it open for "
    "writing: closing that file may truncate or overwrite what torch.save wrote; save to "
    "the open file instead, or drop the open"
)

# A checkpoint folder whose other files a library saver writes in place: every fresh
# review judged the atomic file alone pointless, even as an unsafe fix (composer,
# llamafactory, adapters, pyvene: rounds 12-20), so the report says what would help.
FOLDER_MESSAGE = (
    "torch.save writes in place, but the rest of this checkpoint folder is written in place "
    "by `{saver}` on line {line}: one atomic file leaves the folder as torn as before; to "
    "make the checkpoint atomic, write the folder under a temporary name and rename it "
    "once complete"
)
CONVERSION_REASON = (" (a one-shot conversion script: its output is made again by running it "
                     "again)")
# Folders and file-name words of scripts that convert weights from one format to another.
CONVERSION_FOLDERS = frozenset({"converters", "model_converters", "conversion", "convert"})
CONVERSION_WORDS = frozenset({"convert", "converter", "conversion"})
# What a weight-conversion script converts to, after "2" or "to" in its name
# (`tensorflow2pytorch.py`, `tf_to_torch.py`, `hf2pt.py`, DeepSpeed's `ds_to_universal.py`).
FORMAT_WORDS = frozenset({"pytorch", "torch", "pt", "pth", "onnx", "tf", "tensorflow", "jax",
                          "flax", "hf", "huggingface", "timm", "mmpretrain", "mmdet", "keras",
                          "safetensors", "ckpt", "lightning", "fp", "bf", "dtype",
                          "universal"})
EXPORT_REASON = " (an export: its output is made again by exporting again)"
EVALUATION_REASON = (" (an evaluation's snapshot: {function}() saves the weights into an "
                     "evaluation folder to evaluate them, and no run resumes from it)")
# A call that hashes content (`cal_file_md5`, `sha256`, `.hexdigest()`): a file named by
# one is a release, never rewritten.
HASH_NAME = re.compile(r"md5|sha\d|blake2|digest|checksum", re.IGNORECASE)
# Words of a function that tests or evaluates a model (`do_test`, `evaluate`).
EVALUATING_WORDS = frozenset({"test", "eval", "evaluate", "evaluation", "validate",
                              "validation"})
# genrl (round 29) numbers its runs by parsing the name of the newest entry of the folder
# it saves into: the hidden temporary folder a crash mid-save leaves there would be newest.
LISTED_FOLDER_REASON = (" (the code beside it lists a folder's entries, line {line}: where "
                        "that is the folder saved into, a temporary folder a crash "
                        "mid-save leaves there is listed too)")
# torch-mimicry's `Trainer._get_latest_checkpoint` lists the checkpoint folder and resumes
# from the entry with the highest `(\d+)_steps` (round 33): the temporary folder a crash
# leaves, `.netG_50000_steps.pth.<random>.tmp`, would be that entry, and resuming fails.
LATEST_LISTER_REASON = (" (the project picks its latest checkpoint by listing a folder, "
                        "{where}: where that is the folder saved into, a temporary folder a "
                        "crash mid-save leaves there is listed too)")
# Copies of a saver nothing calls (torchlaplace's vendored Latent ODE `save_checkpoint`,
# clearvoice's, pywick's: rounds 33 and 35 read rewriting them as churn of dead code).
UNCALLED_REASON = (" (nothing in the project names {function}(): whether a run resumes "
                   "from what it writes is up to callers torchfix cannot see)")
# The words of a function that looks for the newest checkpoint (`_get_latest_checkpoint`,
# `find_last_ckpt`, `resume_from_newest`).
LATEST_WORDS = frozenset({"latest", "last", "newest", "recent"})
LISTER_CHECKPOINT_WORDS = frozenset({"checkpoint", "checkpoints", "ckpt", "ckpts", "resume",
                                     "snapshot", "weights"})
# determined's `with checkpoint.store_path(metadata) as (path, storage_id): self._save(path)`
# and horovod's `with remote_store.get_local_output_dir() as run_output_dir:` (round 30):
# the manager hands out a fresh folder and commits, uploads or removes it when the block
# ends, so no reader sees a file torn mid-save; reviewers called the atomic save noise.
MANAGED_FOLDER_REASON = (" (the folder comes from `with {manager}`: the context manager "
                         "that hands it out decides when it is complete)")
# Calls that list a folder's entries: by qualified name, and Path's methods by name.
FOLDER_LISTINGS = frozenset({"os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.iglob"})
PATH_LISTINGS = frozenset({"iterdir", "glob", "rglob"})
# A file name with an extension, alone or after a separator ("model_params.pt", "/best.pth").
_FILE_NAME = re.compile(r"[/\\]?[\w.-]*\w\.(?:pt|pth|ckpt|bin|tar|pkl|safetensors|model)")
_EXTENSION = re.compile(r"\.(?:pt|pth|ckpt|bin|tar|pkl|safetensors|model)$")
# The oldest Python the helper runs on (f-strings, os.fspath, os.PathLike), and why a save
# is only reported in a project that still supports an older one (torchbearer, round 21).
HELPER_PYTHON = (3, 6)
OLD_PYTHON_REASON = ("the helper needs Python 3.6, and the project supports Python "
                     "{version} ({source})")
# torch 1.5 (April 2020) was the first without Python 3.5: a release of the days before it
# that declares no Python version may run there.
LAST_TORCH_ON_PYTHON_35 = (1, 5)
OLD_ERA_REASON = ("the helper needs Python 3.6, and the project declares no Python version "
                  "in metadata last changed in {month} ({source}), when its torch, {torch}, "
                  "still ran on Python 3.5")
# The project's tests replace torch.save with a mock and check what it was given: the
# helper hands torch.save a temporary path, so they fail (torchbearer, round 21).
MOCKED_SAVE = "atomic-save/mocked-save"
MOCKED_SAVE_REASON = ("the project's tests mock torch.save at {where}: the helper would hand "
                      "the mock a temporary path, which tests checking its arguments reject, "
                      "and then move a file a mock never wrote")
# The first words of functions that derive a file from another (a pruned, merged,
# converted, expanded or quantized copy), and why such a save is only an unsafe fix.
DERIVING_VERBS = frozenset({"prune", "merge", "convert", "expand", "extract", "quantize",
                            "consolidate"})
DERIVED_REASON = (" (a derived copy: {function}() makes it from a file that is still there, "
                  "and running it again makes it again)")
# A developer's own home folder spelled out: `/Users/<name>/`, `/home/<name>/`.
DEVELOPER_HOME = re.compile(r"^/(?:Users|home)/[A-Za-z][\w.-]*/")
DEVELOPER_FOLDER_REASON = (" (the module names a developer's own folder, {folder}: a script "
                           "run on one machine, whose owner decides what it should protect)")
TOOL_REASON = (" (a one-shot tool or benchmark script: what it writes is made again by "
               "running it again)")
# Top-level folders of release tools and benchmarks, and the first words of such scripts' names
# (`tools/export.py`, `benchmarks/benchmark.py`, `export_onnx.py`). Not `scripts/`: the
# training script often lives there.
TOOL_FOLDERS = frozenset({"tools", "benchmark", "benchmarks"})
CLI_REASON = (" (a one-shot command-line command: what it writes is made again by running "
              "it again)")
# A package's command-line commands: modules below a `cli/` folder, and `cli.py`/`__main__.py`.
CLI_FOLDERS = frozenset({"cli"})
CLI_MODULES = frozenset({"cli", "__main__"})
TOOL_WORDS = frozenset({"export", "publish", "benchmark", "bench"})
# torch functions that make up data: random ones, and constant ones beside them.
RANDOM_FACTORIES = frozenset({"rand", "randn", "randint", "randperm", "rand_like",
                              "randn_like", "randint_like", "normal", "bernoulli",
                              "multinomial", "poisson"})
CONSTANT_FACTORIES = frozenset({"zeros", "ones", "full", "empty", "arange", "linspace",
                                "eye", "zeros_like", "ones_like", "full_like"})
TENSOR_CASTS = frozenset({"float", "double", "half", "long", "int", "bool", "to", "cpu",
                          "cuda", "contiguous", "clone"})
# A checkpoint-format migration named by its versions: `v1_to_v2.py`, `v2_0_to_v2_1.py`.
VERSION_MIGRATION = re.compile(r"(?:.*_)?v\d+(?:_\d+)*_?to_?v\d+(?:_\d+)*(?:_.*)?")

FunctionPath = tuple[str, ...]  # names of the enclosing classes and functions
_UNKNOWN = object()  # a memo's "not worked out yet"


def _helper_mode(value: str) -> None:
    if value not in HELPER_MODES:
        raise ValueError(f"helper must be one of {', '.join(map(repr, HELPER_MODES))}, "
                         f"not {value!r}")


# -- what check() tells the editor --------------------------------------------------------


@dataclass(frozen=True)
class HelperPlan:
    """What the module needs for its rewritten references to work; one per file."""

    name: str  # what the rewritten code calls
    imports: tuple[ImportInsertion, ...] = ()
    # "inline": the helper's code (4-space indents), to insert before top-level statement
    # `max(a for a in anchors if a <= limit)`, where `limit` is the first statement that
    # runs a rewritten reference while the module is imported. None: nothing to insert.
    definition: str | None = None
    anchors: tuple[int, ...] = (0,)
    # The quote of the helper's strings when the formatter's configuration fixes one;
    # None: the file's majority, which the editor reads.
    quote: str | None = None


@dataclass(frozen=True)
class Rewrite:
    """Replace the finding's node: a call's callee, or a value reference, by the helper."""

    plan: HelperPlan
    import_time: int | None  # the top-level statement running it at import time, if any
    # The line grows past the line length with the helper's name: how to split it.
    layout: LineSplit | None = None


# -- the codemod ---------------------------------------------------------------------------


class AtomicSave(Codemod):
    """Save to paths atomically: temp file, fsync, `os.replace`.

    ## What it does
    Rewrites `torch.save(obj, destination, ...)` into a call of a small helper,
    `_torchfix_atomic_save(obj, destination, ...)`, defined once in the module after its
    docstring and imports (or, with `helper = "module"`, once per package: see below).
    For a path (`str` or `os.PathLike`) the helper saves into a temporary folder beside
    the destination, under the same file name, fsyncs the file and `os.replace`s it over
    the destination; on any error the temporary folder is removed and the old destination
    is untouched. Anything else (a `BytesIO`, an open file, a zip member) goes to
    `torch.save` unchanged.

    ## Why
    `torch.save` writes a path in place. A crash, an OOM kill or a preemption in the
    middle of the write leaves a truncated checkpoint behind, often the only one, and the
    next resume fails (or a cleanup job deletes the older good ones). Writing elsewhere
    and renaming means the destination always holds the old file or the complete new one.

    ## Example
    ```python
    import torch

    def save_checkpoint(model, path):
        torch.save({"model": model.state_dict()}, path)
    ```
    becomes
    ```python
    import os
    import shutil
    import tempfile
    import typing

    import torch


    def _torchfix_atomic_save(
        obj: object,
        f: typing.Any,
        *args: typing.Any,
        **kwargs: typing.Any,
    ) -> None:
        ...  # 53 lines, with a docstring saying torchfix inserted it and why


    def save_checkpoint(model, path):
        _torchfix_atomic_save({"model": model.state_dict()}, path)
    ```
    `os`, `shutil`, `tempfile` and `typing` are imported only where missing, in the
    standard library group of the imports, in the project's sort order (ruff's or isort's
    settings: `force-sort-within-sections` mixes plain and from-imports, `length-sort`
    puts shorter module names first; a new group
    before the others if the file has none), so isort and ruff's `I001` stay happy; the
    file's own order wins within the group (a plain import among the plain ones, the
    kinds placed as the file places them: catalyst's `from typing import ...` stays above
    `import collections` and the new plain imports). Where the module binds
    `typing.Any` already (`from typing import Any`, `import typing as t`), at module
    level before the helper, the helper's annotations use it and `typing` is not
    imported. The
    helper is annotated, RUF021-clean and formatter-stable: black and ruff format leave
    it as it is at any line length from 79 up (where ruff's `PTH` rules are on, it is
    written with pathlib and imports `pathlib`; where darglint checks docstrings, its
    docstring lists its parameters in darglint's style); its strings use the project's
    quote style
    (ruff's `quote-style`, black's normalization, else the file's majority). A helper an
    earlier torchfix inserted (unannotated, either quote) is recognised by its name and
    docstring marker and reused, never doubled. A line that the longer name pushes past
    the project's line length (else 88) is split as black would split it: at its last
    bracket pair, arguments on a line of their own (a display one element per line);
    lines with a pragma comment or already too long stay as they are.

    ## Where the helper lives: `helper = "auto"`, `"inline"` or `"module"`
    The rewritten code must not depend on torchfix, and the temp-file, fsync, permission
    and cleanup steps are too long to repeat at every call, so the calls go through a
    helper. Where it is defined is a choice (`[tool.torchfix.atomic-save] helper = ...`):
    - `"auto"` (the default): `"inline"` where one module of the top-level package (its
      folder tree; tests aside) gets the helper, `"module"` where two or more would or
      the package has torchfix's helper module already. The count is a project-wide
      fact (`Project.derived`): files holding `torch.save` or `.save(` are parsed and
      decided as here, once per run.
    - `"inline"`: one private function per module that saves. Each file
      stays self-contained (no new import, no package layout to rely on), the change is
      reviewed file by file, and a file copied elsewhere keeps working. The cost: a
      package with N such modules gets N copies of the same 53 lines.
    - `"module"`: the helper is written once per top-level package, into
      `<package>/_torchfix_atomic_save.py` (a new file, created by the run, shown by
      `diff` and removed by `undo`), and each rewritten module imports it in its own
      convention, then calls `atomic_save(...)`: a module that imports from its package
      relatively (`from ..models import Net`, anywhere in the module) gets the relative
      `from .._torchfix_atomic_save import atomic_save` (as many dots as it is deep:
      furthest-first in its relative group, as ruff and isort sort them), any other
      module the absolute `from <package>._torchfix_atomic_save import atomic_save`
      (PEP 8's recommendation: the same line whatever the module's depth). One
      definition to review and to change; the price is a new file in the package and an
      import that ties the modules to it. A file that is not inside a package (a
      script) gets the inline helper, since nothing could import the module reliably
      from there; a folder without `__init__.py` inside a regular package is a namespace
      subpackage of it (`litgpt/eval/`), script folders aside (`package_module_name`).
      The new module starts with the copyright/license comment block the package's
      modules share (`package_header`), and where the project's ruff runs ANN401 the
      helper types `f` without `Any` (`annotated`). A module of a package that is also
      run as a script
      (`python pkg/tools/export.py`) finds the absolute import only where the package
      is installed or on `sys.path`, as for any absolute import of the package (a
      module importing relatively cannot run as a script anyway).

    Either way, a module that already binds the helper's name to something else is left
    alone (and reported), and so is a package whose `_torchfix_atomic_save.py` is not
    torchfix's. The package helper's import joins the first-party import group (a
    relative one, the relative group). The inline helper reaches torch the way the
    module does (`torch.save`, `th.save`, `from torch import save as torch_save`). A
    helper already there, inline or imported, is reused whichever the option says, and
    its own `torch.save` calls are never rewritten, so running torchfix again changes
    nothing.

    ## What the helper keeps as it was
    - The file's bytes: torch.save names the archive inside the file after the file, so
      the temporary file has the destination's name, in a temporary folder.
    - Permissions: a new file is created by torch.save, so the umask applies exactly as
      before (not `mkstemp`'s 0600); a replaced file keeps its mode and its group, so a
      checkpoint on a shared cluster stays readable by the same people.
    - Behaviour where a rename would not give the same file: a destination that is not a
      regular file (`/dev/null`, a pipe), is read-only, has several hard links, belongs
      to another user or a group this process is not in, or sits in a folder this
      process cannot add files to is written in place by torch.save, exactly as before
      (including its errors). A symlinked destination is written through, as before.
    - `pickle_module`, `pickle_protocol`, `_use_new_zipfile_serialization` and every
      other argument, positional or keyword, pass through to torch.save.

    ## Fix safety
    Safe for calls: destinations that are paths get the promised atomic replace, and any
    other destination reaches torch.save unchanged through the helper's runtime check, so
    a destination that cannot be known statically (`f`, `args.out`) is safe too. The
    costs a reviewer should know: an fsync per save, the old and the new checkpoint both
    on disk while saving, and a process killed mid-save leaves a hidden
    `.<name>.<random>.tmp/` folder beside the destination (never a truncated checkpoint).
    What `torch.save` is comes from the module's imports: `import torch as th`,
    `from torch import save as S` and the like are followed, and a name rebound to
    something else is not torch.save.
    Left alone, because rewriting them would only add noise:
    - destinations that are file objects in this file: `io.BytesIO()`, `open(...)`,
      `zf.open(...)`, `factory.create_writer(...)`, names bound to those, every
      `with X(...) as f` target (a context manager hands out an open file, not a path;
      temporary folders aside), parameters annotated `BinaryIO`/`IO[bytes]`, names such
      as `buffer`, `stream`, `fh`, `writer`, and a name that an earlier
      `if isinstance(f, str): ...; return` in the function leaves as a file object;
    - temporary destinations (`tmp_path`, `tempfile.mkdtemp()`, `"/tmp/..."`, paths
      built from those, names bound to those), a destination built from a parameter
      that every caller in this file fills with a temporary path (for a private or
      nested function, or one with a single caller here: `save_for_hf(model, tmpdir)`
      before an upload), throwaway files (a destination named by `random`, `uuid`,
      `secrets` or `tempfile`, or removed later in the same function: `os.remove`,
      `os.unlink`, `Path.unlink`, `shutil.rmtree` of its folder), and saves that are
      already renamed into place (`os.replace`,
      `os.rename`, `shutil.move`, `Path.replace`/`rename`) in the same function, in a
      function it calls, or in a function of this module that calls it by name
      (`self._save(tmp); self._replace(tmp, path)`): they are atomic already;
    - debugging and logging artifacts: a save under `if debug:` (any condition naming
      debug, not negated), to a destination naming debug or dump (`debug_dir / "x.pt"`),
      or in a function named like `dump_activations`, `debug_save`, `log_video` or a
      TensorBoard-style `add_video`/`add_image`, or a method of a `...Logger` class,
      unless a function's name says checkpoint, state, model or weights
      (`dump_checkpoint` is rewritten);
    - re-creatable outputs, where a crash costs only a re-run: a destination naming
      results, metrics, a benchmark, a cache, features, embeddings or predictions
      (unless it also says checkpoint, model, state or weights), a cache the function
      loads where it exists and saves where it does not (`if not path.exists():
      torch.save(x, path)` beside a `torch.load(path)`), and a save that runs once per
      run of a script: outside any loop, at module level, under `if __name__ ==
      "__main__":`, or in `main()` or a function decorated as a command
      (`@app.command()`, `@click.command()`, `@hydra.main()`), and a prediction or
      embedding written per input file: a value computed by a call (`prediction =
      predict_from_file(audio_file)`, then `prediction[0].detach()`) in a function named
      `predict*`, `embed*`, `infer*`, `inference*` or `*_to_file(s)` whose name says no
      checkpoint word, where the value is no `state_dict()`, model, optimizer or
      scheduler, nothing of `self`, no global and no dict display; and a data dump
      outside any loop of a function with no checkpoint word in its names: the dataset
      itself (`torch.save(self, fname)` in a `...Dataset` class) or a display holding
      no training state that the module never loads back (`_saves_data`). Saves in epoch
      or step loops and `save_checkpoint`-style functions are rewritten;
    - remote URLs (`"s3://..."`), which torch.save cannot write anyway;
    - example code, resumable or not: files below `examples/`, `demos/`, `tutorials/`,
      `notebooks/` or `docs/` (below the folder torchfix runs in), named `demo_*.py`,
      `example_*.py` or `*_demo.py`/`*_tutorial.py`, or notebooks kept as scripts
      (`# %%`, `# In[1]:` cells): users copy examples, and the helper in each is noise;
      files below a hidden folder (mmseg's generated `.mim/tools/` copy);
    - made-up data: a saved value built only of constants, displays and torch's random
      and constant factories, at least one random (a test double's `torch.rand`
      timesteps, through an argument-less method of the module): nothing to lose;
    - in a function that rewrites a save, a file named from the same variable as that
      save's (`f"{path}_cache_data"` beside `f"{path}_state"`) is part of the same
      checkpoint and rewritten too, whatever words its name holds;
    - test code (`test_*.py`, `*_test.py`, `conftest.py`, files under `test/`, `tests/`,
      `testing/` or `test_utils/` below the folder torchfix runs in): their checkpoints
      live in temporary folders, and tests that mock `torch.save` and check its
      destination would break;
    - scratch files of a class that makes its own temporary folder (`self.temp_dir =
      tempfile.mkdtemp()`): built from it, or a parameter where the class builds paths
      in it elsewhere;
    - a module-level alias `_torch_save = torch.save`: code keeping the original
      function, typically around a monkeypatch, which the helper would recurse into.
    **Unsafe** (applied with `--unsafe-fixes`, otherwise reported): `torch.save` passed
    on as a value (`save_function=torch.save`, `partial(torch.save, ...)`), and calls
    whose destination is hidden in `*args`/`**kwargs`; the code that receives or forwards
    them may rely on the old function itself. So is a save between two clock reads
    (`t0 = time.perf_counter()` before, `time.perf_counter() - t0` after): it is being
    measured, and the fsync and rename change what is measured. A save into a
    checkpoint folder whose other files a library saver writes in place in the same function
    (`accelerator.save_state(dir)`, `model.save_pretrained(dir)`, safetensors'
    `save_file`: `LIBRARY_SAVERS`), the two running together and the saver no method the
    project defines itself, is reported: a crash still tears the folder, one atomic file in
    it is noise (several torch.saves into one folder are rewritten). Unsafe: every save
    in a one-shot conversion script (below `model_converters/` or `converters/`, named
    `convert_*.py`, or a version migration such as `v1_to_v2.py`), and every save in a
    release tool (`export*.py`, `publish*.py`, a top-level `tools/`) or command-line
    command (below `cli/`, `cli.py`, `__main__.py`; not in a function named for
    checkpoints): its output is made again by running it again; such a conversion or
    tool script that no other file of the project names is left alone altogether (a
    developer's script run by hand). Unsafe too: a save to
    a new file per training counter (`f"model_{epoch}.pt"`, `f"model-{milestone}.pt"`,
    formatted by the function or passed in by every call of it in the module), whatever
    it holds: none is overwritten, a crash tears only the newest, and reviewers split on
    whether that is worth a change. **Reported**, not
    rewritten: every save where the project has its own atomic writer
    (`own_atomic_writer`), which the message names; a save to
    a path that an enclosing `with` holds open for writing (`with open(path, "wb") as f:
    torch.save(obj, path)`, or `with opened as f` for `opened = fsspec.open(path, "wb")`):
    closing that file can truncate or overwrite what torch.save wrote; and a save into a
    checkpoint folder named per training counter whose other files a call of the function
    writes in place (`model.save(checkpoint_dir)`): the folder is the checkpoint. With
    the inline helper, a module that reaches torch only through imports inside functions,
    or binds `os`, `shutil` or `tempfile` to something else, is reported, not rewritten.
    """

    name = "atomic-save"
    summary = "Make torch.save replace path destinations atomically (temp file, fsync, rename)."
    triggers = (b"save",)
    fix_safety = "safe, unsafe"
    family = "checkpoints"
    editor = ".atomic_save_edit:AtomicSaveEditor"
    options = (
        Option("helper", "auto",
               'where the helper is defined: "inline" (once in each module that saves), '
               '"module" (once per package, in <package>/_torchfix_atomic_save.py, '
               'imported by the modules), or "auto" (inline where one module of the '
               'package saves, the package module where two or more do)', _helper_mode),
    )

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        # Tests: no value there, mocks would break. The package helper is the helper.
        # A hidden folder (mmseg's `.mim/`) holds a generated copy of the project's files.
        return (is_test_path(path) or path.name == f"{HELPER_MODULE}.py"
                or in_hidden_folder(path))

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        aliases = _save_aliases(tree)
        lines = {
            node.lineno for node in nodes_of(tree, ast.Attribute)
            if node.attr == "save" and isinstance(node.value, (ast.Name, ast.Attribute))
        }
        if aliases:
            lines.update(node.lineno for node in nodes_of(tree, ast.Name) if node.id in aliases)
        return lines

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if is_example(file):  # users copy examples: a 55-line helper in each is noise
            return
        facts = _Facts(file)
        decisions = list(facts.decisions(facts.references()))
        for node, decision, message in decisions:
            if decision is Safety.MANUAL:  # nothing to rewrite: a human decides
                yield Finding(node, message, Safety.MANUAL)
        kept_in_place = _kept_in_place(facts.model, decisions)
        decisions = [d for d in decisions if d[1] is not Safety.MANUAL]
        if not decisions:
            return
        decisions = [
            (node, Safety.UNSAFE, message + BESIDE_IN_PLACE_REASON.format(line=line))
            if decision is Safety.SAFE and (line := kept_in_place.get(id(node))) is not None
            else (node, decision, message)
            for node, decision, message in decisions]
        reason = (CONVERSION_REASON if is_conversion_script(file)
                  else TOOL_REASON if is_tool_script(file) else None)
        if reason is not None and _standalone(file):
            # facenet-pytorch-custom's `tensorflow2pytorch.py` (round 50): a developer's
            # script nothing imports, run once; reviewers called all 9 unsafe fixes not
            # worth applying (cistardist's converter, which the package calls, stays one)
            return
        if reason is not None:
            decisions = _unsafe_for(decisions, reason)
        elif (writer := _own_atomic_writer(file)) is not None:
            # reported, not rewritten: a maintainer uses theirs, and torchfix's helper
            # beside it was a second one (lightning's `_atomic_save`, round 30, whose
            # standalone packages would not even ship a new top-level helper module)
            for node, _, message in decisions:
                yield Finding(node, f"{_without_weak_reason(message)} (use the project's "
                              f"own {writer})", Safety.MANUAL)
            return
        elif is_cli_command(file):  # unless the function's name says checkpoint
            decisions = _unsafe_for(decisions, CLI_REASON,
                                    keep=lambda node: facts.in_checkpoint_function(node))
        python = file.project.python_floor()
        era = file.project.torch_era() if python is None and file.min_torch() is None \
            else None
        if python is not None and python.version < HELPER_PYTHON:
            # not even unsafe: the module would not import there (pytorch-pretrained-bert,
            # round 23, branches on Python 2 in its code)
            reason = OLD_PYTHON_REASON.format(
                version=f"{python.version[0]}.{python.version[1]}", source=python.source)
        elif era is not None and era.torch < LAST_TORCH_ON_PYTHON_35:
            # torchlib (2018) and pytorch-skipthoughts (2017), round 56: releases of the
            # days of torch on Python 3.5, declaring no Python; their reviewers called the
            # helper's f-strings wrong there
            reason = OLD_ERA_REASON.format(month=era.month_text, source=era.source,
                                           torch=f"{era.torch[0]}.{era.torch[1]}")
        else:
            reason = None
        if reason is not None:
            for node, _, message in decisions:
                yield Finding(node, f"{_without_weak_reason(message)}; not rewritten: {reason}",
                              Safety.MANUAL)
            return
        mocked = file.project.derived(MOCKED_SAVE, str(file.project.root))
        if mocked:
            # not even unsafe: ktorch's test (round 54) checks `assert_called_once_with(
            # state, path)`, and a mock that writes nothing leaves the helper no file to
            # move: the tests that mock torch.save fail once the helper calls it
            reason = MOCKED_SAVE_REASON.format(where=mocked)
            for node, _, message in decisions:
                yield Finding(node, f"{_without_weak_reason(message)}; not rewritten: {reason}",
                              Safety.MANUAL)
            return
        # The first top-level statement running a rewritten save while the module is
        # imported: the inline helper goes before it (see HelperPlan.anchors).
        limit = min((index for node, _, _ in decisions
                     if (index := facts.import_time_statement(node)) is not None),
                    default=len(file.tree.body))
        plan, blocker, creates = _Helper(file, facts, cls, limit).decide()
        per_line = Counter(node.lineno for node, _, _ in decisions)
        # The import torch.save is reached through goes once nothing uses it (with the
        # package helper: ruff's F401); the shared RemoveImport keeps isort's blank lines.
        drop = facts.save_import([node for node, _, _ in decisions]) \
            if plan is not None and plan.definition is None else ()
        for node, decision, message in decisions:
            if blocker is not None:
                yield Finding(node, f"{message}; not rewritten: {blocker}", Safety.MANUAL)
                continue
            assert plan is not None
            layout = _layout(file, node, plan.name) if per_line[node.lineno] == 1 else None
            yield Finding(node, message, decision, edits=(*creates, *drop),
                          data=Rewrite(plan, facts.import_time_statement(node), layout))


BESIDE_IN_PLACE_REASON = (" (the save at line {line} of this function is not made atomic by "
                          "default: one atomic file beside it leaves the set as torn as "
                          "before)")


def _kept_in_place(model: SemanticModel, decisions: list[tuple[ast.expr, Safety, str]]
                   ) -> dict[int, int]:
    """For each safe save (by node id), the line of another save of the same function
    that a default run leaves writing in place (an unsafe fix, or a report). renate's
    avalanche updater writes `model.ckpt` in place and then its state file atomically:
    round 27 called the lone atomic save noise. A new file of weights per epoch
    (`PER_COUNTER_REASON`) is no part of such a set: torn, it leaves the other files as
    they were."""
    others: dict[int, list[int]] = {}
    for node, decision, message in decisions:
        if decision is not Safety.SAFE and PER_COUNTER_MARK not in message:
            function = model.enclosing_function(node)
            if function is not None:
                others.setdefault(id(function), []).append(node.lineno)
    found: dict[int, int] = {}
    for node, decision, _ in decisions:
        function = model.enclosing_function(node)
        if decision is Safety.SAFE and function is not None and id(function) in others:
            found[id(node)] = min(others[id(function)])
    return found


def _unsafe_for(decisions: list[tuple[ast.expr, Safety, str]], reason: str,
                keep: Callable[[ast.expr], bool] = lambda node: False,
                ) -> list[tuple[ast.expr, Safety, str]]:
    """The decisions with every fix the file's kind makes unsafe (a conversion script, a
    CLI command...) unsafe for `reason`, which says more than "nothing says it is a
    checkpoint" and so takes that one's place; `keep`: fixes left as they are."""
    return [
        (node, Safety.UNSAFE, _without_weak_reason(message) + reason)
        if (decision is Safety.SAFE or _without_weak_reason(message) != message)
        and not keep(node) else (node, decision, message)
        for node, decision, message in decisions
    ]


def _without_weak_reason(message: str) -> str:
    """The message without the reason a file's kind overrides: "nothing says it is a
    checkpoint", or "a derived copy" (a CLI command or a conversion script says more)."""
    if message.endswith(UNKNOWN_CHECKPOINT_REASON):
        return message.removesuffix(UNKNOWN_CHECKPOINT_REASON)
    if message.startswith(CALL_MESSAGE + DERIVED_REASON.split("{", 1)[0]):
        return CALL_MESSAGE
    return message


def _in_debug_folder(path: Path, root: Path) -> bool:
    """Whether the module lies in a `debug/` (or `debugging/`) folder below the project
    root (a file outside the root, another drive's included, is in none)."""
    try:
        folders = Path(os.path.relpath(path.parent, root)).parts
    except ValueError:  # another drive (Windows)
        return False
    return any(part.lower() in ("debug", "debugging") for part in folders)


def _existence_tested(node: ast.AST) -> ast.expr | None:
    """The path an existence test asks about: `os.path.exists(p)`, `os.path.isfile(p)`,
    `p.exists()`, `p.is_file()`; None for anything else."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    if node.func.attr in ("exists", "isfile") and len(node.args) == 1 \
            and _dotted(node.func.value).endswith("path"):
        return node.args[0]
    if node.func.attr in ("exists", "is_file") and not node.args:
        return node.func.value
    return None


def _same_pattern(removed: ast.expr, destination: ast.expr) -> bool:
    """Whether a removed path is written like the destination but for the f-string's
    fields: clip-benchmark (round 29) saves `f"features{save_str}_cache_{num_cached}.pt"`
    in a loop and removes `f"features{save_str}_cache_{k}.pt"` for every k at the end."""
    pieces = _text_pieces(destination)
    return len(pieces) > 1 and any(_EXTENSION.search(piece) for piece in pieces) \
        and pieces == _text_pieces(removed) \
        and _shape(removed) == _shape(destination)


def _text_pieces(node: ast.expr) -> list[str]:
    """The string constants written in `node`, in order (an f-string's literal parts)."""
    return [inner.value for inner in ast.walk(node)
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str)]


def _shape(node: ast.expr) -> str:
    """`node` with the values of its f-strings' fields left out."""
    def strip(inner: ast.AST) -> ast.AST:
        if isinstance(inner, ast.FormattedValue):
            return ast.Constant(value=None)
        for field_name, value in ast.iter_fields(inner):
            if isinstance(value, ast.AST):
                setattr(inner, field_name, strip(value))
            elif isinstance(value, list):
                setattr(inner, field_name, [strip(item) if isinstance(item, ast.AST) else item
                                            for item in value])
        return inner
    return ast.dump(strip(copy.deepcopy(node)))


def _is_default(node: ast.expr, parent: ast.AST | None) -> bool:
    """Whether `node` is the default value of a parameter of `parent` (a def or lambda,
    which the semantic model makes the parent of its defaults)."""
    if not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    arguments = parent.args
    return any(default is node for default in (*arguments.defaults, *arguments.kw_defaults))


def _layout(file: FileContext, node: ast.expr, name: str) -> LineSplit | None:
    """How to split the line of `node` (a call, or a value reference) once the reference
    is renamed to `name`, if that makes it outgrow the line length (black's layout)."""
    reference = node.func if isinstance(node, ast.Call) else node
    span = file.span(reference)
    if span.line != span.end_line:
        return None
    return split_line(file, reference, [(span.column, span.end_column, name)])


# -- the file's facts, from the semantic model ----------------------------------------------


class NameKind(Enum):
    FILE = "file"  # an open file or buffer
    TEMPORARY = "temporary"  # a temporary folder or file
    OTHER = "other"


@dataclass
class _Calls:
    """What the code of one function (or class body, or the module) calls."""

    renames: bool = False  # os.replace / os.rename / shutil.move / Path.replace ...
    names: set[str] = field(default_factory=set)  # the last names of the functions it calls


class _Facts:
    """What one file says about its torch.save references, read off the semantic model."""

    def __init__(self, file: FileContext) -> None:
        self.file = file
        self.model: SemanticModel = file.semantic
        self.tree = file.tree
        self._marker: ast.Call | bool | None = False  # commit_marker(), once worked out
        self._binding_kinds: dict[int, NameKind | None] = {}  # _binding_kind, per binding
        self._random_bindings: dict[int, bool] = {}  # _random_name, per binding
        self._parameters_of: dict[int, frozenset[str]] = {}  # _parameters_behind, per binding
        self.helper_def = _inline_helper(self.tree)  # our helper, from an earlier run
        self._calls: dict[FunctionPath, _Calls] | None = None
        self._module_loads: bool | None = None  # _fresh_snapshot, once worked out

    # -- references ----------------------------------------------------------------------

    def references(self) -> list[ast.Name | ast.Attribute]:
        """Every read of torch.save outside the helper, in source order."""
        model = self.model
        found: list[ast.Name | ast.Attribute] = []
        for node in nodes_of(self.tree, ast.Attribute):
            if node.attr != "save" or not isinstance(node.ctx, ast.Load):
                continue
            if model.qualified_name(node) in TORCH_SAVE or (
                    isinstance(node.value, ast.Name)
                    and _optional_torch(model.bindings(node.value))):
                found.append(node)
        aliases = _save_aliases(self.tree)
        if aliases:
            for name in nodes_of(self.tree, ast.Name):
                if name.id in aliases and isinstance(name.ctx, ast.Load) and \
                        self._is_imported_save(name):
                    found.append(name)
        if self.helper_def is not None:
            found = [node for node in found if not self.inside(node, self.helper_def)]
        return sorted(found, key=lambda node: (node.lineno, node.col_offset))

    def _is_imported_save(self, name: ast.Name) -> bool:
        # Only a name every binding of which imports torch.save: `from torch import save`
        # in a module that also defines `def save` is ambiguous, and `_torch_save =
        # torch.save` keeps the original function (see the docstring).
        bindings = self.model.bindings(name)
        return bool(bindings) and all(
            b.is_import and b.qualified_name in TORCH_SAVE for b in bindings)

    def save_import(self, rewritten: Sequence[ast.expr]) -> tuple[RemoveImport, ...]:
        """The removal of the top-level `import torch [as th]` (for `torch.save`) or `from
        torch import save [as S]` (for `S`) that every rewritten reference goes through,
        importing that one name: the shared RemoveImport takes it away once nothing uses
        it after the edit (no other reference, annotation or `__all__` entry)."""
        binding: Binding | None = None
        for node in rewritten:
            reference = node.func if isinstance(node, ast.Call) else node
            name = reference.value if isinstance(reference, ast.Attribute) else reference
            if not isinstance(name, ast.Name):
                return ()
            bindings = self.model.bindings(name)
            if len(bindings) != 1 or (binding is not None and bindings[0] is not binding):
                return ()
            binding = bindings[0]
        if binding is None or not binding.is_import or \
                binding.scope is not self.model.module_scope:
            return ()
        statement = binding.statement
        if not isinstance(statement, (ast.Import, ast.ImportFrom)) or \
                len(statement.names) != 1:
            return ()
        alias = statement.names[0]
        if isinstance(statement, ast.Import) and alias.name == "torch":
            return (RemoveImport("torch", None, alias.asname),)
        if isinstance(statement, ast.ImportFrom) and not statement.level and \
                statement.module in ("torch", "torch.serialization") and alias.name == "save":
            return (RemoveImport(statement.module, "save", alias.asname),)
        return ()

    def inside(self, node: ast.AST, container: ast.AST) -> bool:
        return any(ancestor is container for ancestor in self.model.ancestors(node))

    def decisions(self, references: Sequence[ast.Name | ast.Attribute]
                  ) -> Iterator[tuple[ast.expr, Safety, str]]:
        """(node to rewrite, safety, message) for every reference that is to change."""
        model = self.model
        for node in references:
            parent = model.parent(node)
            if isinstance(parent, ast.Call) and parent.func is node:
                decided = self._call_decision(parent)
                if decided is not None:
                    yield parent, decided[0], decided[1]
            elif isinstance(parent, ast.Attribute) and parent.value is node:
                continue  # `torch.save.__code__`: read about, not passed on (torchwrench)
            elif not self._is_module_alias(node, parent) and \
                    not self.renames_in(model.function_path(node)):
                if _is_default(node, parent) and not self._default_saves_paths(node):
                    # `def __init__(self, savefun=torch.save)`: the function decides what
                    # it passes (pytorch-pfn-extras' writers pass an open file of a
                    # temporary they rename: the helper would change nothing; round 14)
                    yield node, Safety.MANUAL, VALUE_MESSAGE + DEFAULT_VALUE_REASON
                else:
                    yield node, Safety.UNSAFE, VALUE_MESSAGE

    def _default_saves_paths(self, node: ast.expr) -> bool:
        """Whether the function whose parameter defaults to `node` (torch.save) calls that
        parameter itself, each time with a destination that is no file object: then the
        helper has paths to make atomic; else (stored away, passed on, or given open
        files) nothing here says so."""
        function = self.model.parent(node)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        arguments = function.args
        names = [*arguments.posonlyargs, *arguments.args]
        pairs = [*zip(names[len(names) - len(arguments.defaults):], arguments.defaults,
                      strict=True),
                 *((a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults,
                                          strict=True) if d is not None)]
        parameter = next((a.arg for a, default in pairs if default is node), None)
        calls = [c for c in nodes_of(self.tree, ast.Call)
                 if isinstance(c.func, ast.Name) and c.func.id == parameter
                 and self.model.enclosing_function(c) is function]
        if parameter is None or not calls:
            return False
        for call in calls:
            destination, _ = _destination(call)
            if destination is None or self._is_file_object(destination, call):
                return False
        return True

    def _is_module_alias(self, node: ast.expr, parent: ast.AST | None) -> bool:
        """`_torch_save = torch.save` at module level: keeps the original function."""
        return (isinstance(parent, ast.Assign) and parent.value is node
                and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
                and self.model.scope_of(node) is self.model.module_scope)

    def import_time_statement(self, node: ast.AST) -> int | None:
        """The index of the top-level statement holding `node` if it runs while the module
        is imported (not inside a function or lambda); None otherwise."""
        scope = self.model.scope_of(node)
        while scope is not None:
            if scope.kind in (ScopeKind.FUNCTION, ScopeKind.LAMBDA):
                return None
            scope = scope.parent
        top: ast.AST = node
        for ancestor in self.model.ancestors(node):
            if ancestor is self.tree:
                break
            top = ancestor
        return next(i for i, statement in enumerate(self.tree.body) if statement is top)

    # -- calls ---------------------------------------------------------------------------

    def _call_decision(self, call: ast.Call) -> tuple[Safety, str] | None:
        """(safety, message) for a torch.save call to rewrite or report; None to leave
        it alone."""
        if self.renames_in(self.model.function_path(call)):
            return None
        destination, hidden = _destination(call)
        if destination is None:
            if hidden:
                return Safety.UNSAFE, CALL_MESSAGE + " (the destination is hidden in " \
                                                     "*args/**kwargs)"
            return None  # not a valid torch.save call: not ours to judge
        if _swapped(call, destination):
            return Safety.MANUAL, SWAPPED_MESSAGE
        if (self._is_file_object(destination, call) or self._is_temporary(destination)
                or _is_url(destination) or self._temporary_from_callers(destination, call)
                or self._is_throwaway(destination, call) or self._saves_made_up_data(call)
                or self._in_own_scratch_folder(destination, call)
                or self._relative_in_temporary_cwd(destination, call)):
            return None
        opened = self._opened_for_writing(destination, call)
        if opened is not None:
            return Safety.MANUAL, OPEN_MESSAGE.format(line=opened.lineno)
        if self._is_debug_artifact(destination, call) or self._is_recreatable(destination, call) \
                or self.commit_marker() is not None or self._emptied_first(destination, call) \
                or self._folder_marks_it_done(destination, call) \
                or self._linked_after(call) or self._named_by_pointer_after(destination, call):
            return None
        if self._is_export(call) or self._content_addressed(destination, call):
            return Safety.UNSAFE, CALL_MESSAGE + EXPORT_REASON
        evaluating = self._evaluation_snapshot(destination, call)
        if evaluating is not None:
            return Safety.UNSAFE, CALL_MESSAGE + EVALUATION_REASON.format(function=evaluating)
        if self._is_timed(call):
            return Safety.UNSAFE, CALL_MESSAGE + " (the save is timed: the fsync and " \
                                                 "rename change what is measured)"
        if self._in_refusing_folder(destination, call):
            return None  # the listing beside it only refuses a folder with files in it
        listing = self._folder_listing_beside(call)
        if listing is not None:
            return Safety.UNSAFE, CALL_MESSAGE + LISTED_FOLDER_REASON.format(line=listing.lineno)
        project = self.file.project
        lister = project.derived(LATEST_LISTER, str(project.root))
        if lister:
            return Safety.UNSAFE, CALL_MESSAGE + LATEST_LISTER_REASON.format(where=lister)
        sibling = self._fresh_folder_sibling(destination, call)
        if sibling is not None:
            return Safety.MANUAL, FRESH_FOLDER_MESSAGE.format(
                saver=_dotted(sibling.func) or "another writer", line=sibling.lineno)
        sibling = self._fresh_file_sibling(destination, call)
        if sibling is not None:
            return Safety.MANUAL, FRESH_FILES_MESSAGE.format(line=sibling.lineno)
        saver = self._library_saver_beside(destination, call) or \
            self._bulk_writer_beside(destination, call)
        if saver is not None:
            return Safety.MANUAL, FOLDER_MESSAGE.format(
                saver=_dotted(saver.func) or "a library saver", line=saver.lineno)
        if self._fresh_snapshot(destination, call) or self._in_run_buffer(destination, call) \
                or self._picked_unused(destination, call) \
                or self._in_fresh_folder(destination, call):
            return None
        manager = self._managed_folder(destination, call)
        if manager is not None:
            return Safety.UNSAFE, CALL_MESSAGE + MANAGED_FOLDER_REASON.format(manager=manager)
        stopper = self._early_stopping_class(call)
        if stopper is not None:
            return Safety.UNSAFE, CALL_MESSAGE + EARLY_STOPPING_REASON.format(owner=stopper)
        if not self._resumed_from(destination, call):
            return Safety.UNSAFE, CALL_MESSAGE + UNKNOWN_CHECKPOINT_REASON
        derived = self._derived_copy(call)
        if derived is not None:  # last: the file's kind (a CLI, a conversion) says more
            return Safety.UNSAFE, CALL_MESSAGE + DERIVED_REASON.format(function=derived)
        chosen = self._caller_chosen(destination, call)
        if chosen is not None and not self._says_checkpoint(destination, call):
            return Safety.UNSAFE, CALL_MESSAGE + CALLER_CHOSEN_REASON.format(
                parameter=chosen, function=self.model.function_path(call)[-1])
        uncalled = self._uncalled_function(call)
        if uncalled is not None:
            return Safety.UNSAFE, CALL_MESSAGE + UNCALLED_REASON.format(function=uncalled)
        home = self._developer_folder()
        if home is not None:
            return Safety.UNSAFE, CALL_MESSAGE + DEVELOPER_FOLDER_REASON.format(folder=home)
        counter = self._new_file_per_counter(destination, call)
        if counter is not None:
            return Safety.UNSAFE, CALL_MESSAGE + PER_COUNTER_REASON.format(counter=counter)
        work = self._final_save_after(call)
        if work is not None:
            return Safety.UNSAFE, CALL_MESSAGE + FINAL_SAVE_REASON.format(line=work.lineno)
        return Safety.SAFE, CALL_MESSAGE

    def _final_save_after(self, call: ast.Call) -> ast.AST | None:
        """The training loop or `.fit(...)` call that the save follows, once, in the same
        function (or script): shapr-torch's `torch.save` after `trainer.fit(...)` (round
        57), pytorch-ner's final `model.pth` (round 56). Written once a run, the file is
        made again by running again, and reviewers split on the helper there (accepted
        for chrombpnet's final weights, round 54; noise or not a fix for these two).
        None where the save repeats (in a loop), or the function's name says checkpoint
        (`save_checkpoint` is called over and over)."""
        function = self.model.enclosing_function(call)
        if self.in_checkpoint_function(call):
            return None
        container: ast.AST = function if function is not None else self.tree
        statement = self.model.statement(call)
        for ancestor in self.model.ancestors(call):
            if ancestor is container:
                break
            if isinstance(ancestor, (ast.For, ast.AsyncFor, ast.While, ast.comprehension,
                                     ast.ListComp, ast.SetComp, ast.DictComp,
                                     ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef,
                                     ast.Lambda)):
                return None
        if statement is None:
            return None
        for node in ast.walk(container):
            if getattr(node, "lineno", statement.lineno) >= statement.lineno:
                continue
            if self.model.enclosing_function(node) is not function:
                continue
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and any(
                    isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
                    and inner.func.attr in ("backward", "step") for inner in ast.walk(node)):
                return node
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr == "fit":
                return node
        return None

    def _developer_folder(self) -> str | None:
        """The home folder a module-level assignment of the module names (`MODEL_PATH =
        "/Users/jane/Documents/GitHub/proj/models"`): a developer's own script, run on
        one machine, not the project's code (agent-torch's legacy trainer, round 49,
        whose safe rewrite its reviewer called noise). None where no such string is
        bound at module level."""
        for statement in self.tree.body:
            if not isinstance(statement, ast.Assign | ast.AnnAssign) or statement.value is None:
                continue
            for node in ast.walk(statement.value):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    match = DEVELOPER_HOME.match(node.value)
                    if match is not None:
                        return match.group(0)
        return None

    def _new_file_per_counter(self, destination: ast.expr, call: ast.Call) -> str | None:
        """The training counter the file's name formats (`"yolov3_ckpt_%05d.pth" %
        epoch`, `f"model-{milestone}.pt"`), in the function or in every call of it in this
        module that passes the name (`save_checkpoint(state, filename="checkpoint_%d.pth"
        % step)`): a new file each time, none overwritten, so a crash tears only the newest
        while every earlier one survives. Reviewers split on these: torch-yolo3's weights
        (round 41), bob-learn-pytorch's `model_{epoch}_{iteration}.pth` with its counters
        (round 46), mc-dropout-pytorch's `model-{milestone}.pt` that `load(milestone)`
        reads back and yqn's per-step checkpoints (round 47) were noise to theirs, while
        video-diffusion's and emp-ssl's same `load(milestone)` pattern (rounds 24 and 43)
        were accepted. Where reviewers split, the fix is one to apply on request. None
        elsewhere."""
        function = self.model.enclosing_function(call)
        scope = self.model.scope_created_by(function) if function is not None else None
        counters = self._formatted_counters(destination, scope)
        if counters:
            return sorted(counters)[0]
        return self._counter_from_callers(destination, call)

    def _counter_from_callers(self, destination: ast.expr, call: ast.Call) -> str | None:
        """The training counter that every call of the saving function in this module
        formats into the argument the destination is made of (yqn's `save_checkpoint(...,
        filename="checkpoint_%d.pth" % step)` to `def save_checkpoint(state, is_best,
        directory, filename="checkpoint.pth")`); None where a call passes something else
        or leaves the default, or no call is seen."""
        function = self.model.enclosing_function(call)
        if function is None:
            return None
        arguments = function.args
        positional = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
        home = self.model.scope_of(function)
        method = isinstance(home.node, ast.ClassDef)
        calls = []
        for other in nodes_of(self.tree, ast.Call):
            if isinstance(other.func, ast.Attribute) and method and \
                    isinstance(other.func.value, ast.Name) and \
                    other.func.value.id in ("self", "cls"):
                called = other.func.attr
            elif isinstance(other.func, ast.Name) and not method:
                called = other.func.id
            else:
                continue
            if called == function.name:
                calls.append(other)
        for parameter in self._destination_parameters(destination, call) if calls else ():
            index = positional.index(parameter) - int(method) if parameter in positional else -1
            found: set[str] = set()
            for other in calls:
                value = next((keyword.value for keyword in other.keywords
                              if keyword.arg == parameter), None)
                if value is None and 0 <= index < len(other.args) and not any(
                        isinstance(argument, ast.Starred)
                        for argument in other.args[:index + 1]):
                    value = other.args[index]
                counters = _counters_formatted(value) if value is not None else []
                if not counters:
                    break
                found.update(counters)
            else:
                return sorted(found)[0]
        return None

    def _uncalled_function(self, call: ast.Call) -> str | None:
        """The module-level function around the save where nothing in the project names it
        but its own `def`: no call, import, `__all__` entry, docstring or entry point
        (`mentions`). A method may be called by a framework's hook; a module-level
        function is called by name or not at all."""
        outermost = next((statement for statement in self.tree.body
                          if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and self.inside(call, statement)), None)
        if outermost is None or outermost.name.startswith("__"):
            return None
        project = self.file.project
        # 0: the module is not among the project's files on disk (an editor's buffer of
        # another project's file): nothing is known of its callers
        if project.derived(MENTIONS, outermost.name) != "1":
            return None
        return outermost.name

    def _resumed_from(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether something says the file is a checkpoint a run resumes from, the one
        save a crash must not tear: its destination names one (`ckpt_path`,
        `"checkpoint.pt"`, `f"epoch_{epoch}.pt"`, `best.pt`, `latest`), through the
        function's assignments; the function's name says so (`save_checkpoint`,
        `on_save_checkpoint`, `snapshot`); the saved value holds what only resuming needs
        (optimizer or scheduler state, a training counter); the save runs in a loop over
        epochs or steps; or the module loads the file back. Four fresh
        reviews found atomic saves of everything else (exports, scratch and cache files,
        per-item outputs, one file of a folder written in place) noise more often than
        not: those are unsafe fixes, applied on request."""
        return self._says_checkpoint(destination, call) or self._loaded_back(destination) \
            or self._loaded_by_sibling_method(destination, call)

    def _says_checkpoint(self, destination: ast.expr, call: ast.Call) -> bool:
        """What the code itself says of the file (`_resumed_from` less the loads back):
        its destination or function names a checkpoint, the saved value holds resume-only
        state, or the save runs in an epoch or step loop."""
        function = self.model.enclosing_function(call)
        scope = self.model.scope_created_by(function) if function is not None else None
        if self._words_through(destination, scope) & RESUME_WORDS:
            return True
        if any(set(identifier_words(name)) & RESUME_FUNCTION_WORDS
               for name in self.model.function_path(call)):
            return True
        if call.args and not isinstance(call.args[0], ast.Starred) and \
                self._words_through(call.args[0], scope) & RESUME_VALUE_WORDS:
            return True  # optimizer state or a training counter: made to resume from
        for ancestor in self.model.ancestors(call):
            if ancestor is function:
                break
            if isinstance(ancestor, (ast.For, ast.AsyncFor)) and \
                    _words_in(ancestor.target) & RESUME_WORDS:
                return True  # `for epoch in range(epochs): ... torch.save(...)`
        return False

    def _in_run_buffer(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the file is a buffer of one run: the function that saves it loads it
        back itself, after the save (early stopping's best weights, restored when patience
        runs out: lightautoml's L2X `train()`, round 25), and no other function of the
        module loads it. A crash loses the run that would read it, so an atomic write
        protects nothing."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        target = ast.dump(destination)
        loads = [node for node in nodes_of(self.tree, ast.Call)
                 if _loads(node) and ast.dump(node.args[0]) == target]
        return bool(loads) and all(
            self.model.enclosing_function(load) is function and load.lineno > call.lineno
            and not self._never_both_in_one_run(call, load, function) for load in loads)

    def _never_both_in_one_run(self, first: ast.AST, second: ast.AST,
                                function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether `first` and `second` lie in the two branches of an `if` that one run of
        the function never takes both of: no loop of the function repeats the `if`
        (coqui's `if not exists(path): ...save... else: ...load...`, a cache kept across
        runs), or its test reads nothing but the function's parameters (elegantrl's
        `save_or_load_agent(cwd, if_save)`). An `if` an epoch loop repeats may save in
        one epoch and load in a later one (early stopping's restore)."""
        parameters = {argument.arg for argument in (*function.args.posonlyargs,
                                                    *function.args.args,
                                                    *function.args.kwonlyargs)}
        for ancestor in self.model.ancestors(first):
            if ancestor is function:
                return False
            if not isinstance(ancestor, ast.If):
                continue
            in_body = any(first is node or self.inside(first, node) for node in ancestor.body)
            other = ancestor.orelse if in_body else ancestor.body
            if not any(second is node or self.inside(second, node) for node in other):
                continue
            repeated = False
            for outer in self.model.ancestors(ancestor):
                if outer is function:
                    break
                repeated = repeated or isinstance(outer, (ast.For, ast.AsyncFor, ast.While))
            read = {name.id for name in ast.walk(ancestor.test) if isinstance(name, ast.Name)}
            return not repeated or (bool(read) and read <= parameters)
        return False

    def _fresh_snapshot(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes a new file each time, its name formatted with a
        training counter (`f"vae.{steps}.pt"`), in a module that loads nothing back (no
        call of a `load`, `resume` or `restore` function), where neither the path nor the
        function names a checkpoint (`CHECKPOINT_DIR / f"epoch_{epoch}.pt"` is what a
        resume elsewhere looks in): no earlier file is ever overwritten, and nothing here
        resumes from the newest one, so a crash tears only that snapshot. Round 24's
        reviewers called such rewrites noise (nuwa's trainers: a helper module for files
        nothing reads), and accepted the same saves where the module loads them back
        (video-diffusion's `load(milestone)`)."""
        function = self.model.enclosing_function(call)
        scope = self.model.scope_created_by(function) if function is not None else None
        if not self._formatted_counters(destination, scope) and not any(
                # a local bound each time to a formatted name (nuwa's `model_path = str(
                # folder / f"vae.{steps}.pt")`, then `f"vae.{steps}.ema.pt"`)
                len(bindings) > 1 and all(binding.scope is scope and binding.value is not None
                                          and _counters_formatted(binding.value)
                                          for binding in bindings)
                for bindings in (self.model.bindings(node) for node in ast.walk(destination)
                                 if isinstance(node, ast.Name))):
            return False
        if self._words_through(destination, scope) & (RESUME_WORDS - COUNTER_WORDS) or any(
                set(identifier_words(name)) & RESUME_FUNCTION_WORDS
                for name in self.model.function_path(call)):
            return False  # `CHECKPOINT_DIR / f"epoch_{epoch}.pt"`: what a resume looks in
        if self._module_loads is None:  # once per file
            self._module_loads = any(
                set(identifier_words(_identifier(node.func) or "")) & LOAD_WORDS
                for node in nodes_of(self.tree, ast.Call))
        return not self._module_loads

    def _picked_unused(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the function picks the file's name as one no file has yet: a `while`
        loop tests whether a path written like the destination exists (openml-pytorch's
        `while os.path.exists(f"model_{i}.pth"): i += 1`, then saves to
        `f"model_{i}.pth"`; round 44 read the atomic save as protecting nothing). No
        earlier file is ever overwritten."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        scope = self.model.scope_created_by(function)
        written = [destination, *(
            binding.value for name in ast.walk(destination) if isinstance(name, ast.Name)
            for binding in self.model.bindings(name)
            if binding.scope is scope and binding.value is not None)]
        for loop in ast.walk(function):
            if not isinstance(loop, ast.While):
                continue
            for test in ast.walk(loop.test):
                tested = _existence_tested(test)
                if tested is not None and any(
                        ast.dump(tested) == ast.dump(path) or _same_pattern(tested, path)
                        for path in written):
                    return True
        return False

    def _loaded_by_sibling_method(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes a parameter of its method (`def save(self, path):
        torch.save(self.state_dict(), path)`) and the class has a `load*` method that
        hands its own parameter to a `*.load(...)` (`def load(self, path): torch.load(
        str(path))`): the pair saves and loads one file (muse-maskgit's models, whose reports
        said the module never loads it back, round 20)."""
        function = self.model.enclosing_function(call)
        owner = self.model.enclosing_class(call)
        if function is None or owner is None:
            return False
        # through the method's assignments too (causaltorch's `save_path = Path(path)`,
        # round 47, beside `load_finetuned_model(cls, path)`)
        parameters = {argument.arg for argument in function.args.args[1:]}
        if not parameters & set(self._destination_parameters(destination, call)):
            return False
        for method in owner.body:
            if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or \
                    "load" not in method.name or method is function:
                continue
            own = {argument.arg for argument in method.args.args[1:]}
            for node in nodes_of(method, ast.Call):
                if node.args and _dotted(node.func).rsplit(".", 1)[-1] == "load" and any(
                        isinstance(inner, ast.Name) and inner.id in own
                        for inner in ast.walk(node.args[0])):
                    return True
        return False

    def _is_file_object(self, node: ast.expr, call: ast.Call) -> bool:
        if (isinstance(node, ast.Call) and len(node.args) == 2
                and self.model.qualified_name(node.func) == "typing.cast"):
            # fvcore's `torch.save(data, cast(IO[bytes], f))` inside `with ...open() as f`
            return self._is_file_object(node.args[1], call)
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            return _opens_file(name) or bool(  # open(...), zf.open(...), create_writer(...)
                set(identifier_words(name.rsplit(".", 1)[-1])) & HANDLE_WORDS
            )
        if isinstance(node, ast.Name):
            return (
                bool(set(identifier_words(node.id)) & HANDLE_WORDS)
                or self.name_kind(node) is NameKind.FILE
                or self._guarded_as_file(node, call)
                or self._bound_as_file_just_before(node, call)
            )
        if isinstance(node, ast.Attribute):
            return bool(set(identifier_words(node.attr)) & HANDLE_WORDS)
        return False

    def _bound_as_file_just_before(self, name: ast.Name, call: ast.Call) -> bool:
        """`buffer = io.BytesIO()` on the statement right before the save, in the same
        block: the name holds a buffer there, whatever its other bindings hold
        (megatron-core's `state = torch.frombuffer(...)` in the other branch, round 18)."""
        statement = self.model.statement(call)
        found = self.model.block_of(statement) if statement is not None else None
        if found is None or not found[1]:
            return False
        block, index = found
        before = block[index - 1]
        return (isinstance(before, ast.Assign) and len(before.targets) == 1
                and isinstance(before.targets[0], ast.Name) and before.targets[0].id == name.id
                and self._value_kind(before.value, frozenset()) is NameKind.FILE)

    def _temporary_from_callers(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the destination is built from a parameter that every caller in this
        file fills with a temporary path (`_write(state, tmp_path)`, then a rename or an
        upload; `save_for_hf(model, save_directory=tmpdir)`), for a function nothing
        else calls: private (`_write`) or nested, or public with a single caller here.
        The caller's temp-file dance is atomic already, or the file is thrown away."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        scope = self.model.scope_created_by(function)
        parameters = self._parameters_behind(destination, scope, frozenset())
        if not parameters:
            return False
        calls = [c for c in nodes_of(self.tree, ast.Call)
                 if _identifier(c.func) == function.name and c is not call]
        local = function.name.startswith("_") or \
            self.model.enclosing_function(function) is not None
        if not calls or not (local or len(calls) == 1):
            return False
        arguments = function.args
        positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        return any(
            all(self._temporary_argument(caller, parameter, positional) for caller in calls)
            for parameter in parameters
        )

    def _managed_folder(self, destination: ast.expr, call: ast.Call) -> str | None:
        """The context manager (`remote_store.get_local_output_dir()`) whose `with ... as
        name` target the destination is built from, in the function (through its
        assignments, and those of the functions it is nested in) or through a parameter
        that every caller in this file fills with such a target; None where it is not.
        `open(...)` hands out a file, not a folder: not one of these."""
        found = self._with_manager(destination, 3)
        if found is not None:
            return found
        function = self.model.enclosing_function(call)
        if function is None:
            return None
        parameters = self._parameters_behind(destination, self.model.scope_created_by(function),
                                             frozenset())
        calls = [c for c in nodes_of(self.tree, ast.Call)
                 if _identifier(c.func) == function.name and c is not call]
        if not parameters or not calls:
            return None
        arguments = function.args
        positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        if positional and positional[0] in ("self", "cls"):
            positional = positional[1:]
        for parameter in parameters:
            managers = []
            for caller in calls:
                argument = next((k.value for k in caller.keywords if k.arg == parameter), None)
                if argument is None and parameter in positional and \
                        positional.index(parameter) < len(caller.args):
                    argument = caller.args[positional.index(parameter)]
                managers.append(self._with_manager(argument, 2) if argument is not None
                                else None)
            if managers and all(managers):
                return managers[0]
        return None

    def _with_manager(self, node: ast.expr, hops: int) -> str | None:
        """The context manager of a `with` whose target `node` is built from, `hops`
        assignments deep (see `_managed_folder`)."""
        for name in (n for n in ast.walk(node) if isinstance(n, ast.Name)):
            for binding in self.model.bindings(name):
                if binding.kind is BindingKind.WITH and isinstance(binding.statement,
                                                                   ast.With | ast.AsyncWith):
                    for item in binding.statement.items:
                        target = item.optional_vars
                        manager = item.context_expr
                        if target is not None and any(inner is binding.node
                                                      for inner in ast.walk(target)) \
                                and isinstance(manager, ast.Call) \
                                and _dotted(manager.func).rsplit(".", 1)[-1] not in (
                                    "open", "NamedTemporaryFile", "TemporaryFile"):
                            return ast.unparse(manager)
                elif binding.kind is BindingKind.ASSIGNMENT and binding.value is not None \
                        and hops > 0:
                    found = self._with_manager(binding.value, hops - 1)
                    if found is not None:
                        return found
        return None

    def _parameters_behind(self, node: ast.expr, scope: object, seen: frozenset[int]
                           ) -> set[str]:
        """The function's parameters the expression is built from, through assignments
        in the function (`save_directory = Path(save_directory)`)."""
        found: set[str] = set()
        for name in (n for n in ast.walk(node) if isinstance(n, ast.Name)):
            for binding in self.model.bindings(name):
                if binding.scope is not scope or id(binding) in seen:
                    continue
                if binding.kind is BindingKind.PARAMETER:
                    found.add(binding.name)
                elif binding.kind is BindingKind.ASSIGNMENT and binding.value is not None:
                    behind = self._parameters_of.get(id(binding))  # once per binding
                    if behind is None:
                        behind = frozenset(self._parameters_behind(binding.value, scope,
                                                                   seen | {id(binding)}))
                        self._parameters_of[id(binding)] = behind
                    found |= behind
        return found

    def _temporary_argument(self, caller: ast.Call, parameter: str,
                            positional: list[str]) -> bool:
        """Whether the caller passes a temporary path for the parameter."""
        argument = next((k.value for k in caller.keywords if k.arg == parameter), None)
        if argument is None and parameter in positional:
            # `self._write(a, b)` fills the parameters after `self`
            skip = 1 if isinstance(caller.func, ast.Attribute) and \
                positional[0] in ("self", "cls") else 0
            index = positional.index(parameter) - skip
            if any(isinstance(a, ast.Starred) for a in caller.args[:index + 1]):
                return False
            argument = caller.args[index] if 0 <= index < len(caller.args) else None
        return argument is not None and self._is_temporary(argument)

    def _is_throwaway(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the file saved is thrown away: named by `random`, `uuid`, `secrets`,
        `tempfile`, an object's `id()` or the process id (directly or through names bound
        in the function), or removed later in
        the same function (`os.remove(path)`, `os.unlink`, `Path(path).unlink()`,
        `path.unlink()`, `shutil.rmtree` of a folder in the destination): the save
        measures a size or feeds a reader, and writes no checkpoint."""
        if self._random_name(destination, frozenset()):
            return True
        function = self.model.enclosing_function(call)
        container: ast.AST = function if function is not None else self.tree
        end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
        target = ast.dump(destination)
        names = {n.id for n in ast.walk(destination) if isinstance(n, ast.Name)}
        for other in ast.walk(container):
            if not isinstance(other, ast.Call) or (other.lineno, other.col_offset) < end:
                continue
            if self.model.enclosing_function(other) is not function:
                continue
            removed, folder = self._removed(other)
            if removed is not None and (ast.dump(removed) == target or (
                    folder and isinstance(removed, ast.Name) and removed.id in names)
                    or _same_pattern(removed, destination)):
                return True
        return False

    def _in_own_scratch_folder(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes into a scratch folder its class makes for itself
        (`self.temp_dir = tempfile.mkdtemp(prefix="disco_")` in a method of the class):
        the destination is built from that attribute, or from the method's parameters in
        a class that builds its paths from it (`os.path.join(self.temp_dir, name)`
        elsewhere, handed over through a queue): offloaded activations, spilled buffers,
        files nothing resumes from."""
        function = self.model.enclosing_function(call)
        owner = self.model.enclosing_class(function) if function is not None else None
        if owner is None:
            return False
        folders: set[str] = set()

        def makes_temporary_folder(value: ast.expr, hops: int = 1) -> bool:
            # `tempfile.mkdtemp()` in the value, or in the value of a local it reads
            # (comet's `output_dir = [tempfile.mkdtemp()]`, broadcast to the other ranks,
            # then `self.output_dir = output_dir[0]`)
            for inner in ast.walk(value):
                if isinstance(inner, ast.Call):
                    meaning = self.model.qualified_name(inner.func) or ""
                    if (meaning.startswith("tempfile.") and meaning.rsplit(".", 1)[-1]
                            in ("mkdtemp", "TemporaryDirectory")):
                        return True
                elif (isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load) and hops
                      and any(binding.kind is BindingKind.ASSIGNMENT
                              and binding.value is not None
                              and makes_temporary_folder(binding.value, hops - 1)
                              for binding in self.model.bindings(inner))):
                    return True
            return False

        for node in ast.walk(owner):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if makes_temporary_folder(node.value):
                    folders.update(_dotted(t) for t in targets
                                   if isinstance(t, ast.Attribute)
                                   and isinstance(t.value, ast.Name) and t.value.id == "self")
        if not folders:
            return False

        def built_from_folder(node: ast.AST) -> bool:
            return any(isinstance(n, ast.Attribute) and _dotted(n) in folders
                       for n in ast.walk(node))

        if built_from_folder(destination):
            return True
        scope = self.model.scope_created_by(function)
        if not self._parameters_behind(destination, scope, frozenset()) or \
                any(isinstance(n, ast.Attribute) for n in ast.walk(destination)):
            return False
        # a parameter, and the class builds paths in its folder somewhere
        # (`os.path.join(self.temp_dir, ...)`, `self.tmp / name`)
        return any(
            (isinstance(n, ast.Call) and n.args and built_from_folder(n.args[0])
             and _dotted(n.func).rsplit(".", 1)[-1] in ("join", "joinpath"))
            or (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div)
                and built_from_folder(n.left))
            for n in ast.walk(owner))

    def _random_name(self, node: ast.expr, seen: frozenset[int]) -> bool:
        for child in ast.walk(node):
            if isinstance(child, ast.Call):
                name = self.model.qualified_name(child.func) or ""
                if name.startswith(RANDOM_NAME_MODULES) or name in PROCESS_NAME_CALLS:
                    return True
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                for binding in self.model.bindings(child):
                    if id(binding) in seen or binding.kind is not BindingKind.ASSIGNMENT \
                            or binding.value is None:
                        continue
                    known = self._random_bindings.get(id(binding))  # once per binding
                    if known is None:
                        known = self._random_name(binding.value, seen | {id(binding)})
                        self._random_bindings[id(binding)] = known
                    if known:
                        return True
        return False

    def _removed(self, call: ast.Call) -> tuple[ast.expr | None, bool]:
        """(what the call deletes, whether it is a folder), if it deletes a path."""
        name = self.model.qualified_name(call.func) or ""
        # `os.remove`, or os reached through another module (`osp.os.remove`, mmaction's)
        if (name in REMOVERS or name.endswith(tuple(f".{r}" for r in REMOVERS))) and \
                call.args:
            return call.args[0], False
        if name == "shutil.rmtree" and call.args:
            return call.args[0], True
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "unlink" and not call.args:
            receiver = func.value
            if isinstance(receiver, ast.Call) and len(receiver.args) == 1 and \
                    _dotted(receiver.func).rsplit(".", 1)[-1] == "Path":
                return receiver.args[0], False
            return receiver, False
        return None, False

    def _opened_for_writing(self, destination: ast.expr, call: ast.Call) -> ast.AST | None:
        """The `with` around the call that holds `destination` open for writing:
        `with open(path, "wb") as f: torch.save(obj, path)`, or `with opened as f` where
        `opened = fsspec.open(path, "wb")`. None if there is none."""
        target = ast.dump(destination)
        for ancestor in self.model.ancestors(call):
            if not isinstance(ancestor, (ast.With, ast.AsyncWith)):
                continue
            for item in ancestor.items:
                opener = item.context_expr
                if isinstance(opener, ast.Name):
                    bindings = self.model.bindings(opener)
                    value = bindings[0].value if len(bindings) == 1 else None
                    opener = value if isinstance(value, ast.Call) else opener
                if isinstance(opener, ast.Call) and _opens_for_writing(opener) and \
                        ast.dump(opener.args[0]) == target:
                    return ancestor
        return None

    def _early_stopping_class(self, call: ast.Call) -> str | None:
        """The early-stopping class the save is a method of (`EarlyStopping`, copied into
        many projects from pytorchtools): it keeps the best model of the run so far, for
        the same run to read back; a crash that tears it ends that run too (tytorch's and
        desctorch's, rounds 56 and 54: reviewers called the helper noise there)."""
        owner = self.model.enclosing_class(call)
        if owner is None:
            return None
        words = identifier_words(owner.name)
        return owner.name if "early" in words and ({"stop", "stopping", "stopper"} & set(words)) \
            else None

    def _relative_in_temporary_cwd(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether a relative path is saved inside `with cwd(tmp_dir):`, a context
        manager handed a temporary folder (vollo-torch's `input_shape.pt`, written into a
        `TemporaryDirectory` it then tars, round 55): the file lives in that scratch
        folder for as long as the block runs."""
        if not self._is_relative_literal(destination):
            return False
        for ancestor in self.model.ancestors(call):
            if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return False
            if isinstance(ancestor, (ast.With, ast.AsyncWith)) and any(
                    isinstance(item.context_expr, ast.Call)
                    and any(self._is_temporary(argument)
                            for argument in item.context_expr.args)
                    for item in ancestor.items):
                return True
        return False

    def _is_relative_literal(self, node: ast.expr) -> bool:
        """A relative path written as a string, or a local name bound only to one."""
        if isinstance(node, ast.Name):
            bindings = self.model.bindings(node)
            return bool(bindings) and all(
                binding.kind is BindingKind.ASSIGNMENT and not binding.augmented
                and isinstance(binding.value, ast.Constant)
                and self._is_relative_literal(binding.value) for binding in bindings)
        return (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and bool(node.value) and not node.value.startswith(("/", "~", "\\"))
                and ":" not in node.value)

    def _is_temporary(self, node: ast.expr) -> bool:
        for child in ast.walk(node):
            identifier = _identifier(child)
            if identifier is not None and set(identifier_words(identifier)) & TEMP_WORDS:
                return True
            if isinstance(child, ast.Name) and self.name_kind(child) is NameKind.TEMPORARY:
                return True
        return any(text.startswith(TEMP_PREFIXES) for text in _string_prefixes(node))

    def _guarded_as_file(self, name: ast.Name, call: ast.Call) -> bool:
        """Whether an `if isinstance(f, str): ...; return` at the top of the function,
        before the call, leaves only file objects in `f` below it."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        for statement in function.body:
            if _path_guard(statement) == name.id:  # the first such guard
                return (statement.end_lineno or 0) < call.lineno
        return False

    def _is_debug_artifact(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes a debugging or logging artifact, not a checkpoint:
        under `if debug:` (any condition naming debug), to a destination naming debug or
        dump (`debug_dir / "x.pt"`, `dump_path`), or in a function such as
        `dump_activations`, `debug_save`, `log_video` or a logger's `add_video`, or a
        method of a `...Logger`, unless the function's name says checkpoint
        (`dump_checkpoint`); or in a module of a `debug/` folder of the project; or a save
        of a gradient (`torch.save(p.grad, "grad.pt")`
        left in colossalai's optimizer step: nothing resumes from a gradient)."""
        saved = call.args[0] if call.args else None
        while True:  # through `.data`, `.detach()`, `.cpu()`, `.clone()`
            if isinstance(saved, ast.Attribute) and saved.attr == "data":
                saved = saved.value
            elif isinstance(saved, ast.Call) and isinstance(saved.func, ast.Attribute) and \
                    saved.func.attr in ("detach", "cpu", "clone") and not saved.args:
                saved = saved.func.value
            else:
                break
        if isinstance(saved, ast.Attribute) and saved.attr == "grad":
            return True
        child: ast.AST = call
        for ancestor in self.model.ancestors(call):
            if isinstance(ancestor, ast.If) and any(child is node for node in ancestor.body) \
                    and not any(isinstance(node, ast.Not) for node in ast.walk(ancestor.test)) \
                    and _names_words(ancestor.test, DEBUG_WORDS - {"dump", "dumps"}):
                return True
            child = ancestor
        if _names_words(destination, DEBUG_WORDS):
            return True
        if _in_debug_folder(self.file.path, self.file.project.root):
            return True  # torch-xla's `debug/model_comparator.py` dumps (round 46)
        names = self.model.function_path(call)
        words = [identifier_words(name) for name in names]
        if any(set(w) & CHECKPOINT_WORDS for w in words):
            return False
        return any(
            set(w) & DEBUG_WORDS or (w and w[0] == "log") or (w and w[-1] == "logger")
            or (len(w) == 2 and w[0] == "add" and w[1] in LOGGED_MEDIA)  # add_video
            for w in words
        )

    def in_checkpoint_function(self, node: ast.AST) -> bool:
        """Whether a name of the functions and classes around `node` says checkpoint
        (`save_checkpoint`, `CheckpointCallback`)."""
        return any(set(identifier_words(name)) & CHECKPOINT_WORDS
                   for name in self.model.function_path(node))

    def _caller_chosen(self, destination: ast.expr, call: ast.Call) -> str | None:
        """The parameter of the saving function the destination is made of, directly or
        through the function's assignments (`save(self, path)`, `os.path.join(save_dir,
        name)`), where the code says nothing more of the file than that something loads
        it back (`_says_checkpoint`: `save_checkpoint(model, path)`, or a save of
        `{"model": ..., "epoch": epoch}` in an epoch loop, writes a checkpoint): the
        caller picks the file, and whether a run resumes from it is the caller's business.
        Round 27 read such saves in library APIs as noise (pytorch-ie's `save_model_file`,
        torchdrug's `Engine.save` beside its `load`, lycoris' `save_weights`), and the
        same reviewers accepted the saves of trainers into their own run folders."""
        return next(iter(self._destination_parameters(destination, call)), None)

    def _destination_parameters(self, destination: ast.expr, call: ast.Call) -> list[str]:
        """The parameters of the saving function the destination is made of, directly or
        through the function's assignments, in the order the destination names them."""
        function = self.model.enclosing_function(call)
        if function is None:
            return []
        scope = self.model.scope_created_by(function)
        found: list[str] = []
        seen: set[int] = set()
        pending = [destination]
        for _ in range(4):
            following: list[ast.expr] = []
            for node in pending:
                for name in (n for n in ast.walk(node) if isinstance(n, ast.Name)):
                    for binding in self.model.bindings(name):
                        if binding.scope is not scope or id(binding) in seen:
                            continue
                        seen.add(id(binding))
                        if binding.kind is BindingKind.PARAMETER and \
                                name.id not in ("self", "cls"):
                            found.append(name.id)
                        if binding.kind is BindingKind.ASSIGNMENT and \
                                binding.value is not None:
                            following.append(binding.value)
            pending = following
        return found

    def _words_through(self, node: ast.expr, scope: object) -> set[str]:
        """The words of `node` and of what the function assigned the names in it."""
        words = _words_in(node)
        for name in (n for n in ast.walk(node) if isinstance(n, ast.Name)):
            for binding in self.model.bindings(name):
                if binding.scope is scope and binding.kind is BindingKind.ASSIGNMENT and \
                        binding.value is not None:
                    words |= _words_in(binding.value)
        return words

    def _emptied_first(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the function removes or empties the destination's folder
        (`shutil.rmtree(d)`, or a helper named for it: xpm-torch's `cleanupdir(path)`,
        round 45) before the save: no old file is left to keep, and the folder is torn until the
        function ends whatever one save does (round 13: s3prl's `save_model`, which
        writes other files of the folder after it)."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        scope = self.model.scope_created_by(function)
        names = self._path_names(destination, scope, set())
        for other in ast.walk(function):
            if not isinstance(other, ast.Call) or not other.args or \
                    (other.lineno, other.col_offset) >= (call.lineno, call.col_offset) or \
                    self.model.enclosing_function(other) is not function:
                continue
            if (self.model.qualified_name(other.func) == "shutil.rmtree"
                    or _EMPTIES_FOLDER.fullmatch(_identifier(other.func) or "")) and \
                    self._path_names(other.args[0], scope, set()) & names:
                return True
        return False

    def _folder_marks_it_done(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes into a folder its function makes first (`os.makedirs`,
        `Path.mkdir`, `os.system("mkdir -p " + d)`), and the module runs that function only
        where the folder does not exist yet (`if not os.path.exists(self.subdir_processed):
        self.process()`): the folder's existence marks the work done, so a crash after
        the mkdir leaves later runs skipping it whatever each file holds, and an atomic
        file changes nothing (block.bootstrap.pytorch's preprocessed VQA files: noise in
        rounds 37 and 42). A guard on the file itself is another matter: there a torn
        file would pass for done, and the rewrite stays."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        scope = self.model.scope_created_by(function)
        folders = self._path_names(destination, scope, set()) | self._attribute_paths(
            destination)
        if not folders or not self._makes_folder(function, scope, folders):
            return False
        own = _dotted(destination) or ""
        for guard in nodes_of(self.tree, ast.If):
            checked = self._missing_path(guard.test)
            if checked is None or not any(
                    isinstance(inner, ast.Call) and _identifier(inner.func) == function.name
                    for statement in guard.body for inner in ast.walk(statement)):
                continue
            around = self.model.enclosing_function(guard)
            guard_scope = self.model.scope_created_by(around) if around is not None \
                else self.model.module_scope
            names = self._path_names(checked, guard_scope, set())
            if names & folders and own not in names:
                return True
        return False

    def _missing_path(self, test: ast.expr) -> ast.expr | None:
        """The path `not os.path.exists(p)` (`isdir`, under any alias of `os.path`) or
        `not p.exists()` tests; None for other tests."""
        if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
                and isinstance(test.operand, ast.Call)):
            return None
        call = test.operand
        if self.model.qualified_name(call.func) in ("os.path.exists", "os.path.isdir") and \
                len(call.args) == 1:
            return call.args[0]
        if isinstance(call.func, ast.Attribute) and call.func.attr in ("exists", "is_dir") \
                and not call.args:
            return call.func.value
        return None

    def _attribute_paths(self, destination: ast.expr) -> set[str]:
        """The names `self.<attr>` is built from where the class assigns it
        (`self.path_trainset = osp.join(self.subdir_processed, "trainset.pth")` in
        `__init__`)."""
        if not (isinstance(destination, ast.Attribute) and isinstance(destination.value,
                                                                        ast.Name)
                and destination.value.id == "self"):
            return set()
        owner = self.model.enclosing_class(destination)
        found: set[str] = set()
        for assign in nodes_of(owner, ast.Assign) if owner is not None else ():
            if any(isinstance(target, ast.Attribute) and target.attr == destination.attr
                   and isinstance(target.value, ast.Name) and target.value.id == "self"
                   for target in assign.targets):
                method = self.model.enclosing_function(assign)
                method_scope = self.model.scope_created_by(method) if method is not None \
                    else self.model.module_scope
                found |= self._path_names(assign.value, method_scope, set())
        return found

    def _in_fresh_folder(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes once into a folder its function has just made with a
        mkdir that fails where the folder exists (`output.mkdir(parents=True,
        exist_ok=False)`, `os.mkdir(d)`, `os.makedirs(d)`), outside any `try`, and not
        in a loop: the file is new, there is no older one for a rename to keep
        (torch-world's `episodes.pt` in a new run folder: round 45's reviewer read the
        atomic save as protecting nothing)."""
        once = self._written_once_into(destination, call)
        return once is not None and self._makes_folder(*once, exclusive=call)

    def _in_refusing_folder(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes once into a folder its function refuses where it holds
        any file (`_refuses_filled_folder`): the file is new, as in `_in_fresh_folder`."""
        once = self._written_once_into(destination, call)
        return once is not None and self._refuses_filled_folder(*once, call)

    def _written_once_into(self, destination: ast.expr, call: ast.Call
                           ) -> tuple[ast.AST, object, set[str]] | None:
        """(function, its scope, the names the destination's folder is made of) for a save
        in no loop of its function; None for one in a loop, outside any function, or to a
        destination made of no name."""
        function = self.model.enclosing_function(call)
        if function is None or any(
                isinstance(node, (ast.For, ast.AsyncFor, ast.While))
                for node in self._ancestors_within(call, function)):
            return None
        scope = self.model.scope_created_by(function)
        folders = self._path_names(destination, scope, set())
        return (function, scope, folders) if folders else None

    def _refuses_filled_folder(self, function: ast.AST, scope: object, folders: set[str],
                               call: ast.Call) -> bool:
        """Whether the function raises before the save where the folder holds any file: an
        `if` whose test lists it (`any(path.iterdir())`, `os.listdir(path)`) and whose
        body raises (pytorch-swem's `Swem.save`: `elif any(path.iterdir()): raise
        FileExistsError(...)`, else `path.mkdir()`; round 49 read the atomic save as
        protecting nothing). No loop is around the check."""
        for branch in ast.walk(function):
            if not (isinstance(branch, ast.If) and branch.body
                    and isinstance(branch.body[-1], ast.Raise)
                    and branch.lineno < call.lineno):
                continue
            if any(isinstance(node, (ast.For, ast.AsyncFor, ast.While))
                   for node in self._ancestors_within(branch, function)):
                continue
            for listing in ast.walk(branch.test):
                if not isinstance(listing, ast.Call):
                    continue
                qualified = self.model.qualified_name(listing.func) or ""
                if qualified in ("os.listdir", "os.scandir") and listing.args:
                    listed = listing.args[0]
                elif isinstance(listing.func, ast.Attribute) and \
                        listing.func.attr == "iterdir":
                    listed = listing.func.value
                else:
                    continue
                if self._path_names(listed, scope, set()) & folders:
                    return True
        return False

    def _ancestors_within(self, node: ast.AST, function: ast.AST) -> Iterator[ast.AST]:
        for ancestor in self.model.ancestors(node):
            if ancestor is function:
                return
            yield ancestor

    def _makes_folder(self, function: ast.AST, scope: object, folders: set[str],
                      exclusive: ast.Call | None = None) -> bool:
        """Whether the function makes one of these folders: `os.makedirs(d)`,
        `os.mkdir(d)`, `d.mkdir()`, `os.system("mkdir -p " + d)`; with `exclusive` (a
        save), only by a call that fails where the folder exists, outside any `try`, and
        that runs whenever the save does (no `if`, loop or `try` around it that is not
        around the save too: `if not os.path.exists(d): os.makedirs(d)` may not run)."""
        for other in ast.walk(function):
            if not isinstance(other, ast.Call):
                continue
            if exclusive is not None and not (
                    self._fails_if_exists(other, function)
                    and self._runs_with(other, exclusive, function)):
                continue
            qualified = self.model.qualified_name(other.func) or ""
            shell_mkdir = qualified == "os.system" and other.args and any(
                isinstance(part, ast.Constant) and isinstance(part.value, str)
                and part.value.lstrip().startswith("mkdir") for part in ast.walk(other.args[0]))
            if (qualified in ("os.makedirs", "os.mkdir") or shell_mkdir) and other.args:
                made = other.args[0]
            elif isinstance(other.func, ast.Attribute) and other.func.attr == "mkdir":
                made = other.func.value
            else:
                continue
            if self._path_names(made, scope, set()) & folders:
                return True
        return False

    def _runs_with(self, node: ast.AST, call: ast.Call, function: ast.AST) -> bool:
        """Whether every branch, loop or `try` around `node` in the function is around
        `call` too."""
        around_call = {id(ancestor) for ancestor in self._ancestors_within(call, function)}
        return all(id(ancestor) in around_call
                   for ancestor in self._ancestors_within(node, function)
                   if isinstance(ancestor, (ast.If, ast.For, ast.AsyncFor, ast.While,
                                            ast.Try, ast.Match, ast.IfExp, ast.BoolOp)))

    def _fails_if_exists(self, mkdir: ast.Call, function: ast.AST) -> bool:
        """Whether a `mkdir`/`makedirs` call raises where its folder exists: no true
        `exist_ok` (nor `-p` in a shell), and no `try` around it in the function."""
        if any(isinstance(node, ast.Try) for node in self._ancestors_within(mkdir, function)):
            return False
        qualified = self.model.qualified_name(mkdir.func) or ""
        if qualified == "os.system":
            return False
        exist_ok = next((keyword.value for keyword in mkdir.keywords
                         if keyword.arg == "exist_ok"), None)
        if exist_ok is None and qualified == "os.makedirs" and len(mkdir.args) > 2:
            exist_ok = mkdir.args[2]
        if exist_ok is None and isinstance(mkdir.func, ast.Attribute) \
                and mkdir.func.attr == "mkdir" and len(mkdir.args) > 2:
            exist_ok = mkdir.args[2]  # Path.mkdir(mode, parents, exist_ok)
        return exist_ok is None or (isinstance(exist_ok, ast.Constant)
                                    and exist_ok.value is False)

    def _derived_copy(self, call: ast.Call) -> str | None:
        """The function that makes the saved file from another one, where its name starts
        with a verb that derives a copy (`prune_checkpoint`, `merge_lora_weights`,
        `convert_to_fp16`, `expand_model_embeddings`: f5-tts's Gradio tools, round 16):
        its source is still there, and running it again makes the copy again."""
        path = self.model.function_path(call)
        for name in path:
            words = identifier_words(name)
            if words and words[0] in DERIVING_VERBS:
                return name
        function = self.model.enclosing_function(call)
        if function is not None and self._builds_from_pretrained(function, call):
            return function.name
        return None

    def _builds_from_pretrained(self, function: ast.FunctionDef | ast.AsyncFunctionDef,
                                call: ast.Call) -> bool:
        """Whether the function sets a model up from pretrained weights before the save
        (`model = AutoModel.from_pretrained(...)`) and hands something back: a builder
        (FlagEmbedding's `get_model`, round 21), whose files are made from weights that
        are still there, again on every run's setup."""
        returns = any(isinstance(node, ast.Return) and node.value is not None
                      and self.model.enclosing_function(node) is function
                      for node in ast.walk(function))
        return returns and any(
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "from_pretrained" and node.lineno < call.lineno
            and self.model.enclosing_function(node) is function
            for node in ast.walk(function))

    def _is_export(self, call: ast.Call) -> bool:
        """Whether the save is in a function that exports a model (`export_onnx`,
        `to_folder`), or in a method of a class built on an exporter (artifact-torch's
        `CheckpointCallback(ExportCallback)`, whose `_save_local` writes into the fresh
        folder its framework base uploads and deletes: noise to round 44's reviewer): its
        output is made again by exporting again."""
        names = list(self.model.function_path(call))
        bases = [base.value if isinstance(base, ast.Subscript) else base  # `Base[T]`
                 for cls in self.model.ancestors(call) if isinstance(cls, ast.ClassDef)
                 for base in cls.bases]
        names += [_dotted(base).rpartition(".")[2] for base in bases if _dotted(base)]
        words = [identifier_words(name) for name in names]
        return any(set(w) & EXPORT_WORDS or tuple(w[-2:]) in EXPORT_ENDINGS for w in words)

    def _content_addressed(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the destination's name is made by hashing content (`model_arch + "-" +
        cal_file_md5(filename)[:8] + ".pth"`: gan-pytorch's `compress_model`, round 37;
        torchvision's `resnet18-f37072fd.pth`): a release file, made once and never
        overwritten, through the function's assignments."""
        function = self.model.enclosing_function(call)
        scope = self.model.scope_created_by(function) if function is not None else None
        nodes = [destination]
        for name in (n for n in ast.walk(destination) if isinstance(n, ast.Name)):
            nodes.extend(binding.value for binding in self.model.bindings(name)
                         if binding.scope is scope and binding.value is not None)
        return any(isinstance(node, ast.Call) and _hashes(_identifier(node.func) or "")
                   for value in nodes for node in ast.walk(value))

    def _evaluation_snapshot(self, destination: ast.expr, call: ast.Call) -> str | None:
        """The function that saves the model into an evaluation folder for evaluating it
        (dinov2's `do_test` writes `output_dir/eval/<iteration>/teacher_checkpoint.pth`,
        round 37: an export of the weights at that step, which training never reads
        back), where its name says it tests or evaluates; None elsewhere."""
        function = self.model.enclosing_function(call)
        if function is None or not set(identifier_words(function.name)) & EVALUATING_WORDS:
            return None
        scope = self.model.scope_created_by(function)
        if not self._words_through(destination, scope) & EVALUATION_WORDS:
            return None
        return function.name

    def commit_marker(self) -> ast.Call | None:
        """The call that writes a file committing a checkpoint folder in this module
        (`open(os.path.join(ckpt_dir, CHECKPOINT_COMPLETE_MARKER), "w")`,
        `open(tracker_path, "w")`, `(folder / "DONE").touch()`), None if there is none:
        the module has its own commit protocol, and its saves need no atomic writes."""
        if self._marker is False:
            self._marker = next((c for c in nodes_of(self.tree, ast.Call)
                                 if self._writes_marker(c)), None)
        return self._marker if isinstance(self._marker, ast.Call) else None

    def _writes_marker(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("touch", "write_text"):
            path: ast.expr | None = func.value
        elif call.args and "open" in identifier_words(_dotted(func).rsplit(".", 1)[-1]):
            mode = next((k.value for k in call.keywords if k.arg == "mode"),
                        call.args[1] if len(call.args) > 1 else None)
            writes = isinstance(mode, ast.Constant) and isinstance(mode.value, str) and \
                bool(set(mode.value) & set("wax"))
            path = call.args[0] if writes else None
        else:
            path = None
        if path is None:
            return False
        words = _words_in(path)
        for name in (n for n in ast.walk(path) if isinstance(n, ast.Name)):
            for binding in self.model.bindings(name):  # tracker_path = os.path.join(...)
                if binding.kind is BindingKind.ASSIGNMENT and binding.value is not None:
                    words |= _words_in(binding.value)
        return bool(words & MARKER_WORDS) or any(  # DeepSpeed's tag file
            isinstance(c, ast.Constant) and c.value == "latest" for c in ast.walk(path))

    def _is_recreatable(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes a file that a crash costs only a re-run, not a
        checkpoint: a result, metrics, cached features or embeddings (named so in the
        destination, unless it also says checkpoint or model), an evaluation's output (an
        `eval` folder, a value holding no model or optimizer), a cache filled where it is
        missing (`if not os.path.exists(path): ...; torch.save(x, path)`), or a
        one-shot output of a script: a save outside any loop at module level, under
        `if __name__ == "__main__":`, or in a `main` or CLI-command function; or an
        inference output written per input file (see `_is_inference_output`)."""
        words = _words_in(destination)
        if words & RESULT_WORDS and not words & CHECKPOINT_WORDS and \
                not self._part_of_a_checkpoint(destination, call):
            return True
        if words & EVALUATION_WORDS and not words & CHECKPOINT_WORDS and call.args and \
                not isinstance(call.args[0], ast.Starred) and \
                not _words_in(call.args[0]) & STATE_WORDS:
            return True  # DETR's `torch.save(coco_evaluator.coco_eval["bbox"].eval,
            # output_dir / "eval" / "latest.pth")`: evaluation scores (round 36)
        if self._fills_cache(destination, call):
            return True
        return self._once_in_a_script(call) or self._is_inference_output(call) or \
            self._saves_data(destination, call) or self._prepares_data(call)

    def _prepares_data(self, call: ast.Call) -> bool:
        """Whether a data-preparation step saves data it built: a function named
        `preprocess`, `prepare_*` or `partition_*` saving a value that names no training
        state (`dataset`, `subsets[cid]`; not a `model` or `state_dict()`): fedlab's
        `preprocess()` writing each client's partition, round 28, is made again from the
        raw data by running it again, loaded back or not."""
        function = self.model.enclosing_function(call)
        if function is None or not call.args or isinstance(call.args[0], ast.Starred):
            return False
        words = identifier_words(function.name)
        if not words or words[0] not in DATA_PREPARATION_WORDS:
            return False
        scope = self.model.scope_created_by(function)
        return not self._words_through(call.args[0], scope) & STATE_WORDS

    def _saves_data(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save writes data made again by running again, not training state:
        outside any loop of its function, in a function whose names say no checkpoint
        word, a value that is either the dataset object itself (`torch.save(self, fname)`
        in a method of a `...Dataset`/`...DataSet` class) or a display (`{"solutions":
        ..., "rewards": ...}`, `(wnid_to_classes, val_wnids)`) that holds no training
        state (see `_holds_state`) and that this module never loads back (a file loaded
        back, as swav's queue, is resumed from: `torch.load(self.queue_path)`)."""
        if not call.args or isinstance(call.args[0], ast.Starred):
            return False
        function = self.model.enclosing_function(call)
        if function is None or any(set(identifier_words(name)) & CHECKPOINT_WORDS
                                   for name in self.model.function_path(call)):
            return False
        for ancestor in self.model.ancestors(call):
            if ancestor is function:
                break
            if isinstance(ancestor, (ast.For, ast.AsyncFor, ast.While)):
                return False
        value = call.args[0]
        if isinstance(value, ast.Name) and value.id == "self":
            cls = self.model.enclosing_class(call)
            return cls is not None and any(
                _names_a_dataset(name)
                for name in (cls.name, *(_dotted(base) for base in cls.bases)))
        scope = self.model.scope_created_by(function)
        if isinstance(value, ast.Name):
            bindings = self.model.bindings(value)
            if len(bindings) != 1 or bindings[0].scope is not scope or \
                    not isinstance(bindings[0].value, (ast.Dict, ast.Tuple, ast.List)):
                return False
        elif not isinstance(value, (ast.Dict, ast.Tuple, ast.List)):
            return False
        return not self._holds_state(value, scope, frozenset(), 0) and \
            not self._loaded_back(destination)

    def _holds_state(self, node: ast.AST, scope: object, seen: frozenset[int],
                     depth: int) -> bool:
        """Whether the value may hold training state: a word of `STATE_WORDS` or a
        training counter (epoch, step) in any name, attribute, call or string in it, a
        bare `self`/`cls`, or a name that is not bound in the function (a parameter, a
        global) or bound to such a value; followed through the function's assignments."""
        if depth > 6:
            return True
        # Inside a call, a name feeds what the call computes (`parse(root)`): only its
        # words and assignments count, not where it comes from.
        in_calls = {id(name) for call in ast.walk(node) if isinstance(call, ast.Call)
                    for name in ast.walk(call)}
        for child in ast.walk(node):
            text = _identifier(child) if not isinstance(child, ast.Constant) else (
                child.value if isinstance(child.value, str) else None)
            if text is not None and set(identifier_words(text)) & (STATE_WORDS
                                                                 | COUNTER_WORDS):
                return True
            if not isinstance(child, ast.Name) or not isinstance(child.ctx, ast.Load):
                continue
            parent = self.model.parent(child)
            if child.id in ("self", "cls"):
                if not (isinstance(parent, ast.Attribute) and parent.value is child):
                    return True
                continue
            for binding in self.model.bindings(child):
                if binding.kind is BindingKind.COMPREHENSION or id(binding) in seen:
                    continue
                if binding.scope is not scope or binding.kind is not BindingKind.ASSIGNMENT:
                    if id(child) in in_calls:
                        continue
                    return True
                source = binding.value if binding.value is not None else getattr(
                    binding.statement, "value", None)
                if source is None or self._holds_state(source, scope, seen | {id(binding)},
                                                       depth + 1):
                    return True
            if not self.model.bindings(child) and id(child) not in in_calls:
                return True
        return False

    def _loaded_back(self, destination: ast.expr) -> bool:
        """Whether the module loads the destination back: a `*.load(...)` call whose
        first argument names what the destination names (`self.queue_path`, `path`), or
        that joins the same folder with the same file name: a save to
        `os.path.join(dir_path, "model_params.pt")` and a load of `model_path =
        os.path.join(dir_path, "model_params.pt")` (scarches' save and _load_params, whose
        reports said the module never loads it back, round 29); not a conversion that
        reads `input_dir` and writes `output_dir` under the same file name. A load in
        another function needs only the file name (gemma4-pytorch-codex's `from_pretrained`
        reads `load_directory / TORCH_WEIGHTS_NAME`, which `save_pretrained` writes into
        `save_directory`: round 44's reviewer read "no load of it is seen" as false)."""
        names = {_identifier(node) for node in ast.walk(destination)} - {None, "self", "os",
                                                                         "path", "join"}
        saver = self.model.enclosing_function(destination)
        target = ast.dump(destination)
        saved: tuple[set[str], set[str]] | None = None
        for node in nodes_of(self.tree, ast.Call):
            if not _loads(node):
                continue
            argument = node.args[0]
            if ast.dump(argument) == target or names & {
                    _identifier(n) for n in ast.walk(argument)}:
                return True
            saved = saved or self._path_parts(destination)
            if saved[0]:
                loaded = self._path_parts(argument)
                elsewhere = self.model.enclosing_function(node) is not saver
                if saved[0] & loaded[0] and (saved[1] == loaded[1] or elsewhere):
                    return True
        return False

    def _path_parts(self, node: ast.expr, hops: int = 3) -> tuple[set[str], set[str]]:
        """(the file names written in `node`, `"model_params.pt"`, and the names it is
        built from that are not assigned here, `dir_path`, `self.folder`), through the
        values its names are assigned, `hops` assignments deep."""
        names: set[str] = set()
        roots: set[str] = set()
        pending: list[ast.AST] = [node]
        while pending:
            inner = pending.pop()
            if isinstance(inner, ast.Constant):
                if isinstance(inner.value, str) and _FILE_NAME.fullmatch(inner.value):
                    names.add(inner.value.lstrip("/\\"))
            elif isinstance(inner, ast.Call):  # what it is called with, not what it calls
                pending += [*inner.args, *(keyword.value for keyword in inner.keywords)]
            elif isinstance(inner, ast.Attribute):
                roots.add(ast.unparse(inner))
            elif isinstance(inner, ast.Name):
                values = [binding.value for binding in self.model.bindings(inner)
                          if binding.kind is BindingKind.ASSIGNMENT
                          and binding.value is not None]
                if values and hops > 0:
                    for value in values:
                        more_names, more_roots = self._path_parts(value, hops - 1)
                        names |= more_names
                        roots |= more_roots
                else:
                    roots.add(inner.id)
            else:
                pending += list(ast.iter_child_nodes(inner))
        return names, roots

    def _part_of_a_checkpoint(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether another torch.save of the same function, running with this one, writes
        a file named from the same variable (`f"{path}_state"` beside
        `f"{path}_cache_data"`) and is rewritten itself: the files are one checkpoint,
        which the loader reads together (pykan's `saveckpt`), so a name saying cache or
        results does not make this one a re-creatable output, and the function's saves
        are all rewritten or none. The other save's destination must say no such word
        itself (its decision does not come back here)."""
        function = self.model.enclosing_function(call)
        if function is None:
            return False
        scope = self.model.scope_created_by(function)
        names = self._path_names(destination, scope, set())
        if not names:
            return False
        for other in ast.walk(function):
            if other is call or not isinstance(other, ast.Call) or \
                    self.model.enclosing_function(other) is not function or \
                    self.model.qualified_name(other.func) not in TORCH_SAVE:
                continue
            other_destination, _ = _destination(other)
            if other_destination is None or _words_in(other_destination) & RESULT_WORDS:
                continue
            if not names & self._path_names(other_destination, scope, set()) or \
                    not self._run_together(call, other):
                continue
            decided = self._call_decision(other)
            if decided is not None and decided[0] is not Safety.MANUAL:
                return True
        return False

    def _saves_made_up_data(self, call: ast.Call) -> bool:
        """Whether the saved value is random data made up on the spot: built only of
        constants, displays and torch's random and constant factories (`torch.rand(4)`,
        `torch.randint(0, 2, (3,)).float()`), at least one random, directly, through names
        assigned once in the function, or through a function or method of this module
        taking no arguments that returns such a value (di-engine's `NaiveCollector`
        saving `self._get_timestep()`, a list of dicts of `torch.rand`). A file of random
        numbers is a stand-in for real data (a test double's output): a crash loses
        nothing that running again does not make anew."""
        if not call.args:
            return False
        found: list[bool] = []
        return self._made_up(call.args[0], found, 0) and any(found)

    def _made_up(self, node: ast.expr, random: list[bool], depth: int) -> bool:
        if depth > 4:
            return False
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return all(self._made_up(element, random, depth) for element in node.elts)
        if isinstance(node, ast.Dict):
            return all(key is None or isinstance(key, ast.Constant) for key in node.keys) \
                and all(self._made_up(value, random, depth) for value in node.values)
        if isinstance(node, ast.UnaryOp):
            return self._made_up(node.operand, random, depth)
        if isinstance(node, ast.Name):
            bindings = self.model.bindings(node)
            if len(bindings) != 1 or bindings[0].kind is not BindingKind.ASSIGNMENT or \
                    bindings[0].value is None or \
                    bindings[0].scope is self.model.module_scope:
                return False
            return self._made_up(bindings[0].value, random, depth + 1)
        if not isinstance(node, ast.Call):
            return False
        qualified = self.model.qualified_name(node.func) or ""
        if qualified.startswith("torch.") and qualified.count(".") == 1:
            factory = qualified.split(".")[1]
            if factory in RANDOM_FACTORIES:
                random.append(True)
                return True
            return factory in CONSTANT_FACTORIES
        if isinstance(node.func, ast.Attribute) and node.func.attr in TENSOR_CASTS:
            return self._made_up(node.func.value, random, depth)
        if node.args or node.keywords:
            return False
        definition = self._own_function(node.func)
        if definition is None:
            return False
        returns = [n for n in ast.walk(definition) if isinstance(n, ast.Return)
                   and self.model.enclosing_function(n) is definition]
        return bool(returns) and all(
            r.value is not None and self._made_up(r.value, random, depth + 1) for r in returns)

    def _own_function(self, func: ast.expr) -> ast.FunctionDef | None:
        """The module function (`f()`) or method of the enclosing class (`self.f()`) that a
        call names, where this module defines it once."""
        if isinstance(func, ast.Name):
            bindings = self.model.bindings(func)
            nodes = [b.node for b in bindings]
            return nodes[0] if len(nodes) == 1 and isinstance(nodes[0], ast.FunctionDef) \
                else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == "self":
            cls = self.model.enclosing_class(func)
            if cls is None:
                return None
            found = [statement for statement in cls.body
                     if isinstance(statement, ast.FunctionDef) and statement.name == func.attr]
            return found[0] if len(found) == 1 else None
        return None

    def _is_inference_output(self, call: ast.Call) -> bool:
        """Whether the save writes what a model inferred, per input file: in a function
        named for inference (`predict_*`, `embed_*`, `infer_*`, `inference_*`) or for
        writing one output per file (`*_to_file`, `*_to_files`), with no checkpoint word
        in its name, a value computed in that function (`prediction =
        predict_from_file(audio_file)`; `prediction[0].detach()`) and nothing of training
        state in it or in what it is computed from: no state_dict, model, weights,
        optimizer or scheduler, no `self`, no dict display (a checkpoint dict)."""
        function = self.model.enclosing_function(call)
        if function is None or not call.args or isinstance(call.args[0], ast.Starred):
            return False
        words = identifier_words(function.name)
        if not words or set(words) & CHECKPOINT_WORDS or not (
                words[0] in INFERENCE_WORDS or tuple(words[-2:]) in PER_FILE_ENDINGS):
            return False
        scope = self.model.scope_created_by(function)
        return self._computed_output(call.args[0], scope, frozenset()) is True

    def _computed_output(self, value: ast.expr, scope: object, seen: frozenset[int]
                         ) -> bool | None:
        """What the saved `value` is, read in the function whose scope is `scope`: True
        for an output computed there by a call (`predict_from_file(audio_file)`,
        `model(x)`, `prediction[0].detach()`, through names assigned there), False for
        training state or what cannot be told (`self.state_dict()`, `model.cpu()`, a
        global, a dict display), None for neither (a parameter, a constant)."""
        if isinstance(value, (ast.Dict, ast.DictComp)):
            return False  # a checkpoint dict
        if isinstance(value, ast.Subscript):
            return self._computed_output(value.value, scope, seen)
        if isinstance(value, ast.Attribute):
            if set(identifier_words(value.attr)) & STATE_WORDS:
                return False
            return self._computed_output(value.value, scope, seen)
        if isinstance(value, ast.Call):
            callee = _identifier(value.func)
            if callee is None:
                return False
            words = set(identifier_words(callee))
            if isinstance(value.func, ast.Attribute) and callee in PASS_THROUGH:
                return self._computed_output(value.func.value, scope, seen)
            # False for copies (copy.deepcopy(model), dict(model=...)) and for what hands
            # out state (state_dict(), parameters(), get_model(), load_weights()); True for
            # what computes an output (predict(x), model(x), self.encoder(x), np.stack()).
            return callee not in COPIES and not (words & STATE_WORDS
                                                 and callee not in STATE_WORDS)
        if isinstance(value, ast.Name):
            return self._name_output(value, scope, seen)
        if isinstance(value, (ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp, ast.IfExp,
                              ast.Constant)):
            found: bool | None = None
            for child in ast.iter_child_nodes(value):
                if not isinstance(child, ast.expr):
                    continue
                kind = self._computed_output(child, scope, seen)
                if kind is False:
                    return False
                found = found or kind
            return found
        return False

    def _name_output(self, name: ast.Name, scope: object, seen: frozenset[int]
                     ) -> bool | None:
        """`_computed_output` for a name, through its bindings in `scope`."""
        if name.id in ("self", "cls") or set(identifier_words(name.id)) & STATE_WORDS:
            return False
        bindings = self.model.bindings(name)
        if not bindings:
            return False
        found: bool | None = None
        for binding in bindings:
            if binding.scope is not scope:
                return False  # a global or an enclosing function's: not computed here
            if id(binding) in seen or binding.kind in (BindingKind.PARAMETER,
                                                       BindingKind.LOOP):
                continue  # an input: computes nothing by itself
            if binding.kind is not BindingKind.ASSIGNMENT or binding.augmented:
                return False
            statement = binding.statement
            source = binding.value if binding.value is not None else (
                statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign))
                else None)
            if source is None:
                return False
            kind = self._computed_output(source, scope, seen | {id(binding)})
            if kind is False:
                return False
            found = found or kind
        return found

    def _fills_cache(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the save fills a cache: the function loads the destination where it
        exists, and saves it where it does not: an `if` around the call tests that it
        does not exist yet (`if not path.exists():`, the call in its body; `if
        os.path.isfile(path): ... else:`, the call in its else branch), or an earlier
        `if` tests that it exists. (A save that only refuses to overwrite, with no
        load, is a checkpointer's: it stays.)"""
        target = ast.dump(destination)
        function = self.model.enclosing_function(call)
        container: ast.AST = function if function is not None else self.tree
        if not any(
                isinstance(node, ast.Call) and _loads(node) and ast.dump(node.args[0]) == target
                for node in ast.walk(container)):
            return False
        for node in ast.walk(container):
            if isinstance(node, ast.If) and node.lineno < call.lineno and \
                    self.model.enclosing_function(node) is function:
                checked = _existence_check(node.test)
                if checked is not None and not checked[1] and \
                        ast.dump(checked[0]) == target:
                    return True  # if path.exists(): return torch.load(path)
        child: ast.AST = call
        for ancestor in self.model.ancestors(call):
            if isinstance(ancestor, ast.If):
                checked = _existence_check(ancestor.test)
                if checked is not None and ast.dump(checked[0]) == target:
                    negated = checked[1]
                    in_body = any(child is node for node in ancestor.body)
                    if in_body == negated:
                        return True
            if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                break
            child = ancestor
        return False

    def _once_in_a_script(self, call: ast.Call) -> bool:
        """Whether the save runs once per run of a script: outside any loop, and at
        module level, under `if __name__ == "__main__":`, or in a function named `main`
        or decorated as a command (`@app.command()`, `@click.command()`, `@hydra.main`)."""
        for ancestor in self.model.ancestors(call):
            if isinstance(ancestor, (ast.For, ast.AsyncFor, ast.While, ast.comprehension,
                                     ast.Lambda, ast.ClassDef)):
                return False
            if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return self.model.enclosing_function(ancestor) is None and (
                    ancestor.name in ENTRY_POINTS
                    or any(_is_command(decorator) for decorator in ancestor.decorator_list))
        return True  # module level: a script's statements

    def _library_saver_beside(self, destination: ast.expr, call: ast.Call
                              ) -> ast.Call | None:
        """A library saver (`LIBRARY_SAVERS`, safetensors') called in the same function,
        into the folder the save writes to, where both run together: the checkpoint's
        other files are written in place, and this one alone made atomic changes
        nothing of what a crash leaves. The folder is shared where the saver's
        arguments and the destination name the same variable or attribute
        (`output_dir`, `self.args.output_dir`), directly or through assignments in the
        function. A saver in another branch of an `if` or `try`, or one the save's own
        branch returns before (or after), does not run with it; nor does a method the
        project defines itself (its own torch.save wrapper, see `own_savers`)."""
        function = self.model.enclosing_function(call)
        scope = self.model.scope_created_by(function) if function is not None \
            else self.model.module_scope

        def library_saver(other: ast.Call) -> bool:
            saver = self._library_saver(other)
            return saver is not None and not self._own_saver(other, saver)

        return self._writer_into(call, function, scope,
                                 lambda: self._path_names(destination, scope, set()),
                                 library_saver)

    def _bulk_writer_beside(self, destination: ast.expr, call: ast.Call) -> ast.Call | None:
        """Another writer of the folder (`self.model.save(output_dir)`, a call whose name
        says it saves, writes, dumps or exports) running with a save of something that is
        no training state (`torch.save(self.args, join(output_dir, "training_args.bin"))`):
        the folder's bulk, the weights, is written in place by that writer, so one atomic
        metadata file changes nothing of what a crash leaves (FlagEmbedding's trainers,
        round 21). The writer must be handed the folder itself, named as the destination
        is built from it. Saves of state beside such writers (a config writer beside the
        weights) are rewritten."""
        if not call.args or isinstance(call.args[0], ast.Starred):
            return None
        function = self.model.enclosing_function(call)
        scope = self.model.scope_created_by(function) if function is not None \
            else self.model.module_scope
        if self._holds_state(call.args[0], scope, frozenset(), 0):
            return None
        folders = self._path_names(destination, scope, set())

        def writer(other: ast.Call) -> bool:
            # Named for writing (`save`, `write_config`; not `assemble_save_path`), and
            # handed the folder itself (`model.save(output_dir)`), not a file of its own
            # beside this one (PyG's `self.save(data, self.processed_paths[0])`) nor the
            # saved file (`logger.save_model(path)` uploads it).
            name = _identifier(other.func) or ""
            words = identifier_words(name)
            return (bool(words) and words[0] in WRITER_WORDS
                    and self.model.qualified_name(other.func) not in TORCH_SAVE
                    and not self._own_saver(other, name)
                    and any(isinstance(argument, (ast.Name, ast.Attribute))
                            and _dotted(argument) in folders
                            and _dotted(argument) != _dotted(destination)
                            for argument in (*other.args, *(k.value for k in other.keywords))))

        return self._writer_into(call, function, scope, lambda: folders, writer)

    def _writer_into(self, call: ast.Call,
                     function: ast.FunctionDef | ast.AsyncFunctionDef | None, scope: object,
                     folders: Callable[[], set[str]], writes: Callable[[ast.Call], bool]
                     ) -> ast.Call | None:
        """The first call of `function` (the module's top level where None), other than
        `call`, that `writes` accepts, given an argument that names one of `folders` (the
        variables and attributes a folder is named by, asked for once, on the first
        writer) and running together with `call`."""
        container: ast.AST = function if function is not None else self.tree
        names: set[str] | None = None
        for other in sorted((node for node in ast.walk(container)
                             if isinstance(node, ast.Call) and node is not call),
                            key=lambda node: (node.lineno, node.col_offset)):
            if self.model.enclosing_function(other) is not function or not writes(other):
                continue
            if names is None:
                names = folders()
            arguments = [*other.args, *(k.value for k in other.keywords)]
            if any(names & self._path_names(a, scope, set()) for a in arguments) \
                    and self._run_together(call, other):
                return other
        return None

    def _fresh_folder_sibling(self, destination: ast.expr, call: ast.Call
                              ) -> ast.Call | None:
        """Another writer of the checkpoint folder, where the function names that folder
        per training counter (`checkpoint_dir = os.path.join(dir_path,
        f"checkpoint_epoch_{epoch}")`) and writes its other files with a call of its own
        that runs with the save (`model.save(checkpoint_dir)`, `save_json(checkpoint_dir,
        ...)`): the checkpoint is the folder, new each time, so the file replaces nothing
        and one atomic file in a folder written in place is noise (pythae's trainers,
        round 19). None elsewhere."""
        function = self.model.enclosing_function(call)
        if function is None:
            return None
        scope = self.model.scope_created_by(function)
        folders = self._counter_folders(destination, scope)
        if not folders:
            return None

        def writer(other: ast.Call) -> bool:
            return (bool(WRITER_WORDS & set(identifier_words(_identifier(other.func) or "")))
                    and self.model.qualified_name(other.func) not in TORCH_SAVE)

        return self._writer_into(call, function, scope, lambda: folders, writer)

    def _fresh_file_sibling(self, destination: ast.expr, call: ast.Call) -> ast.Call | None:
        """Another torch.save of the same checkpoint, where the function names the file
        per training counter and writes the checkpoint's other parts beside it, each file
        named with the same counter (`model_epoch{epoch:03d}.pt` and
        `optimizer_state_epoch{epoch:03d}.pt`): every file is new, so none replaces a good
        copy, and atomic files still leave a model without its optimizer after a crash
        (neuralhydrology, round 20). Parts with fixed names, overwritten each time, are
        rewritten: there each atomic file keeps the last good copy. None elsewhere."""
        function = self.model.enclosing_function(call)
        if function is None:
            return None
        scope = self.model.scope_created_by(function)
        counters = self._formatted_counters(destination, scope)
        if not counters:
            return None

        for other in sorted((node for node in ast.walk(function)
                             if isinstance(node, ast.Call) and node is not call
                             and self.model.qualified_name(node.func) in TORCH_SAVE),
                            key=lambda node: (node.lineno, node.col_offset)):
            other_destination, _hidden = _destination(other)
            if other_destination is None or \
                    self.model.enclosing_function(other) is not function:
                continue
            if counters & self._formatted_counters(other_destination, scope) and \
                    self._run_together(call, other):
                return other
        return None

    def _formatted_counters(self, destination: ast.expr, scope: object) -> set[str]:
        """The training counters (`epoch`, `self.step`) a destination formats into its
        name, directly (`f"model_{epoch}.pt"`) or through the locals it is built from."""
        return {counter for _, counter in self._counter_formats(destination, scope, hops=2)}

    def _counter_folders(self, destination: ast.expr, scope: object) -> set[str]:
        """The local names the destination is built from whose one binding in the
        function formats a training counter into a path (`f"checkpoint_epoch_{epoch}"`)."""
        return {local for local, _ in self._counter_formats(destination, scope)
                if local is not None}

    def _counter_formats(self, destination: ast.expr, scope: object, hops: int = 1
                         ) -> Iterator[tuple[str | None, str]]:
        """(local, counter) for each training counter formatted into the destination:
        `local` is the name the destination reads whose one binding in `scope` formats it
        (`checkpoint_dir = f"checkpoint_epoch_{epoch}"`), None where the destination
        formats it itself."""
        yield from ((None, counter) for counter in _counters_formatted(destination))
        seen: set[int] = set()
        pending: list[tuple[ast.AST, str | None]] = [(destination, None)]
        for _ in range(hops):  # `path = join(folder, save_name)`, `save_name = name_for(itr)`
            found: list[tuple[ast.AST, str | None]] = []
            for value, local in pending:
                for node in ast.walk(value):
                    if not isinstance(node, ast.Name):
                        continue
                    bindings = self.model.bindings(node)
                    if len(bindings) == 1 and bindings[0].scope is scope and \
                            bindings[0].value is not None and id(bindings[0].value) not in seen:
                        seen.add(id(bindings[0].value))
                        yield from ((local or node.id, counter)
                                    for counter in _counters_formatted(bindings[0].value))
                        found.append((bindings[0].value, local or node.id))
            pending = found

    def _library_saver(self, call: ast.Call) -> str | None:
        """The saver's name if the call is a library saver that writes in place."""
        qualified = self.model.qualified_name(call.func) or ""
        if qualified.startswith("safetensors.") and \
                qualified.rsplit(".", 1)[-1] in SAFETENSORS_SAVERS:
            return qualified.rsplit(".", 1)[-1]
        if isinstance(call.func, ast.Attribute) and call.func.attr in LIBRARY_SAVERS:
            return call.func.attr
        return None

    def _own_saver(self, saver: ast.Call, name: str) -> bool:
        """Whether the saver may be one the project defines itself: a function or method
        of that name is defined in the project, unless the receiver names a kind of
        object (`model.config`, `generation_config`, `tokenizer`) that none of the
        project's classes defining it is named for (`MambaLMHeadModel.save_pretrained`
        is no `PretrainedConfig.save_pretrained`)."""
        fact = self.file.project.derived(OWN_SAVERS, str(self.file.project.root))
        owners = [entry.partition("@")[2] for entry in fact.split(",")
                  if entry.partition("@")[0] == name]
        if not owners:
            return False
        receiver = saver.func.value if isinstance(saver.func, ast.Attribute) else None
        kinds = set(identifier_words(_identifier(receiver) or "")) & RECEIVER_KINDS
        if not kinds or "" in owners:  # no kind named, or a module-level function
            return True
        return any(kinds & set(identifier_words(owner)) for owner in owners)

    def _path_names(self, node: ast.AST, scope: object, seen: set[int]) -> set[str]:
        """The variables and attributes (`output_dir`, `self.args.output_dir`) a path
        expression is built from, through assignments in `scope`: what the folder is
        named by. Not the functions it calls (`os.path.join`, `str`), imported names,
        nor a bare `self` or `cls`. `seen`: the bindings followed already (each once)."""
        found: set[str] = set()
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):  # output_dir.joinpath("x.pt")
                found |= self._path_names(node.func.value, scope, seen)
            for argument in (*node.args, *(k.value for k in node.keywords)):
                found |= self._path_names(argument, scope, seen)
            return found
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name):  # a name, or a chain of attributes of one
            dotted = _dotted(node)
            bindings = self.model.bindings(root)
            if bindings and all(b.is_import for b in bindings):
                return found  # a module or an imported name: names no folder
            if dotted not in ("self", "cls"):
                found.add(dotted)
            if isinstance(node, ast.Name):
                for binding in bindings:
                    if binding.scope is scope and id(binding) not in seen and \
                            binding.kind is BindingKind.ASSIGNMENT and \
                            binding.value is not None:
                        seen.add(id(binding))
                        found |= self._path_names(binding.value, scope, seen)
            return found
        for child in ast.iter_child_nodes(node):
            found |= self._path_names(child, scope, seen)
        return found

    def _run_together(self, first: ast.expr, second: ast.expr) -> bool:
        """Whether two calls of one function both run in one call of it: not in two
        branches of an `if`, `try` or `match`, and the earlier one's branch does not
        `return` or `raise` before the later one (`if sp is None: torch.save(...);
        return`, then `model.save_pretrained(...)`)."""
        if (second.lineno, second.col_offset) < (first.lineno, first.col_offset):
            first, second = second, first
        second_at = {id(parent): (field_name, index)
                     for parent, field_name, _, index in _block_path(self.model, second)}
        for parent, field_name, block, index in _block_path(self.model, first):
            if id(parent) not in second_at:
                if _leaves(block[index + 1:]):
                    return False  # the first one's branch leaves before the second runs
                continue
            # the innermost node holding both
            other_field, other_index = second_at[id(parent)]
            if isinstance(parent, ast.If) and other_field != field_name:
                return False  # the body and the else branch
            if isinstance(parent, (ast.Try, ast.TryStar)):
                if "handlers" in (field_name, other_field) and \
                        (field_name, index) != (other_field, other_index) and \
                        "finalbody" not in (field_name, other_field):
                    return False  # an except clause, and what it handles or another one
                if other_field != field_name:
                    return True
            if isinstance(parent, ast.Match):
                return index == other_index
            return other_field != field_name or not _leaves(block[index + 1:other_index])
        return True

    def _calls_after(self, call: ast.Call) -> Iterator[ast.Call]:
        """The calls of the function enclosing `call` that come after it in the text (the
        code that runs once the save is done, where a commit would be)."""
        function = self.model.enclosing_function(call)
        if function is None:
            return
        end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
        for other in ast.walk(function):
            if isinstance(other, ast.Call) and (other.lineno, other.col_offset) > end:
                yield other

    def _linked_after(self, call: ast.Call) -> bool:
        """Whether the function points a symlink at what it saved, after the save
        (`os.symlink(save_basename, link_name)`, `Path.symlink_to`): wavegrad's and
        diffwave's learners (round 31) write a new `weights-{step}.pt` and only then
        repoint `weights.pt`, which resumes read: the link is their commit."""
        return any(self.model.qualified_name(other.func) == "os.symlink"
                   or (isinstance(other.func, ast.Attribute) and other.func.attr == "symlink_to")
                   for other in self._calls_after(call))

    def _named_by_pointer_after(self, destination: ast.expr, call: ast.Call) -> bool:
        """Whether the function, after the save, writes the saved file's name into another
        file (`f.write('model.ckpt-{}-{}.pt'.format(epoch, step))` beside `checkpoint_path
        = os.path.join(checkpoint_dir, 'model.ckpt-{}-{}.pt'.format(epoch, step))`):
        clearvoice's pointer to the latest checkpoint (round 34). Readers follow the
        pointer, which names the new file only once it is complete: it commits the save,
        as a symlink or a marker does."""
        pending: list[ast.AST] = [destination]
        for name in (node for node in ast.walk(destination) if isinstance(node, ast.Name)):
            pending += [binding.value for binding in self.model.bindings(name)
                        if binding.kind is BindingKind.ASSIGNMENT and binding.value is not None]
        named = {node.value for inner in pending for node in ast.walk(inner)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and _EXTENSION.search(node.value)}
        return bool(named) and any(
            isinstance(other.func, ast.Attribute) and other.func.attr == "write"
            and any(isinstance(node, ast.Constant) and node.value in named
                    for argument in other.args for node in ast.walk(argument))
            for other in self._calls_after(call))

    def _folder_listing_beside(self, call: ast.Call) -> ast.Call | None:
        """The first call listing a folder's entries (`os.scandir(path)`, `glob.glob`,
        `Path.iterdir`) in the function that saves, or in another method of its class:
        code that picks the newest entry, or numbers runs by the entries it finds, would
        find a crashed save's temporary folder among them."""
        scopes = [node for node in self.model.ancestors(call)
                  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        if not scopes:
            return None
        classes = [node for node in scopes if isinstance(node, ast.ClassDef)]
        searched = classes[0] if classes else scopes[0]
        for node in ast.walk(searched):
            if not isinstance(node, ast.Call):
                continue
            if self.model.qualified_name(node.func) in FOLDER_LISTINGS or (
                    isinstance(node.func, ast.Attribute) and node.func.attr in PATH_LISTINGS
                    and not node.args[1:] and _dotted(node.func.value) not in ("glob",)):
                return node
        return None

    def _is_timed(self, call: ast.Call) -> bool:
        """Whether the statement of the call sits between two statements reading a clock."""
        statement = self.model.statement(call)
        if not isinstance(statement, (ast.Expr, ast.Assign, ast.Return)):
            return False
        found = self.model.block_of(statement)
        if found is None:
            return False
        siblings, index = found
        return (0 < index < len(siblings) - 1 and _reads_timer(siblings[index - 1])
                and _reads_timer(siblings[index + 1]))

    # -- what a name holds ---------------------------------------------------------------

    def name_kind(self, name: ast.Name, seen: frozenset[int] = frozenset()) -> NameKind | None:
        """What the bindings of `name` say it holds (a file, something temporary); None if
        they say nothing or disagree."""
        kinds = {kind for binding in self.model.bindings(name)
                 if (kind := self._binding_kind(binding, seen)) is not None}
        return kinds.pop() if len(kinds) == 1 else None

    def _binding_kind(self, binding: Binding, seen: frozenset[int]) -> NameKind | None:
        if id(binding) in seen:
            return None
        # Worked out once per binding: a long function reassigning names that are built
        # from each other made this exponential (round 14: simpletransformers' train()
        # took 50 s); a cycle cut by `seen` is decided the way the first query saw it.
        known = self._binding_kinds.get(id(binding), _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]
        kind = self._binding_kind_of(binding, seen | {id(binding)})
        self._binding_kinds[id(binding)] = kind
        return kind

    def _binding_kind_of(self, binding: Binding, seen: frozenset[int]) -> NameKind | None:
        if binding.kind is BindingKind.PARAMETER:
            annotation = binding.annotation
            return NameKind.FILE if annotation is not None and \
                _is_file_annotation(annotation) else None
        if binding.kind is BindingKind.ANNOTATION or binding.kind is BindingKind.LOOP:
            return NameKind.OTHER
        if binding.kind is BindingKind.WITH:
            # `with X(...) as f`: a context manager hands out an open file (open_file(...),
            # fs.open(...), a writer), not a path; temporary folders are the exception.
            item = self.model.parent(binding.node)
            if isinstance(item, ast.withitem) and item.optional_vars is binding.node and \
                    self._value_kind(item.context_expr, seen) is NameKind.TEMPORARY:
                return NameKind.TEMPORARY
            return NameKind.FILE
        if binding.kind is BindingKind.ASSIGNMENT and not binding.augmented:
            return self._value_kind(binding.value, seen)
        return None

    def _value_kind(self, value: ast.expr | None, seen: frozenset[int]) -> NameKind:
        if value is None:
            return NameKind.OTHER
        if isinstance(value, ast.Call):
            name = _dotted(value.func)
            if name.rsplit(".", 1)[-1] in TEMP_FACTORIES:
                return NameKind.TEMPORARY
            if _opens_file(name):
                return NameKind.FILE
        if any(text.startswith(TEMP_PREFIXES) for text in _string_prefixes(value)):
            return NameKind.TEMPORARY  # path = "/tmp/state.pt"
        # A path built from a temporary folder is temporary: os.path.join(tmp_dir, "x.pt")
        for node in ast.walk(value):
            if isinstance(node, ast.Name) and (
                set(identifier_words(node.id)) & TEMP_WORDS
                or self.name_kind(node, seen) is NameKind.TEMPORARY
            ):
                return NameKind.TEMPORARY
        return NameKind.OTHER

    # -- saves already renamed into place ------------------------------------------------

    def renames_in(self, path: FunctionPath) -> bool:
        """Whether the code around `path` already renames its output into place.

        True if the function (or one around it) renames, directly or through a function
        of this module it calls, or if a function that calls it by name does: the
        `self._save(tmp); self._replace(tmp, path)` split of timm's CheckpointSaver.
        """
        calls = self._all_calls()
        # Enclosing functions count (a nested writer); module-level code only for itself.
        depths = range(len(path), 0, -1) if path else (0,)
        if any(self._renames_via_calls(path[:depth]) for depth in depths):
            return True
        return bool(path) and any(
            path[-1] in scope.names and self._renames_via_calls(caller)
            for caller, scope in calls.items()
        )

    def _renames_via_calls(self, path: FunctionPath) -> bool:
        calls = self._all_calls()
        scope = calls.get(path) or _Calls()
        return scope.renames or any(
            other.renames for other_path, other in calls.items()
            if other_path and other_path[-1] in scope.names
        )

    def _all_calls(self) -> dict[FunctionPath, _Calls]:
        if self._calls is None:
            self._calls = {}
            for call in nodes_of(self.tree, ast.Call):
                if self.helper_def is not None and self.inside(call, self.helper_def):
                    continue  # the helper's own os.replace renames nothing of the module's
                scope = self._calls.setdefault(self.model.function_path(call), _Calls())
                if _renames_into_place(call):
                    scope.renames = True
                if isinstance(call.func, ast.Name):
                    scope.names.add(call.func.id)
                elif isinstance(call.func, ast.Attribute):
                    scope.names.add(call.func.attr)
        return self._calls


# -- the helper: where it is, what it needs ------------------------------------------------


class _Helper:
    """How the rewritten references reach the helper in this file, and what that needs."""

    def __init__(self, file: FileContext, facts: _Facts, codemod: type[Codemod],
                 limit: int) -> None:
        self.file = file
        self.facts = facts
        self.model = facts.model
        self.mode = file.option("helper", codemod)
        self.limit = limit  # the inline helper goes before this top-level statement

    def decide(self) -> tuple[HelperPlan | None, str | None, tuple[CreateFile, ...]]:
        """(the plan, None, files to create), or (None, why not, ())."""
        if self.facts.helper_def is not None:  # inserted by an earlier run: reuse it
            clash = self._clashes(OLD_HELPER_IMPORTS)
            return (None, clash, ()) if clash else (HelperPlan(HELPER), None, ())
        imported = self._imported_helper()
        if imported is not None:
            return HelperPlan(imported), None, ()
        package = self._package()
        if package is not None and (self.mode == "module" or (
                self.mode == "auto" and self._shared(package)
                and not _imports_siblings_bare(self.file))):
            return self._module_helper(package)
        return self._inline_helper()

    def _shared(self, package: str) -> bool:
        """Whether "auto" puts the helper in the package's helper module: the package has
        one already, or two or more of its modules get the helper (a project-wide fact)."""
        folder = self.module.source_root.joinpath(*package.split("."))
        if (folder / f"{HELPER_MODULE}.py").exists():
            return True
        if _puts_itself_on_the_path(folder):
            return False
        return int(self.file.project.derived(SAVING_MODULES, str(folder))) >= 2

    # -- inline --------------------------------------------------------------------------

    def _inline_helper(self) -> tuple[HelperPlan | None, str | None, tuple[CreateFile, ...]]:
        blocker = self._taken(HELPER)
        save = self._save_expression()
        if blocker is None and save is None:
            blocker = ("torch is imported only inside functions here, so a helper at module "
                       "level cannot reach it")
        pathlib = wants_pathlib(self.file)
        modules: tuple[str, ...] = PATHLIB_HELPER_IMPORTS if pathlib else HELPER_IMPORTS
        anchors = _helper_anchors(self.file.tree)
        any_name = self._any_name(max(a for a in anchors if a <= self.limit))
        precise = bans_any(self.file)  # `typing.Union`, `typing.IO`: typing is needed
        if any_name is not None and not precise:  # the module's own `Any`: no `import typing`
            modules = tuple(module for module in modules if module != "typing")
        blocker = blocker or self._clashes(modules) or self._aliased(modules)
        if blocker is not None:
            return None, blocker, ()
        assert save is not None
        missing = [module for module in modules
                   if not self.model.module_scope.local(module)]
        imports = plan_imports(self.file, [NewImport(module) for module in missing])
        template = HELPER_TEMPLATE_PATHLIB if pathlib else HELPER_TEMPLATE
        style = self.file.project.darglint_style()
        settings = self.file.project.formatter_settings()
        definition = annotated(documented(template, style).format(name=HELPER, save=save),
                               precise, settings.allow_star_arg_any)
        if any_name is not None:
            definition = definition.replace("typing.Any", any_name)
        definition = formatted_signature(definition, settings)
        quote = settings.quote
        return HelperPlan(HELPER, imports, definition, anchors, quote), None, ()

    def _any_name(self, before: int) -> str | None:
        """How the helper's annotations reach `typing.Any` through what the module
        imports already, so that it needs no `import typing`: a name bound to it
        (`from typing import Any`, as is), else an alias of typing (`import typing as
        t`: `t.Any`). Only names every module-level binding of which is that import,
        made by a top-level statement before statement `before` (where the helper
        goes: not under `if TYPE_CHECKING:`, not rebound later). None: neither (or
        `typing` itself is imported); the helper says `typing.Any`."""
        scope = self.model.module_scope
        body = self.file.tree.body

        def imported(name: str, qualified: str) -> bool:
            bindings = scope.local(name)
            return bool(bindings) and all(
                binding.is_import and binding.qualified_name == qualified
                and any(binding.statement is statement for statement in body[:before])
                for binding in bindings)

        names = sorted(scope.bindings, key=lambda name: (name != "Any", name))
        found = next((name for name in names if imported(name, "typing.Any")), None)
        if found is not None or scope.local("typing"):
            return found  # None: `typing.Any` (or `typing` clashes: reported as before)
        return next((f"{name}.Any" for name in names if imported(name, "typing")), None)

    def _save_expression(self) -> str | None:
        """How module-level code reaches torch.save: `torch.save`, `th.save`, `save`..."""
        scope = self.model.module_scope
        modules = [name for name, bindings in scope.bindings.items()
                   if _optional_torch(bindings)]
        if modules:
            return "torch.save" if "torch" in modules else f"{_first(scope, modules)}.save"
        saves = [name for name, bindings in scope.bindings.items()
                 if bindings and all(b.is_import and b.qualified_name in TORCH_SAVE
                                     for b in bindings)]
        return _first(scope, saves) if saves else None

    def _aliased(self, modules: Sequence[str]) -> str | None:
        """Why the helper's bare imports do not fit a module that imports them under
        other names (torchutils' `import os as _os`, `import torch as _torch`, round 56: a
        second, bare `import os` beside it, which its isort check and its convention of
        private names both reject)."""
        aliases = sorted(
            f"{binding.qualified_name} as `{name}`"
            for name, bindings in self.model.module_scope.bindings.items()
            for binding in bindings
            if binding.is_import and binding.qualified_name in modules
            and name != binding.qualified_name and not self.model.module_scope.local(
                binding.qualified_name))
        if not aliases:
            return None
        return (f"the module imports {aliases[0]}: the helper's bare imports would sit "
                "beside it")

    def _clashes(self, modules: Sequence[str]) -> str | None:
        """Why the helper's imports cannot be used here, if they cannot."""
        clashes = sorted(
            module for module in modules
            if any(not (b.is_import and b.qualified_name == module)
                   for b in self.model.module_scope.local(module))
        )
        if not clashes:
            return None
        names = " and ".join(f"`{name}`" for name in clashes)
        return f"the helper imports {names}, which this module binds to something else"

    # -- one helper module per package ---------------------------------------------------

    def _package(self) -> str | None:
        """The package the helper module goes in: the file's top-level package, or, below
        namespace packages of the pkgutil or pkg_resources kind (an `__init__.py` that
        extends `__path__` or declares the namespace: `bob/` and `bob/learn/`, shared by
        every bob.* distribution and holding no module by convention; round 46's reviewer
        read a helper put in `bob/` as noise), the first package under them
        (`bob.learn.pytorch`). None for a module outside any package."""
        module = self.module
        parts = module.name.split(".")
        if len(parts) == 1 and not module.is_package:
            return None
        depth = 1
        inner = len(parts) if module.is_package else len(parts) - 1
        while depth < inner and _declares_namespace(
                module.source_root.joinpath(*parts[:depth], "__init__.py")):
            depth += 1
        return ".".join(parts[:depth])

    @property
    def module(self) -> ModuleName:
        """The file's module name, a folder without `__init__.py` inside a regular
        package counting as part of it (see `package_module_name`)."""
        return package_module_name(self.file.module, self.file.project.root)

    def _module_helper(self, package: str
                       ) -> tuple[HelperPlan | None, str | None, tuple[CreateFile, ...]]:
        blocker = self._taken(MODULE_HELPER)
        if blocker is None and not _imports_torch_eagerly(self.file.tree):
            blocker = ("torch is optional here (imported only inside functions, or under "
                       "`try`/`if`), and the package helper module imports torch: a "
                       "module-level import of it would make this module need torch")
        if blocker is not None:
            return None, blocker, ()
        qualified = f"{package}.{HELPER_MODULE}"
        where = package.replace(".", "/")
        path = self.module.source_root.joinpath(*package.split("."), f"{HELPER_MODULE}.py")
        creates: tuple[CreateFile, ...] = ()
        facts = self.file.project.module(qualified)
        if facts is not None:
            if MODULE_HELPER not in facts.functions:
                return None, (f"{where}/{HELPER_MODULE}.py exists and does not define "
                              f"{MODULE_HELPER}"), ()
        elif self.file.project.module_path(qualified) is not None or path.exists():
            return None, f"{where}/{HELPER_MODULE}.py exists and cannot be read", ()
        else:
            settings = self.file.project.formatter_settings()
            header = self.file.project.derived(PACKAGE_HEADER, str(path.parent))
            source = helper_module_source(
                settings.quote or '"', wants_pathlib(self.file),
                self.file.project.darglint_style(), settings,
                precise=bans_any(self.file), header=header)
            if _crlf_package(path.parent, self.file.text):
                source = source.replace("\n", "\r\n")
            creates = (CreateFile(path, source),)
        imports = plan_imports(self.file, [self._helper_import(qualified)])
        return HelperPlan(MODULE_HELPER, imports), None, creates

    def _helper_import(self, qualified: str) -> NewImport:
        """The import of the package helper in the module's own convention: relative
        (`from .._torchfix_atomic_save import atomic_save`) where the module imports
        from its package relatively, absolute otherwise."""
        module = self.module
        # up to the helper's package (the top-level one, or one below namespace packages)
        level = len(module.name.split(".")) - (0 if module.is_package else 1) \
            - (len(qualified.split(".")) - 2)
        if not any(node.level for node in nodes_of(self.file.tree, ast.ImportFrom)) or \
                self._bans_relative(level):
            top = qualified.split(".", 1)[0]
            init = module.source_root / top / "__init__.py"
            prefix = _namespace_prefix(self.file.tree, top, module.source_root)
            if prefix is None and init.is_file() and init != self.file.path:
                prefix = _namespace_prefix(_parse_or_none(init), top, module.source_root)
            if prefix is None and not self._bans_relative(level) and \
                    _under_unknown_namespace(module.source_root, self.file.project.root):
                # autogluon.tabular's wheel: `autogluon/` has no `__init__.py` and no
                # import says `autogluon.tabular`, so `from tabular...` would not import
                # (round 27); a relative import works whatever the package is called.
                return NewImport(HELPER_MODULE, MODULE_HELPER, level)
            return NewImport(f"{prefix}.{qualified}" if prefix else qualified, MODULE_HELPER)
        return NewImport(HELPER_MODULE, MODULE_HELPER, level)

    def _bans_relative(self, level: int) -> bool:
        """Whether the project's ruff flags a relative import `level` dots up (TID252,
        flake8-tidy-imports' `ban-relative-imports`: "parents", its default, bans `..`
        and above; "all" bans `.` too)."""
        settings = self.file.project.formatter_settings()
        if not settings.enables("TID252", _project_path(self.file)):
            return False
        return level > 1 or settings.ban_relative_imports == "all"

    def _imported_helper(self) -> str | None:
        """The name a module-level import binds the package helper to, if one does."""
        for name, bindings in self.model.module_scope.bindings.items():
            if bindings and all(
                b.is_import and b.qualified_name is not None
                and b.qualified_name.endswith(f".{HELPER_MODULE}.{MODULE_HELPER}")
                for b in bindings
            ):
                return name
        return None

    def _taken(self, name: str) -> str | None:
        """Why `name` cannot be the helper's here: bound to something else in the file."""
        for scope in self.model.scopes:
            if scope.local(name):
                return f"the name {name} is already used in this module"
        return None


# Folders of scripts run one by one (atomic-save's one-shot tools and conversion scripts,
# examples): a folder of these without `__init__.py` is no part of the package around it.
SCRIPT_FOLDERS = TOOL_FOLDERS | CONVERSION_FOLDERS | frozenset(
    {"examples", "example", "demos", "demo", "tutorials", "notebooks", "docs", "scripts",
     "bin"})


def package_module_name(module: ModuleName, root: Path) -> ModuleName:
    """`module` (named by the folders with an `__init__.py` above the file) with each
    folder without one that sits inside a regular package taken as part of it: a
    namespace subpackage (PEP 420) of that package, as `litgpt/eval/evaluate.py` (no
    `litgpt/eval/__init__.py`) is imported as `litgpt.eval.evaluate`, also several such
    folders deep (pylate's `stanford_nlp/indexing/codecs/residual.py`). Script folders
    (`SCRIPT_FOLDERS`) and folders outside the project `root` stop the walk: a script
    there is run by path, not imported through the package."""
    parts = module.name.split(".")
    folder = Path(os.path.abspath(module.source_root))
    top = Path(os.path.abspath(root))

    def namespace(candidate: Path) -> bool:
        return (not (candidate / "__init__.py").is_file()
                and candidate.name.lower() not in SCRIPT_FOLDERS
                and not candidate.name.startswith(".") and candidate.name.isidentifier()
                and candidate.parent.is_relative_to(top) and candidate.parent != top)

    while True:
        # the namespace folders right above, up to the regular package holding them
        # (pylate's `stanford_nlp/indexing/codecs/`, neither with an `__init__.py`)
        chain: list[Path] = []
        probe = folder
        while namespace(probe):
            chain.append(probe)
            probe = probe.parent
        if not chain or not (probe / "__init__.py").is_file():
            break
        parts[:0] = [link.name for link in reversed(chain)]
        folder = probe
        while (folder / "__init__.py").is_file() and folder.parent != folder:
            parts.insert(0, folder.name)
            folder = folder.parent
    if len(parts) == len(module.name.split(".")):
        return module
    return ModuleName(".".join(parts), module.is_package, folder)


# Folders that hold a project's packages without being one (`src/pkg/__init__.py`).
SOURCE_FOLDERS = frozenset({"src", "lib", "python", "source"})


def _declares_namespace(init: Path) -> bool:
    """Whether a package's `__init__.py` makes it a namespace package of the pkgutil or
    pkg_resources kind (`__path__ = extend_path(__path__, __name__)`,
    `declare_namespace(__name__)`)."""
    try:
        text = init.read_bytes()[:4096]
    except OSError:
        return False
    return b"extend_path" in text or b"declare_namespace" in text


def _under_unknown_namespace(source_root: Path, root: Path) -> bool:
    """Whether the folder holding the top-level package is a folder below the project root
    that may be a namespace package (an identifier, no `__init__.py`, not `src/`): then
    the package's absolute name may start with it, and nothing says."""
    folder = Path(os.path.abspath(source_root))
    return (folder != Path(os.path.abspath(root)) and folder.name.isidentifier()
            and folder.name.lower() not in SOURCE_FOLDERS
            and not (folder / "__init__.py").is_file())


def _namespace_prefix(tree: ast.Module | None, top: str, source_root: Path) -> str | None:
    """The namespace packages above the package `top` as `tree`'s absolute imports name
    it: "fairchem" where a module of `fairchem/core/` (no `fairchem/__init__.py`: a
    namespace package, PEP 420) imports `fairchem.core.common`, so `core` alone is not
    importable. Only names whose leading parts are the folders right above `top`'s folder
    count. None where no import says so."""
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if top not in parts[1:]:
                continue
            above = parts[:parts.index(top, 1)]
            folders = [source_root, *source_root.parents][:len(above)]
            if [folder.name for folder in reversed(folders)] == above:
                return ".".join(above)
    return None


def _parse_or_none(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def saving_modules(project: Project, folder: str) -> str:
    """How many modules below the package folder `folder` atomic-save rewrites: "0", "1",
    or "2" for two or more. Only files holding `torch.save` or `.save(` are parsed, and
    each is decided as `check` decides it (tests and the helper module aside). Each
    file's answer is remembered between runs by its size and modification time (the
    project's scan memo): a warm run confirming cached results reads no file again."""
    memo = project.memo(SAVING_MODULES.replace("/", "-"))
    count = 0
    for path in sorted(Path(folder).rglob("*.py")):
        if AtomicSave.skips_path(path) or any(
                part.startswith(".") or part in ("build", "site-packages")
                for part in path.relative_to(folder).parts):
            continue
        saves = (_rewrites_a_save(project, path) if memo is None
                 else memo.result(path, str(path), partial(_rewrites_a_save, project)))
        if saves:
            count += 1
            if count >= 2:
                break
    if memo is not None:
        memo.save()
    return str(count)


def _rewrites_a_save(project: Project, path: Path) -> bool:
    """Whether atomic-save would rewrite a save of the module at `path`."""
    from torchfix.rewrite.contract import FileContext

    try:
        data = path.read_bytes()
    except OSError:
        return False
    if b"torch.save" not in data and b".save(" not in data:
        return False
    try:
        text = data.decode("utf-8")
        tree = ast.parse(text)
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return False
    file = FileContext(path, text, tree, project, project.begin_module(path))
    if is_example(file):
        return False
    facts = _Facts(file)
    return any(decision is not Safety.MANUAL
               for _, decision, _ in facts.decisions(facts.references()))


register_derived_fact(SAVING_MODULES, saving_modules)


def own_savers(project: Project, root: str) -> str:
    """The savers the project below `root` defines (`LIBRARY_SAVERS` and functions
    named for writing) that do more than hand over to a library's saver
    (`_forwards_to_library`), comma-separated: a call of one of those may be the project's
    own torch.save wrapper, not a library's saver. Tests aside. Only files holding
    `def save_` are parsed; each file's answer is remembered by the scan memo."""
    memo = project.memo(OWN_SAVERS.replace("/", "-"))
    found: set[str] = set()
    for path in sorted(Path(root).rglob("*.py")):
        if is_test_path(path) or any(
                part.startswith(".") or part in ("build", "site-packages", "node_modules")
                for part in path.relative_to(root).parts[:-1]):
            continue
        names = (_defined_savers(path) if memo is None
                 else memo.result(path, str(path), _defined_savers))
        found.update(names)
    if memo is not None:
        memo.save()
    return ",".join(sorted(found))


def _defined_savers(path: Path) -> list[str]:
    """The names of the savers the module at `path` defines that do more than hand over
    to a library's saver: `LIBRARY_SAVERS`, and functions named for writing (`save`,
    `write_checkpoint`), which `_bulk_writer_beside` asks about."""
    tree = parse_if_mentions(path, b"def save", b"def write", b"def dump", b"def export")
    if tree is None:
        return []
    found = set()
    for owner in ast.walk(tree):
        for node in ast.iter_child_nodes(owner):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    node.name in LIBRARY_SAVERS
                    or WRITER_WORDS & set(identifier_words(node.name))) and \
                    not _forwards_to_library(node):
                found.add(f"{node.name}@{owner.name}" if isinstance(owner, ast.ClassDef)
                          else node.name)
    return sorted(found)


def _forwards_to_library(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the project's saver only hands over to library savers of the objects it
    wraps (`def save_pretrained(self, *args, **kwargs): self.tokenizer.save_pretrained(
    ...); return self.model.save_pretrained(...)`: FlagEmbedding, round 21) and calls no
    `save` itself: a call of it writes the folder in place like the library's. Other
    savers of the project may be its own torch.save wrappers, which atomic-save makes
    atomic in turn, or write a config beside the weights."""
    calls = [_dotted(node.func) for node in ast.walk(function) if isinstance(node, ast.Call)]
    return any(name.rsplit(".", 1)[-1] in LIBRARY_SAVERS for name in calls) and not any(
        name == "save" or name.endswith(".save") for name in calls)


register_derived_fact(OWN_SAVERS, own_savers)


def mocked_save(project: Project, root: str) -> str:
    """Where the project's tests below `root` replace torch.save ("path:line", "" where
    none does): `patch("torch.save")` (also as a decorator, `mocker.patch`),
    `patch.object(torch, "save")`, `monkeypatch.setattr(torch, "save", ...)` or
    `monkeypatch.setattr("torch.save", ...)`. Only test files naming torch.save's parts
    are parsed; each file's answer is remembered by the scan memo."""
    found = first_answer(project.memo(MOCKED_SAVE.replace("/", "-")),
                         project_modules(root, tests=True), _mocks_save)
    return "" if found is None else f"{found[0].relative_to(root).as_posix()}:{found[1]}"


def _mocks_save(path: Path) -> int:
    """The line of the module's first replacement of torch.save; 0 where it has none.
    Through the module that calls it counts too: early-stopping-pytorch's tests patch
    "early_stopping_pytorch.early_stopping.torch.save" (round 38)."""
    tree = parse_if_mentions(path, b"save")
    if tree is None:
        return 0
    return next((line for name, line in replaced_names(tree)
                 if name == "torch.save" or name.endswith(".torch.save")), 0)


register_derived_fact(MOCKED_SAVE, mocked_save)


def latest_lister(project: Project, root: str) -> str:
    """Where the project's own code below `root` looks for its newest checkpoint by
    listing a folder ("path:line" of the function, "" where none does): a function named
    for the latest checkpoint (`_get_latest_checkpoint`, `find_last_ckpt`) that calls
    `os.listdir`, `glob.glob`, `Path.iterdir` or the like. Tests aside. Only modules
    holding `listdir`, `glob`, `scandir`, `iterdir` or `walk` are parsed; each file's
    answer is remembered by the scan memo."""
    found = first_answer(project.memo(LATEST_LISTER.replace("/", "-")),
                         project_modules(root), _latest_lister_line)
    return "" if found is None else f"{found[0].relative_to(root).as_posix()}:{found[1]}"


def _latest_lister_line(path: Path) -> int:
    """The line of the module's first function that lists a folder to find its newest
    checkpoint (see `latest_lister`); 0 where it has none."""
    tree = parse_if_mentions(path, b"listdir", b"glob", b"scandir", b"iterdir", b"walk")
    if tree is None:
        return 0
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        words = set(identifier_words(function.name))
        if not (words & LATEST_WORDS and words & LISTER_CHECKPOINT_WORDS):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and (
                    _dotted(node.func) in FOLDER_LISTINGS or (
                        isinstance(node.func, ast.Attribute) and node.func.attr in PATH_LISTINGS)):
                return function.lineno
    return 0


register_derived_fact(LATEST_LISTER, latest_lister)


# Files beside the modules that name functions: entry points (`train = pkg.cli:main`).
ENTRY_POINT_FILES = ("pyproject.toml", "setup.cfg")


def mentions(project: Project, word: str) -> str:
    """How many times the project's files name `word` as a whole identifier: every module
    below the root, tests included, comments and strings too, and the root's
    `pyproject.toml` and `setup.cfg`. Each file's count is remembered by the scan memo."""
    root = project.root
    memo = project.memo(MENTIONS.replace("/", "-"))
    pattern = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(word.encode()) + rb"(?![A-Za-z0-9_])")

    def count(path: Path) -> int:
        try:
            source = path.read_bytes()
        except OSError:
            return 0
        return len(pattern.findall(source)) if word.encode() in source else 0

    paths = [*project_modules(root), *project_modules(root, tests=True),
             *(root / name for name in ENTRY_POINT_FILES if (root / name).is_file())]
    try:
        return str(sum(count(path) if memo is None
                       else memo.result(path, f"{path}::{word}", count) for path in paths))
    finally:
        if memo is not None:
            memo.save()


register_derived_fact(MENTIONS, mentions)

# What a rename into place is called by, and what makes the temporary file it renames.
RENAMERS = frozenset({"os.replace", "os.rename", "shutil.move"})
TEMP_MAKERS = frozenset({"mkstemp", "mkdtemp", "NamedTemporaryFile", "TemporaryDirectory"})
WRITER_WORDS = frozenset({"save", "write", "dump", "store", "atomic", "atomically"})
RENAMER_WORDS = frozenset({"replace", "rename"})


def own_atomic_writer(project: Project, root: str) -> str:
    """The project's own atomic-write helper below `root`, "name|path|line" ("" if it has
    none): a function that renames a file into place (`os.replace`, `os.rename`,
    `shutil.move`, `Path.replace`) and either is named for it and moves one parameter
    onto another (rfdetr's `_replace_keeping_mode(source, destination)`) or saves
    (`torch.save(obj, tmp)`) before it renames onto a parameter, making the temporary
    file or named for saving or writing (`save_atomically(obj, path)`), and no export
    (ludwig's `export_carton`); or that is named for an atomic save and saves, however it
    commits (lightning's `_atomic_save`, an fsspec transaction). Tests, examples, hidden
    folders and torchfix's own helper aside; the first in path order."""
    memo = project.memo(OWN_ATOMIC_WRITER.replace("/", "-"))
    found = ""
    for path in sorted(Path(root).rglob("*.py")):
        relative = path.relative_to(root)
        if is_test_path(path) or path.name == f"{HELPER_MODULE}.py" or any(
                part.startswith(".") or part in ("build", "site-packages", "node_modules")
                or part in SCRIPT_FOLDERS
                for part in relative.parts[:-1]):
            continue
        writers = (_atomic_writers(path) if memo is None
                   else memo.result(path, str(path), _atomic_writers))
        if writers:
            found = f"{writers[0][0]}|{relative.as_posix()}|{writers[0][1]}"
            break
    if memo is not None:
        memo.save()
    return found


def _atomic_writers(path: Path) -> list[tuple[str, int]]:
    """(name, line) of the module's functions that write atomically (see above)."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    if b"replace(" not in data and b"rename(" not in data and b"move(" not in data \
            and b"atomic" not in data:
        return []
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                node.name in (HELPER, MODULE_HELPER) or node.name.startswith("_torchfix"):
            continue
        calls = [c for c in ast.walk(node) if isinstance(c, ast.Call)]
        words = set(identifier_words(node.name))
        if "atomic" in words and words & {"save", "write", "dump"} and any(
                _dotted(c.func).rsplit(".", 1)[-1] == "save" for c in calls):
            # named for it and saving, however it commits: lightning's `_atomic_save`
            # saves to a buffer and writes it in an fsspec transaction (round 30)
            found.append((node.name, node.lineno))
            continue
        renames = [c for c in calls if _dotted(c.func) in RENAMERS or (
            isinstance(c.func, ast.Attribute) and c.func.attr in ("replace", "rename")
            and len(c.args) == 1 and not c.keywords)]  # Path.replace(target)
        if not renames:
            continue
        makes_temp = any(_dotted(c.func).rsplit(".", 1)[-1] in TEMP_MAKERS for c in calls)
        parameters = {a.arg for a in (*node.args.posonlyargs, *node.args.args,
                                      *node.args.kwonlyargs)}
        # A rename helper moves what it is given onto what it is given: `os.replace(source,
        # destination)` of two parameters (not `_rename_outputs()` renaming its own files).
        moves_arguments = any(
            len(c.args) == 2 and all(isinstance(a, ast.Name) and a.id in parameters
                                     for a in c.args) for c in renames)
        # An atomic saver saves (`torch.save(obj, tmp)`) before it renames: not a text
        # writer (fairchem's `_write_atomically(path, text)`), nor `_remove_atomically`.
        # It must be reusable: the destination it renames onto is a parameter (not a
        # method renaming onto its own `self.save_trainer_file`, torchrl's `_save_trainer`).
        saves = any(_dotted(c.func).rsplit(".", 1)[-1] == "save" for c in calls)
        onto_parameter = any(
            isinstance(target, ast.Name) and target.id in parameters - {"self", "cls"}
            for c in renames
            for target in ([c.args[-1]] if c.args else []))
        if (words & RENAMER_WORDS and moves_arguments) or \
                (saves and onto_parameter and not words & EXPORT_WORDS
                 and (makes_temp or words & WRITER_WORDS)):
            found.append((node.name, node.lineno))
    return found


register_derived_fact(OWN_ATOMIC_WRITER, own_atomic_writer)


def _own_atomic_writer(file: FileContext) -> str | None:
    """`name (path:line)` of the project's own atomic writer, None if it has none."""
    fact = file.project.derived(OWN_ATOMIC_WRITER, str(file.project.root))
    if not fact:
        return None
    name, path, line = fact.split("|")
    return f"{name} ({path}:{line})"


HEADER_WORDS = ("copyright", "license", "spdx")  # what a header comment block says
HEADER_SHARE = 0.75  # of a package's non-empty modules starting with the same header
HEADER_MINIMUM = 5  # modules, at least


def package_header(project: Project, folder: str) -> str:
    """The comment block that (nearly) every module of the package folder `folder`
    starts with, where it is a copyright or license notice (agilerl's `# Copyright 2026
    AgileRL` and SPDX line, which ruff's CPY001 asks of every file): the block, ending in
    a newline, when at least HEADER_MINIMUM non-empty modules and HEADER_SHARE of them
    start with the same one; "" otherwise. A shebang and an encoding line are no part of
    it; tests and hidden folders are left out."""
    headers: Counter[str] = Counter()
    total = 0
    for path in sorted(Path(folder).rglob("*.py")):
        if is_test_path(path) or path.name == f"{HELPER_MODULE}.py" or any(
                part.startswith(".") or part in ("build", "site-packages")
                for part in path.relative_to(folder).parts[:-1]):
            continue
        try:
            with path.open("rb") as handle:
                head = handle.read(4096).decode("utf-8", "replace")
        except OSError:
            continue
        if not head.strip():
            continue  # an empty `__init__.py` says nothing
        total += 1
        headers[_header_of(head)] += 1
    if not headers:
        return ""
    header, count = headers.most_common(1)[0]
    if not header or total < HEADER_MINIMUM or count < HEADER_SHARE * total or \
            not any(word in header.lower() for word in HEADER_WORDS):
        return ""
    return header


def _header_of(text: str) -> str:
    """The comment lines a module starts with (shebang and encoding lines aside), blank
    lines between comment blocks included (DeepSpeed's `# SPDX-License-Identifier:
    Apache-2.0`, a blank line, `# DeepSpeed Team`: its license check wants all three)."""
    lines: list[str] = []
    for line in text.splitlines():
        stripped = line.rstrip()
        if not stripped:
            if lines:
                lines.append("")
            continue
        if not stripped.startswith("#"):
            break
        if stripped.startswith("#!") or re.match(r"^#.*coding[:=]", stripped):
            continue
        lines.append(stripped)
    while lines and not lines[-1]:
        lines.pop()
    return "".join(f"{line}\n" for line in lines)


register_derived_fact(PACKAGE_HEADER, package_header)


def _crlf_package(package: Path, text: str) -> bool:
    """Whether the package's `__init__.py` ends its lines with CRLF (carefree-learn's
    sdist, round 26): the helper module is written alike. One file decides, so every
    module of the package asks for the same helper module; where it holds no line, the
    module that saves (`text`) does."""
    try:
        head = (package / "__init__.py").read_bytes()[:65536]
    except OSError:
        head = b""
    return b"\r\n" in head if b"\n" in head else "\r\n" in text


def helper_module_source(quote: str = '"', pathlib: bool = False,
                         docstring_style: str | None = None,
                         settings: FormatterSettings | None = None, *,
                         precise: bool = False, header: str = "") -> str:
    """The package helper module: the helper, reaching torch as `torch`, its strings in
    `quote`; written with pathlib where the project's linter asks for it, its parameters
    documented in darglint's `docstring_style` where the project uses darglint, its
    signature laid out as the project's formatter `settings` keep it, its annotations
    free of `Any` where `precise` (the project's ruff runs ANN401: see `annotated`),
    after the comment `header` every module of the package starts with ("": none)."""
    template = documented(HELPER_TEMPLATE_PATHLIB if pathlib else HELPER_TEMPLATE,
                          docstring_style)
    modules = PATHLIB_HELPER_IMPORTS if pathlib else HELPER_IMPORTS
    helper = annotated(template.format(name=MODULE_HELPER, save="torch.save"), precise,
                       settings is not None and settings.allow_star_arg_any)
    if settings is not None:
        helper = formatted_signature(helper, settings)
    source = HELPER_MODULE_TEMPLATE.format(
        imports="\n".join(f"import {module}" for module in modules),
        helper=in_quotes(helper, quote))
    return f"{header}\n{source}" if header else source


def formatted_signature(definition: str, settings: FormatterSettings) -> str:
    """The helper's definition with its signature as the project's formatter lays it
    out. The template splits it one parameter a line with a magic trailing comma, which
    black and ruff format keep; with `skip-magic-trailing-comma` they ignore that comma
    and join what fits the line length (88 unless set): the whole signature on one line,
    else the parameters on one line between the brackets, else one a line as written."""
    if not settings.skip_magic_trailing_comma:
        return definition
    lines = definition.split("\n")
    end = lines.index(") -> None:")
    if any("#" in line for line in lines[1:end]):  # a comment keeps its line
        return definition
    head, parameters = lines[0], [line.strip().rstrip(",") for line in lines[1:end]]
    limit = settings.line_length or 88
    joined = ", ".join(parameters)
    if len(head) + len(joined) + len(lines[end]) <= limit:
        signature = [head + joined + lines[end]]
    elif len(joined) + 4 <= limit:
        signature = [head, "    " + joined, lines[end]]
    else:
        return definition
    return "\n".join(signature + lines[end + 1:])


def wants_pathlib(file: FileContext) -> bool:
    """Whether the project's ruff configuration enables flake8-use-pathlib rules that the
    plain helper breaks, for this file."""
    settings = file.project.formatter_settings()
    path = _project_path(file)
    return any(settings.enables(rule, path) for rule in PATHLIB_RULES)


def in_quotes(helper: str, quote: str) -> str:
    """The helper's code with its strings in `quote`. Its docstring keeps `\"\"\"`, as
    formatters keep docstrings whatever the quote style; no other string of the
    template holds a quote character, so each `"` after the docstring is a delimiter."""
    if quote == '"':
        return helper
    head, mark, rest = helper.partition('"""')
    docstring, mark2, code = rest.partition('"""')
    return (head.replace('"', quote) + mark + docstring + mark2  # head: the signature
            + code.replace('"', quote))


def is_conversion_script(file: FileContext) -> bool:
    """Whether the file converts weights from another format, once: below a folder such
    as `model_converters/`, `converters/` or `convert_ckpt/` (a folder name holding a
    conversion word: llamafactory's `scripts/convert_ckpt/llamafy_qwen.py`), or named
    `convert_*.py` / `*_converter.py` / `<from>2<to>.py` / `<from>_to_<to>.py` with a
    format after the `2` or in the two words after `to` (`tensorflow2pytorch.py`, DeepSpeed's
    `zero_to_fp32.py` and the copies projects vendor, `zero_to_any_dtype.py`)."""
    relative = below_working_folder(file.path)
    words = identifier_words(relative.stem)
    return (any(folder.lower() in CONVERSION_FOLDERS
                or set(identifier_words(folder)) & CONVERSION_WORDS
                for folder in relative.parts[:-1])
            or bool(set(words) & CONVERSION_WORDS)
            or VERSION_MIGRATION.fullmatch(relative.stem.lower()) is not None
            or any(word == "to" and set(words[index + 1:index + 3]) & FORMAT_WORDS
                   for index, word in enumerate(words))
            or any(_converts_between_formats(chunk)
                   for chunk in re.split(r"[_\W]+", relative.stem.lower())))


def _converts_between_formats(chunk: str) -> bool:
    """Whether one part of a file name is `<from>2<to>` with a format after the `2`
    (`tensorflow2pytorch`, `hf2pt`). A `2` that ends a part is a version of the name before
    it, not "to": `naturalspeech2_pytorch.py`, `stylegan2_pytorch.py` are models."""
    match = re.fullmatch(r"([a-z]+)2([a-z][a-z0-9]*)", chunk)
    return match is not None and bool(set(identifier_words(match[2])) & FORMAT_WORDS)


def is_tool_script(file: FileContext) -> bool:
    """Whether the file is a release tool or a benchmark, run once to make its output:
    below a top-level `tools/` or `benchmarks/` (not a package's own `pkg/tools/`, which
    may hold its checkpointing), or named `export*.py` / `benchmark*.py`."""
    relative = below_working_folder(file.path)
    words = identifier_words(relative.stem)
    return ((len(relative.parts) > 1 and relative.parts[0].lower() in TOOL_FOLDERS)
            or (bool(words) and words[0] in TOOL_WORDS))


def is_cli_command(file: FileContext) -> bool:
    """Whether the file is one of a package's command-line commands, run once to make its
    output: below a `cli/` folder (axolotl's `cli/utils/lora_merge.py`), or a module
    named `cli.py` or `__main__.py`."""
    relative = below_working_folder(file.path)
    return relative.stem in CLI_MODULES or any(
        folder.lower() in CLI_FOLDERS for folder in relative.parts[:-1])


def in_hidden_folder(path: Path) -> bool:
    """Whether the file is below a hidden folder (`.mim/`, `.eggs/`), judged below the
    working folder: a generated or installed copy of the project's files, not its code."""
    relative = below_working_folder(path)
    return any(part.startswith(".") and part not in (".", "..")
               for part in relative.parts[:-1])


def _imports_siblings_bare(file: FileContext) -> bool:
    """Whether a top-level import of the module names a module beside it by its bare name
    (`import models`, `from sampler import *` in `torchspatial/trainer.py`, round 52): the
    module runs with its own folder on `sys.path`, as a script, where the package's name
    cannot be imported; it gets the inline helper."""
    folder = file.path.parent
    for statement in file.tree.body:
        if isinstance(statement, ast.Import):
            names = [alias.name for alias in statement.names]
        elif isinstance(statement, ast.ImportFrom) and not statement.level and \
                statement.module:
            names = [statement.module]
        else:
            continue
        for name in names:
            first = name.split(".")[0]
            if first in sys.stdlib_module_names:
                continue  # `from dataclasses import replace` beside accelerate's own
                # `utils/dataclasses.py`: a relative import would name that one
            if first == file.path.stem:
                continue  # unitorch's `cli/tasks/deepspeed.py` imports the deepspeed
                # package: as a script, the module would import itself
            if first != folder.name and ((folder / f"{first}.py").is_file()
                                         or (folder / first / "__init__.py").is_file()):
                return True
    return False


def _puts_itself_on_the_path(folder: Path) -> bool:
    """Whether the package's `__init__.py` adds a folder to `sys.path`
    (`sys.path.insert(0, PACKAGE_ROOT)`): its modules are then imported under other names
    too (deepbach-pytorch's `DatasetManager.music_dataset`, round 51, where an import of
    `deepbach_pytorch._torchfix_atomic_save` was circular when installed and missing in a
    clone). Each saving module gets the inline helper instead."""
    try:
        source = (folder / "__init__.py").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    if "sys.path" not in source:
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr in ("insert", "append", "extend")
               and _dotted(node.func.value) == "sys.path" for node in ast.walk(tree))


def _standalone(file: FileContext) -> bool:
    """Whether no other file of the project names the module: its name appears in the
    project's files (`mentions`, a whole-word count) only as often as in the module
    itself. False where the module is not among the project's files on disk."""
    name = file.path.name.removesuffix(".py")
    if not name.isidentifier() or not file.path.is_file() or \
            not file.path.resolve().is_relative_to(file.project.root.resolve()):
        return False
    total = int(file.project.derived(MENTIONS, name) or 0)
    own = len(re.findall(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])",
                         file.text))
    return total == own


def is_example(file: FileContext) -> bool:
    """Whether the file is example code (see `is_example_code`)."""
    return is_example_code(file.path, file.text)


def _imports_torch_eagerly(tree: ast.Module) -> bool:
    """Whether a top-level statement of the module imports torch unconditionally (`import
    torch`, `from torch import nn`): not only inside functions, under `try: ... except
    ImportError`, or under `if TYPE_CHECKING:` (nni's serializer, where torch is optional)."""
    for statement in tree.body:
        if isinstance(statement, ast.Import) and any(
                alias.name.split(".")[0] == "torch" for alias in statement.names):
            return True
        if isinstance(statement, ast.ImportFrom) and not statement.level and \
                (statement.module or "").split(".")[0] == "torch":
            return True
    return False


def _optional_torch(bindings: Sequence[Binding]) -> bool:
    """Whether these bindings of a name make it the torch module: imports of torch only,
    or with a `None` fallback (`try: import torch` / `except ImportError: torch = None`),
    where torch.save cannot be anything else."""
    imports = [b for b in bindings if b.is_import]
    return bool(imports) and all(b.qualified_name == "torch" for b in imports) and all(
        b.kind is BindingKind.ASSIGNMENT and isinstance(b.value, ast.Constant)
        and b.value.value is None and not b.augmented
        for b in bindings if not b.is_import)


def _first(scope: object, names: list[str]) -> str:
    """The name bound first in source order."""
    def position(name: str) -> tuple[int, int]:
        return min(b.position for b in scope.local(name))  # type: ignore[attr-defined]
    return min(names, key=position)


def calls_helper(model: SemanticModel, call: ast.Call,
                 inline: ast.FunctionDef | None) -> bool:
    """Whether `call` calls torchfix's own helper, the `torch.save` of its arguments: the
    module's `_torchfix_atomic_save` (`inline`, from `inline_helper`) or the package
    helper module's `atomic_save`, imported. For other codemods, which must judge the
    code after atomic-save's rewrite as they judge it before."""
    func = call.func
    if inline is not None and isinstance(func, ast.Name) and func.id == HELPER:
        bindings = model.bindings(func)
        return bool(bindings) and all(binding.node is inline for binding in bindings)
    qualified = model.qualified_name(func) or ""
    return qualified.endswith(f".{HELPER_MODULE}.{MODULE_HELPER}")


def inline_helper(tree: ast.Module) -> ast.FunctionDef | None:
    """torchfix's inline helper in the module (found by its name and docstring marker)."""
    return _inline_helper(tree)


def _inline_helper(tree: ast.Module) -> ast.FunctionDef | None:
    for statement in tree.body:
        if (isinstance(statement, ast.FunctionDef) and statement.name == HELPER
                and HELPER_MARKER in (ast.get_docstring(statement) or "")):
            return statement
    return None


def _helper_anchors(tree: ast.Module) -> tuple[int, ...]:
    """Where the inline helper may go: after the docstring and the imports (an import, or
    an `if`/`try` that imports) that come before the first function or class."""
    anchors = [0]
    for index, statement in enumerate(tree.body):
        if _is_import_block(statement) or (index == 0 and is_docstring(statement)):
            anchors.append(index + 1)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            break
    return tuple(anchors)


def _is_import_block(statement: ast.stmt) -> bool:
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(statement, (ast.If, ast.Try)):
        return any(_has_import(child) for child in ast.iter_child_nodes(statement))
    return False


def _has_import(node: ast.AST) -> bool:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.expr)):
        return False
    return any(_has_import(child) for child in ast.iter_child_nodes(node))


# -- reading CPython's tree -------------------------------------------------------------------


def _save_aliases(tree: ast.Module) -> set[str]:
    """Names bound by `from torch import save [as x]` anywhere in the file."""
    return {
        alias.asname or alias.name
        for node in nodes_of(tree, ast.ImportFrom)
        if node.module in ("torch", "torch.serialization") and not node.level
        for alias in node.names if alias.name == "save"
    }


def _swapped(call: ast.Call, destination: ast.expr) -> bool:
    """Whether torch.save is handed the path first and the object second (bert4torch's
    `torch.save(path, whiten)` with `whiten = {...}`, round 39): a name or string saying
    path or file where the object goes, and a literal container or a name saying no
    path where the file goes. Such a call fails on every run; a rewrite would keep it."""
    if not call.args or call.args[0] is destination or isinstance(call.args[0], ast.Starred):
        return False
    saved = call.args[0]
    if not (isinstance(saved, ast.Name) and set(identifier_words(saved.id)) & PATH_WORDS):
        return False
    return isinstance(destination, ast.Dict | ast.List | ast.Tuple) or (
        isinstance(destination, ast.Name)
        and not set(identifier_words(destination.id)) & (PATH_WORDS | FILE_OBJECT_WORDS))


def _destination(call: ast.Call) -> tuple[ast.expr | None, bool]:
    """torch.save's `f` argument, and whether star arguments may hide it."""
    for keyword in call.keywords:
        if keyword.arg == "f":
            return keyword.value, False
    hidden = False
    positional = 0
    for arg in call.args:
        if isinstance(arg, ast.Starred):
            hidden = True
            continue
        if hidden:
            return None, True  # after *args its position is unknown
        positional += 1
        if positional == 2:
            return arg, False
    return None, hidden or any(keyword.arg is None for keyword in call.keywords)


def _opens_file(name: str | None) -> bool:
    if not name:
        return False
    last = name.rsplit(".", 1)[-1]
    return last in FILE_OPENERS or last.endswith("open")  # open, gzip.open, zf.open, ...


def _opens_for_writing(call: ast.Call) -> bool:
    """`open(path, "wb")`, `fsspec.open(path, mode="w")`...: an opener given a path and a
    literal mode that writes."""
    if not call.args or not _opens_file(_dotted(call.func)):
        return False
    mode = next((k.value for k in call.keywords if k.arg == "mode"),
                call.args[1] if len(call.args) > 1 else None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and \
        bool(set(mode.value) & set("wax+"))


def _names_a_dataset(name: str) -> bool:
    """Whether a class name says dataset: `TimeSeriesDataSet`, `torch.utils.data.Dataset`."""
    words = identifier_words(name.rsplit(".", 1)[-1])
    return bool(words) and (words[-1] == "dataset" or words[-2:] == ["data", "set"])


def _loads(call: ast.Call) -> bool:
    """A call of a `*load` function with a first argument (`torch.load(path)`,
    `self.load(path)`): what reads a saved file back."""
    return bool(call.args) and _dotted(call.func).rsplit(".", 1)[-1].endswith("load")


def _counters_formatted(value: ast.AST) -> list[str]:
    """The training counters (`epoch`, `self.step`) a string in `value` formats: an
    f-string's fields, `"ckpt_%05d.pth" % epoch` (torch-yolo3, round 41) and
    `"ckpt_{}.pth".format(epoch)`, a counter passed as it is (not `"best" if is_best
    else epoch`, which also names a file kept over and over)."""
    formatted: list[ast.expr] = []
    for inner in ast.walk(value):
        if isinstance(inner, ast.JoinedStr):
            formatted += [part.value for part in inner.values
                          if isinstance(part, ast.FormattedValue)]
        elif isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Mod) and isinstance(
                inner.left, ast.Constant) and isinstance(inner.left.value, str):
            right = inner.right
            formatted += list(right.elts) if isinstance(right, ast.Tuple) else [right]
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and (
                inner.func.attr == "format" and isinstance(inner.func.value, ast.Constant)
                and isinstance(inner.func.value.value, str)):
            formatted += [*inner.args, *(keyword.value for keyword in inner.keywords)]
        elif isinstance(inner, ast.Call) and FILE_NAMER_WORDS & set(
                identifier_words(_identifier(inner.func) or "")):
            # neurotorch's `self.get_checkpoint_filename(itr)` (round 56)
            formatted += [*inner.args, *(keyword.value for keyword in inner.keywords)]
    # `str(self.epoch)` (torchutils, round 56) formats the counter it converts, and
    # `epoch + 1` (torchh's DCGAN tutorial, round 57) the counter it offsets
    formatted = [_counted(field) for field in formatted]
    return [_dotted(field) or _identifier(field) or "" for field in formatted
            if isinstance(field, ast.Name | ast.Attribute)
            and FILE_COUNTER_WORDS & set(identifier_words(_identifier(field) or ""))
            and not _configured(field)]


def _counted(field: ast.expr) -> ast.expr:
    """The counter a formatted field shows: `epoch` in `str(epoch)` and `epoch + 1`."""
    if isinstance(field, ast.Call) and isinstance(field.func, ast.Name) and \
            field.func.id in ("str", "int") and len(field.args) == 1:
        return _counted(field.args[0])
    if isinstance(field, ast.BinOp) and isinstance(field.op, (ast.Add, ast.Sub)) and \
            isinstance(field.right, ast.Constant) and isinstance(field.right.value, int):
        return _counted(field.left)
    return field


# Words of what holds a run's settings: a count read from one (`cfg.epochs`) is how long the
# run is, fixed for the whole run, not a counter that names a new file at each save.
SETTINGS_WORDS = frozenset({"cfg", "config", "conf", "configs", "args", "opt", "opts",
                            "options", "hparams", "hp", "params", "settings", "flags",
                            "hyperparams", "hyperparameters"})


def _configured(field: ast.expr) -> bool:
    """Whether the value is read from a run's settings (`cfg.epochs`, `self.args.steps`):
    ctm-pytorch-advi names its run folder `f"..._e{cfg.epochs}_..."` and overwrites the
    `ctm.pt` in it at each improvement (round 48: "each save names a new file" was false)."""
    node = field.value if isinstance(field, ast.Attribute) else None
    while isinstance(node, ast.Attribute | ast.Name):
        name = node.attr if isinstance(node, ast.Attribute) else node.id
        if SETTINGS_WORDS & set(identifier_words(name)):
            return True
        node = node.value if isinstance(node, ast.Attribute) else None
    return False


def _hashes(name: str) -> bool:
    """Whether a function of this name hashes content (see HASH_NAME)."""
    return HASH_NAME.search(name) is not None


def _identifier(node: ast.AST) -> str | None:
    """The identifier a node spells: a name, an attribute's name, a keyword's name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.keyword):
        return node.arg
    return None


def _names_words(node: ast.AST, words: frozenset[str]) -> bool:
    """Whether an identifier or a string in the expression has one of these words."""
    for child in ast.walk(node):
        identifier = _identifier(child)
        if identifier is None and isinstance(child, ast.Constant) and \
                isinstance(child.value, str):
            identifier = child.value.replace("/", "_").replace(".", "_").replace("-", "_")
        if identifier is not None and set(identifier_words(identifier)) & words:
            return True
    return False


def _string_prefixes(node: ast.AST) -> Iterator[str]:
    """The literal text at the start of each string in an expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield first.value
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                yield from _string_prefixes(value)
        return
    for child in ast.iter_child_nodes(node):
        yield from _string_prefixes(child)


def _is_url(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(_URL.match(node.value))
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        return isinstance(first, ast.Constant) and isinstance(first.value, str) and \
            bool(_URL.match(first.value))
    return False


def _path_guard(statement: ast.stmt) -> str | None:
    """`f` for `if isinstance(f, str): ...; return` (so below it, `f` is a file object)."""
    if not (
        isinstance(statement, ast.If)
        and not statement.orelse
        and _always_leaves(statement.body)
        and isinstance(statement.test, ast.Call)
        and _dotted(statement.test.func) == "isinstance"
        and len(statement.test.args) == 2
        and isinstance(statement.test.args[0], ast.Name)
    ):
        return None
    types = {_dotted(node) for node in ast.walk(statement.test.args[1])}  # type: ignore[arg-type]
    if types & {"str", "os.PathLike", "PathLike", "Path", "pathlib.Path"}:
        return statement.test.args[0].id
    return None


def _always_leaves(statements: list[ast.stmt]) -> bool:
    """Whether running these statements always ends in `return` or `raise`."""
    last = statements[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _always_leaves(last.body)
    if isinstance(last, ast.If):
        return bool(last.orelse) and _always_leaves(last.body) and _always_leaves(last.orelse)
    return False


def _words_in(node: ast.AST) -> set[str]:
    """The words of the identifiers and strings in an expression."""
    words: set[str] = set()
    for child in ast.walk(node):
        identifier = _identifier(child)
        if identifier is None and isinstance(child, ast.Constant) and \
                isinstance(child.value, str):
            identifier = child.value.replace("/", "_").replace(".", "_").replace("-", "_")
        if identifier is not None:
            words.update(identifier_words(identifier))
    return words


def _existence_check(test: ast.expr) -> tuple[ast.expr, bool] | None:
    """(the path, negated) for `os.path.exists(path)`, `os.path.isfile(path)`,
    `path.exists()`, `path.is_file()`, `Path(path).exists()`, each maybe under `not`."""
    negated = False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        negated, test = True, test.operand
    if not isinstance(test, ast.Call):
        return None
    name = _dotted(test.func)
    if name.rsplit(".", 1)[-1] in ("exists", "isfile") and name.startswith(
            ("os.path.", "path.", "osp.")) and len(test.args) == 1:
        return test.args[0], negated
    if isinstance(test.func, ast.Attribute) and test.func.attr in ("exists", "is_file") \
            and not test.args:
        receiver = test.func.value
        if isinstance(receiver, ast.Call) and len(receiver.args) == 1 and \
                _dotted(receiver.func).rsplit(".", 1)[-1] == "Path":
            receiver = receiver.args[0]
        return receiver, negated
    return None


def _is_command(decorator: ast.expr) -> bool:
    """`@app.command()`, `@click.command`, `@hydra.main(...)`, `@cli.command("x")`."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    return isinstance(decorator, ast.Attribute) and decorator.attr in COMMAND_DECORATORS


def _block_path(model: SemanticModel, node: ast.AST
                ) -> Iterator[tuple[ast.AST, str, list[ast.AST], int]]:
    """(parent, field, the list, index) for each statement list holding `node` (or an
    ancestor of it), innermost first, up to its function's body (or the module's)."""
    child: ast.AST = node
    for parent in model.ancestors(node):
        for field_name, value in ast.iter_fields(parent):
            if isinstance(value, list) and any(item is child for item in value):
                index = next(i for i, item in enumerate(value) if item is child)
                yield parent, field_name, value, index
                break
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        child = parent


def _leaves(statements: Sequence[ast.AST]) -> bool:
    """Whether one of these statements returns or raises (what follows them, outside
    their block, does not run after them)."""
    return any(isinstance(statement, (ast.Return, ast.Raise)) for statement in statements)


def _reads_timer(statement: ast.stmt) -> bool:
    return any(
        isinstance(node, ast.Call)
        and _dotted(node.func).rsplit(".", 1)[-1] in TIMERS
        for node in ast.walk(statement)
    )


def _is_file_annotation(annotation: ast.expr) -> bool:
    if isinstance(annotation, ast.Subscript):
        return _is_file_annotation(annotation.value)  # IO[bytes], Optional[BinaryIO]...
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return _is_file_annotation(ast.parse(annotation.value, mode="eval").body)
        except SyntaxError:
            return False
    return _dotted(annotation).rsplit(".", 1)[-1] in FILE_ANNOTATIONS


def _renames_into_place(call: ast.Call) -> bool:
    """`os.replace(a, b)`, `os.rename`, `shutil.move`, `Path.replace(b)`, `fs.rename(a, b)`.

    `str.replace` takes two arguments and `DataFrame.rename` keywords, so a method named
    `replace` counts with exactly one positional argument and `rename` with one or two.
    """
    name = _dotted(call.func)
    if name in ("os.replace", "os.rename", "shutil.move"):
        return True
    if not isinstance(call.func, ast.Attribute) or call.keywords:
        return False
    count = len(call.args)
    attr = call.func.attr
    return (
        (attr == "replace" and count == 1)
        or (attr == "rename" and count in (1, 2))
        or (attr in ("move", "mv") and count == 2)
    )


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""

