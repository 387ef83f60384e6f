from torch.optim.lr_scheduler import ExponentialLR, StepLR


def schedulers(optimizer, args, trainer):
    loud = StepLR(optimizer, step_size=30, verbose=True)
    configured = ExponentialLR(optimizer, gamma=0.99, verbose=args.verbose)
    trainer.fit(verbose=False)  # not a torch scheduler
    return loud, configured
