# golden-args: --unsafe-fixes
"""A call aligned with its opening bracket stays aligned once `torch.save(` is renamed
(modelscope's team trainer, round 32: its flake8 selects E128); lines that hang from the
statement, as a dict's do in `torch.save({`, stay where they are (deeppavlov, round 33)."""

import os

import torch


class Trainer:
    def train(self, epochs):
        for epoch in range(epochs):
            os.makedirs(self.ckpt_dir, exist_ok=True)
            torch.save(self.model.state_dict(),
                       '{}/epoch{}.pth'.format(self.ckpt_dir, epoch))
            torch.save({'model': self.model.state_dict(),
                        'epoch': epoch},
                       os.path.join(self.ckpt_dir, 'last.pth'))
            torch.save({
                'model': self.model.state_dict(),
                'epoch': epoch,
            }, os.path.join(self.ckpt_dir, 'last.pth'))
