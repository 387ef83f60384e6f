def loss_labels(outputs: dict, targets: list):
    assert "pred_logits" in outputs
    src_logits = outputs["pred_logits"]
    return src_logits, targets


def loss_boxes(outputs: dict, key: str):
    assert key in outputs, f"missing {key}"
    boxes = outputs[key].flatten()
    return boxes


def loss_masks(outputs: dict):
    assert "pred_masks" in outputs  # read two lines later, always: KeyError names it too
    count = len(outputs)
    return outputs["pred_masks"], count


def download(alg: str, model_type: str, models: dict):
    assert alg in models, "no models for " + alg  # the next assert is a check too
    assert model_type in models[alg], "unknown model type"
    return models[alg][model_type]


def loss_keypoints(outputs: dict, targets: list):
    assert "pred_keypoints" in outputs
    if targets and "valid" in targets[0]:
        raise NotImplementedError("padded targets")
    return outputs["pred_keypoints"]


def loss_cardinality(outputs: dict, targets: list):
    if "pred_logits" not in outputs:
        raise ValueError("the model gives no logits")
    if not targets:
        return 0  # may leave before the read: the check stays a check
    return outputs["pred_logits"].argmax(-1)


def loss_aux(outputs: dict):
    if "aux" not in outputs:
        raise ValueError("no auxiliary outputs")
    first = outputs.get("main") or outputs["aux"]  # read only if `main` is missing
    return first
