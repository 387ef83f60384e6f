import torch


def log_gpu_memory(writer, step):
    try:
        writer.add_scalar("gpu/allocated", torch.cuda.memory_allocated(), step)
    except Exception:
        pass


def register_envs(gym):
    try:
        import ale_py
        gym.register_envs(ale_py)
    except:
        pass  # ale_py not available or already registered
