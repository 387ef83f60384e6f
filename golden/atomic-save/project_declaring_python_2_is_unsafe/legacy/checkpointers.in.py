# A project that still declares Python 2.7 (torchbearer 0.5.5, round 21): the helper's
# f-strings and os.fspath need Python 3.6, so the fix is only an unsafe one, its reason
# naming where the project says so.
import torch


class Best:
    def on_end_epoch(self, state, epoch):
        torch.save(state["model"].state_dict(), "best_checkpoint.pt")
