# golden-args: --unsafe-fixes
# %% [markdown]
# Train a small model, then save it.

# %%
import torch

model = torch.nn.Linear(2, 2)

# %%
for epoch in range(3):
    torch.save(model.state_dict(), "linear.pt")
