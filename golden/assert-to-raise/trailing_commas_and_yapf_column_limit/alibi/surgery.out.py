import torch


def bert_embedding_converter(module: torch.nn.Module, max_sequence_length: int) -> torch.nn.Module:
    if not isinstance(module, (torch.nn.Embedding, torch.nn.EmbeddingBag)):
        raise TypeError('expected isinstance(module, (torch.nn.Embedding, torch.nn.EmbeddingBag))')
    if max_sequence_length <= 0:
        raise ValueError(
            'max_sequence_length must be positive, so that the position ids can be expanded')
    return module


def profile(memory_remote_file_name: str):
    if not memory_remote_file_name.endswith(
        '.html',
    ):
        raise ValueError(
            f'memory_remote_file_name must end with .html, got {memory_remote_file_name} as the remote name',
        )
    if not memory_remote_file_name:
        raise ValueError('memory_remote_file_name must not be empty: give the remote name of the '
                         'memory timeline')
    return memory_remote_file_name
