def loss_labels(outputs: dict, targets: list):
    assert "pred_logits" in outputs
    src_logits = outputs["pred_logits"]
    return src_logits, targets


def loss_boxes(outputs: dict, key: str):
    assert key in outputs, f"missing {key}"
    boxes = outputs[key].flatten()
    return boxes


def loss_masks(outputs: dict):
    if "pred_masks" not in outputs:  # read later, not right after: the check stays a check
        raise ValueError('expected "pred_masks" in outputs')
    count = len(outputs)
    return outputs["pred_masks"], count


def download(alg: str, model_type: str, models: dict):
    if alg not in models:  # the next assert is a check too
        raise ValueError("no models for " + alg)
    assert model_type in models[alg], "unknown model type"
    return models[alg][model_type]
