def checkpoint_path(folder, epoch):
    return f"{folder}/checkpoint.pth"
