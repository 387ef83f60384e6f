import torch


def gpu_name():
    try:
        return torch.cuda.get_device_name(0)
    except Exception:
        pass
    return "cpu"


def register_envs(gym):
    try:
        import ale_py
        gym.register_envs(ale_py)
    except:
        pass  # ale_py not available or already registered
