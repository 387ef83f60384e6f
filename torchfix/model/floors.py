"""What torch a project is taken to run where its metadata does not say.

Kept apart from `torch_floor` (which reads the metadata) so that the contract and the
project model can name these without loading the readers.
"""

# What a project that declares no torch version is taken to run: any torch 2 release. A fix
# whose replacement is newer is unsafe there (round 9: `torch.amp.GradScaler("cuda")`, torch
# 2.3, offered as safe to a project that pins nothing was judged wrong by its reviewer).
UNDECLARED_FLOOR = (2, 0)
# What a project whose dependency files list no torch at all is taken to run: any torch.
# It gets torch through a dependency (tevatron's `transformers>=4.10.0`, round 29, tested
# on torch 1.10.1) or from its users (tape-proteins, whose repository pins torch 1.1.0).
NO_TORCH_LISTED_FLOOR = (1, 0)
