import torch


def bert_embedding_converter(module: torch.nn.Module, max_sequence_length: int) -> torch.nn.Module:
    assert isinstance(module, (torch.nn.Embedding, torch.nn.EmbeddingBag))
    assert max_sequence_length > 0, 'max_sequence_length must be positive, so that the position ids can be expanded'
    return module


def profile(memory_remote_file_name: str):
    assert memory_remote_file_name.endswith(
        '.html',
    ), f'memory_remote_file_name must end with .html, got {memory_remote_file_name} as the remote name'
    assert memory_remote_file_name, (
        'memory_remote_file_name must not be empty: give the remote name of the memory timeline'
    )
    return memory_remote_file_name
