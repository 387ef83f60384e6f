# golden-args: --unsafe-fixes
# rraestorch (round 51): the file's first function is indented by 8 spaces and every
# other block by 4. libcst takes the first block's step for the whole module; the new
# `if` blocks take the step most blocks take.
def eval_with_batches(
        x,
        batch_size,
    ):
        return [x[i:i + batch_size] for i in range(0, len(x), batch_size)]


class Encoder:
    def __init__(self, out, mlp_width=None, mlp_depth=0):
        if mlp_depth != 0:
            if mlp_width is not None:
                assert mlp_width >= out, "Choose a bigger (or equal) MLP width."
            else:
                mlp_width = out
        self.mlp_width = mlp_width
