# A project that still declares Python 2.7 (torchbearer 0.5.5, round 21): the helper's
# f-strings and os.fspath need Python 3.6, so the module would not import there; the save
# is only reported, naming where the project says so (round 23).
import torch


class Best:
    def on_end_epoch(self, state, epoch):
        torch.save(state["model"].state_dict(), "best_checkpoint.pt")
