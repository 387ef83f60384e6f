# bartorch's docs examples (round 50): example code runs once to show something, so a
# constant tensor built per call costs nothing worth a change. Left alone; the library's
# own forward pass is rewritten.
import torch

scores = torch.randn(4, 4)
mask = torch.rand(4, 4) > 0.5
print(scores.masked_fill(~mask, torch.tensor(-1e9)).softmax(-1))
