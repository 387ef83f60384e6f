import torch
import torchvision


def resume(path, num_classes, device):
    model = torchvision.models.resnet50(num_classes=num_classes).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30)
    scaler = torch.amp.GradScaler("cuda")
    ckpt = torch.load(path, map_location=device)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    lr_scheduler.load_state_dict(ckpt["lr_scheduler"])
    scaler.load_state_dict(ckpt["scaler"])
    return model, optimizer, lr_scheduler, scaler, ckpt["epoch"] + 1
