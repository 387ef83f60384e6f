def freeze(backbone):
    for param in backbone.parameters():
        param.requires_grad = False
    backbone.requires_grad_(False)
    return backbone
