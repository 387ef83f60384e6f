"""Codemods about numerical stability: values that overflow to inf or turn NaN."""
