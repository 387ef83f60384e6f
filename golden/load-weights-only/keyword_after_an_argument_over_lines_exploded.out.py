# torchpippy (round 57): the one argument spans lines, so black gives each argument a line
# of its own once there are two, the last with a trailing comma.
import os

import torch


def load_optimizer(optim, checkpoint_folder, rank):
    optim.load_state_dict(
        torch.load(
            os.path.join(
                checkpoint_folder,
                f"optimizer_state_rank{rank}_of_a_pipeline_stage_that_is_long.pt",
            ),
            weights_only=True,
        )
    )
