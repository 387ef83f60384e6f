# Copyright (c) Example Corporation.
# SPDX-License-Identifier: Apache-2.0

# Example Team

"""rlpkg."""
