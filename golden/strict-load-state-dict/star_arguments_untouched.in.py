def load(model, ckpt, *args, **kwargs):
    model.load_state_dict(ckpt, *args)
    model.load_state_dict(ckpt, **kwargs)
