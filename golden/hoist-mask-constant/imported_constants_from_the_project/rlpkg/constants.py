"""Numbers shared by the policies and the losses."""
import math

# Fits float16, bfloat16 and float32 exactly: safe as a fill value for any of them.
MASKED_LOGIT_VALUE = -1e4
# Beyond float16: a float16 constant tensor holds -inf, a scalar fill would raise.
LARGE_NEGATIVE = -1e9
# Not a number written out: its value is not read from here.
INVALID_LOGIT = -math.inf
