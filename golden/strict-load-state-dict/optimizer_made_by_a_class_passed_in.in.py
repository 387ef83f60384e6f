# golden-args: --unsafe-fixes
class Learner:
    """The classes come in as arguments (sample-factory's learner): only the attribute's
    name says what it holds. An optimizer, a scheduler or a scaler takes no `strict`."""

    def __init__(self, model_cls, optimizer_cls, scheduler_cls, scaler_cls, params):
        self.actor_critic = model_cls()
        self.optimizer = optimizer_cls(params, lr=1e-3)
        self.lr_scheduler = scheduler_cls(self.optimizer)
        self.grad_scaler = scaler_cls()

    def load(self, checkpoint_dict):
        self.actor_critic.load_state_dict(checkpoint_dict["model"])
        self.optimizer.load_state_dict(checkpoint_dict["optimizer"])
        self.lr_scheduler.load_state_dict(checkpoint_dict["scheduler"])
        self.grad_scaler.load_state_dict(checkpoint_dict["scaler"])
