import torch

from rlpkg.agents import DQNAgent


def test_resume_round_trip(tmp_path):
    agent = DQNAgent(4, 2)
    clone = DQNAgent(4, 2)
    clone.load_state_dict(agent.state_dict())
    for a, b in zip(agent.parameters(), clone.parameters()):
        assert torch.equal(a, b)
