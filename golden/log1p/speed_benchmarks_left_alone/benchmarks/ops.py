# torchburn (round 48): a speed benchmark's "exp + log" row. log1p there would measure
# another operation, and nothing reads the result: left alone, as are files named
# bench_*.py or *_benchmark.py anywhere. The library's own log(1 + x) is rewritten.
import torch

CASES = [
    ("exp + log", lambda a: torch.exp(torch.abs(a)) + torch.log(torch.abs(a) + 1.0)),
]
