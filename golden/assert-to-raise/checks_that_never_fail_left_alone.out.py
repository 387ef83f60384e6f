# golden-args: --unsafe-fixes
def parse_bucket(s, parts):
    assert s.index("s3://") >= 0
    assert len(parts) >= 0, "parts is a list"
    assert 0 <= len(parts)
    if not (s.find("s3://") >= 0):
        raise ValueError("not an s3 path")
    if len(parts) < 1:
        raise ValueError("at least one part")
    return s, parts
