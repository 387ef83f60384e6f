from dataclasses import dataclass


@dataclass
class RunConfig:
    output_dir: str
    keep_last: int = 3
