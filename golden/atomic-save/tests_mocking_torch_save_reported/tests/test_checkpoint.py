from unittest.mock import MagicMock, patch

from trainer.checkpoint import save_checkpoint


@patch("torch.save")
def test_saves_to_the_checkpoint_path(mock_save):
    save_checkpoint(MagicMock(), 3)
    assert mock_save.call_args[0][1] == "checkpoint.pt"
