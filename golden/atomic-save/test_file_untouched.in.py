# golden-path: tests/test_checkpointing.py
import torch

from trainer import Trainer


def test_resume_restores_step(tmp_path):
    trainer = Trainer()
    trainer.step = 7
    torch.save(trainer.state_dict(), tmp_path / "ckpt.pt")
    restored = Trainer()
    restored.load_state_dict(torch.load(tmp_path / "ckpt.pt"))
    assert restored.step == 7


def test_save_to_output_dir(output_dir):
    torch.save({"step": 1}, output_dir + "/ckpt.pt")
