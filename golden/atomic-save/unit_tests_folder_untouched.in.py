# golden-args: --unsafe-fixes
# golden-path: ts/torch_handler/unit_tests/models/base_model.py
# torchserve (round 30): a unit-test fixture writing a throwaway state_dict; `unit_tests/`
# holds tests as `tests/` does. Left alone.
import torch


class ArgmaxModel(torch.nn.Module):
    def forward(self, *input):
        return torch.argmax(input[0])


def save_pt_file(filepath):
    model = ArgmaxModel()
    torch.save(model.state_dict(), filepath)
