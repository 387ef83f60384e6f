# Copyright 2026 Example Labs
# SPDX-License-Identifier: Apache-2.0

"""Agents."""
