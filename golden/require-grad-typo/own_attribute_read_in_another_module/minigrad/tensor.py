# mtorch (round 49): a NumPy autograd library's own Tensor keeps `require_grad`, and its
# Module reads it in another module. The assignment is the library's attribute, not the
# typo of torch's flag: reported, not renamed.
import numpy as np


class Tensor:
    def __init__(self, data, require_grad=False):
        self.data = np.asarray(data)
        self.grad = None
        self.require_grad = require_grad
