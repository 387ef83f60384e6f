import tensorflow as tf
import torch


def compare(tf_logits, torch_model, inputs):
    expected = tf_logits.cpu().numpy()
    actual = torch_model(torch.from_numpy(inputs.numpy()))
    return expected, actual
