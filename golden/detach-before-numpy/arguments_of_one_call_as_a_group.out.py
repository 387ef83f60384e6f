# golden-args: --unsafe-fixes
import torch


def report(model, batch, helper, writer):
    # `outputs` may require grad but `extras` shows nothing: one call's arguments get one
    # treatment, so neither is detached.
    outputs = model(batch)
    extras = helper(batch)
    writer.add(outputs.cpu().numpy(), extras.cpu().numpy())


def report_outputs(model, batch, writer):
    # Both are a model's outputs: both fixed.
    outputs = model(batch)
    hidden = model.encoder(batch)
    writer.add(outputs.cpu().numpy(), hidden.cpu().numpy())


def rebuilt(values, writer):
    # Rebuilt from NumPy: cannot require grad, unless asked to.
    table = torch.as_tensor(values.cpu().numpy().astype("float32"))
    writer.add(table.cpu().numpy())
    trainable = torch.from_numpy(values.numpy()).requires_grad_()
    writer.add(trainable.detach().cpu().numpy())
