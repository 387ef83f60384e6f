import torch


def convert_zero_checkpoint_to_state_dict(checkpoint_dir, output_file, dtype):
    state_dict = get_state_dict_from_zero_checkpoint(checkpoint_dir, dtype)
    print(f"Saving {dtype} state dict to {output_file}")
    torch.save(state_dict, output_file)


def get_state_dict_from_zero_checkpoint(checkpoint_dir, dtype):
    return {}
