# A load that only feeds load_state_dict reads a state dict, whatever the other loads of
# its function read (physicsnemo's active-learning driver, round 26: its `{name}.pt` state
# dicts beside a checkpoint loaded with weights_only=False got `weights_only=False` too).
# It gets weights_only=True; a load used for more follows its neighbour.
import torch


def resume(learner, checkpoint_path, model_path):
    state = torch.load(checkpoint_path, weights_only=False)
    learner.load_state_dict(
        torch.load(model_path, map_location="cpu", weights_only=True)
    )
    queue = torch.load(checkpoint_path.with_name("queue.pt"))
    return state, queue
