class SomeOf:
    def __init__(self, num_transforms, transforms):
        if isinstance(num_transforms, tuple):
            self.min_num_transforms = num_transforms[0]
        else:
            self.min_num_transforms = self.max_num_transforms = num_transforms
        # fields stored from the caller's values: input checks like their neighbours
        assert self.min_num_transforms >= 1, "min_num_transforms must be >= 1"
        assert len(transforms) >= 1, "transforms must not be empty"


class Buffer:
    def __init__(self, size):
        self.size = size
        self.filled = self.compute_fill()  # the object's own result: an invariant
        assert self.filled <= self.size
        self.count = size
        self.count += 1  # changed after it was stored: not the caller's value as passed
        assert self.count > 1

    def compute_fill(self):
        return 0
