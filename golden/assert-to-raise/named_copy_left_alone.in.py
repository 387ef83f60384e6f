# golden-args: --unsafe-fixes
"""Logger copied from OpenAI baselines to avoid extra RL-based dependencies:

https://github.com/openai/baselines/blob/master/baselines/logger.py
"""
import json


class JSONOutputFormat:
    def __init__(self, filename: str):
        self.file = open(filename, "w")

    def writekvs(self, kvs: dict) -> None:
        assert isinstance(kvs, dict), "expected a dict of values"
        for key, value in sorted(kvs.items()):
            self.file.write(json.dumps({key: float(value)}) + "\n")
