# Copyright 2026 Example Labs
# SPDX-License-Identifier: Apache-2.0

from rlpkg._torchfix_atomic_save import atomic_save


def save_checkpoint(model, path):
    atomic_save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
