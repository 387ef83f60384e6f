# torch-yolo3 (round 41): a new file of weights per epoch, never overwritten, that nothing
# here reads back by that name. A crash tears only the newest; every earlier one survives,
# so the rewrite is an unsafe fix (its reviewer called it noise). So is a per-epoch file
# that holds the optimizer and the epoch: bob-learn-pytorch's `model_{epoch}_{iteration}.pth`
# with its counters (round 46) was noise to its reviewer too, as nothing good is overwritten.
import os

import torch


def train(model, optimizer, epochs, path_output, checkpoint_interval):
    for epoch in range(epochs):
        optimizer.step()
        if epoch % checkpoint_interval == 0:
            torch.save(model.state_dict(), os.path.join(path_output, "yolov3_ckpt_%05d.pth" % epoch))


def train_resumable(model, optimizer, epochs, path_output):
    for epoch in range(epochs):
        optimizer.step()
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
            os.path.join(path_output, "resume_{}.pth".format(epoch)),
        )


def main(model, optimizer):
    train(model, optimizer, 100, "runs", 10)
    train_resumable(model, optimizer, 100, "runs")


def train_gan(net_g, loader, out_dir, epochs):
    # torchh's DCGAN tutorial (round 57): the counter is offset, `epoch + 1`; a new file
    # per epoch of a function nothing here calls is left alone
    for epoch in range(epochs):
        for batch in loader:
            net_g(batch)
        torch.save(net_g.state_dict(), os.path.join(out_dir, f"netG_epoch_{epoch + 1}.pth"))
