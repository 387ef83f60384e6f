"""Codemods about numerical stability: values that overflow to inf or turn NaN, and the
numerically stable forms of common expressions."""
