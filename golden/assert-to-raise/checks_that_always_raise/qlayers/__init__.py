from .bag import QEmbeddingBag
from .binary import BinaryEmbeddingBag
from .patches import PatchEmbedding, Perturber
