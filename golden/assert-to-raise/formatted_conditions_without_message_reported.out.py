# golden-args: --unsafe-fixes
# A message generated from a condition that holds an f-string would show its fields as
# written (`{model_path}`), a formatting bug to whoever reads it: reported, not fixed.
# With a message of its own, the assert is converted as usual.
from pathlib import Path


def load_pretrained(model_path: str) -> Path:
    assert Path(f"{model_path}/config.json").exists() or Path(f"{model_path}/model.bin").exists()
    if not Path(f"{model_path}/vocab.txt").exists():
        raise FileNotFoundError(f"no vocabulary in {model_path}")
    return Path(model_path)
