"""The project sorts imports by length (ruff's isort `length-sort`): the helper's imports go
where that order puts them, shorter module names first."""

import re
import json
import logging
import warnings

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
