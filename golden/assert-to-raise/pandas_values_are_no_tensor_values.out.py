# golden-args: --unsafe-fixes
# py-tgb (round 30): `df.u.max()` reads a pandas column in a module that never imports
# torch: no device sync to keep, and the message must not claim one.
import pandas as pd


def reindex_edgelist(df: pd.DataFrame, bipartite: bool = True) -> pd.DataFrame:
    if bipartite:
        if df.u.max() - df.u.min() + 1 != len(df.u.unique()):
            raise ValueError(
                "expected df.u.max() - df.u.min() + 1 == len(df.u.unique())"
            )
    return df.copy()
