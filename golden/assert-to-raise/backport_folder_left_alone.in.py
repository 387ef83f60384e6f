# golden-args: --unsafe-fixes
# golden-path: quantlib/backport/fx/operator_schemas.py
# A module below a `backport/` folder is another project's code copied in, to be kept in
# step with it (brevitas' backport of torch.fx, round 21): its asserts keep that
# project's form, even as unsafe fixes. Left alone like a module whose head says it is
# copied.
import torch


def normalize_function(target, args, kwargs=None):
    assert not isinstance(target, str), "target must be a callable"
    return target(*args, **(kwargs or {}))
