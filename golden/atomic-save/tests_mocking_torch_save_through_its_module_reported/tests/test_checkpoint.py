from unittest.mock import MagicMock, patch

from trainer.checkpoint import save_checkpoint


def test_saves_to_the_checkpoint_path():
    # early-stopping-pytorch's tests patch torch.save where its module looks it up
    with patch("trainer.checkpoint.torch.save") as mock_save:
        save_checkpoint(MagicMock(), 3)
    assert mock_save.call_args[0][1] == "checkpoint.pt"
