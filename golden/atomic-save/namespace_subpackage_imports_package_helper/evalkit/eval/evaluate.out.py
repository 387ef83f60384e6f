"""A namespace subpackage (no __init__.py) of evalkit, imported as evalkit.eval.evaluate."""

from evalkit._torchfix_atomic_save import atomic_save
from evalkit.train import save_checkpoint


def convert_and_evaluate(model, out_dir):
    save_checkpoint(model, out_dir / "model.pth")
    atomic_save(model.state_dict(), out_dir / "lit_model.pth")
