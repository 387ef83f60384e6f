"""Its one relative import is inside a function: still the module's convention."""

from audiolib._torchfix_atomic_save import atomic_save


def train(model, optimizer, steps, path):
    from .trainers.gan import GanTrainer

    trainer = GanTrainer(model)
    for _ in range(steps):
        optimizer.step()
        atomic_save({"trainer": trainer.state_dict()}, path)


def run_train(model, optimizer, steps, path):
    train(model, optimizer, steps, path)
