def load(model, ckpt):
    model.load_state_dict(ckpt["legacy"])  # torchfix: ignore
    model.load_state_dict(ckpt["legacy"])  # torchfix: ignore[strict-load-state-dict]
    model.load_state_dict(
        ckpt["legacy"],
    )  # torchfix: ignore
