import shutil
from pathlib import Path

import torch


def save_model(model, model_ckpt_dir):
    model_ckpt_dir = Path(model_ckpt_dir)
    if model_ckpt_dir.is_dir():
        shutil.rmtree(model_ckpt_dir, ignore_errors=True)
    model_ckpt_dir.mkdir(exist_ok=True, parents=True)
    torch.save(model.state_dict(), model_ckpt_dir / "state_dict.pt")


def save_checkpoint(model, ckpt_dir, old_dir):
    shutil.rmtree(old_dir)  # another folder: the checkpoint's own is kept
    torch.save(model.state_dict(), Path(ckpt_dir) / "state_dict.pt")


def cleanupdir(path: Path) -> None:
    for child in path.iterdir():
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()


class TrainState:
    # xpm-torch (round 45): the state's folder is emptied by the project's own helper
    def save(self, path: Path) -> None:
        cleanupdir(path)
        torch.save(self.trainer.state_dict(), path / "trainer.pth")
        torch.save(self.optimizer.state_dict(), path / "optimizer.pth")


def run_save_model(model, model_ckpt_dir):
    save_model(model, model_ckpt_dir)


def run_save_checkpoint(model, ckpt_dir, old_dir):
    save_checkpoint(model, ckpt_dir, old_dir)
