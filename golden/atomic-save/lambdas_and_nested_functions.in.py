# golden-args: --unsafe-fixes
import torch


def make_callbacks(model, out_dir):
    on_epoch_end = lambda epoch: torch.save(model.state_dict(), f"{out_dir}/epoch{epoch}.pt")

    def on_train_end():
        torch.save(model.state_dict(), f"{out_dir}/final.pt")

    return on_epoch_end, on_train_end
