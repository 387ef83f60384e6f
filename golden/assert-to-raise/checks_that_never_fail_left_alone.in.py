# golden-args: --unsafe-fixes
def parse_bucket(s, parts):
    assert s.index("s3://") >= 0
    assert len(parts) >= 0, "parts is a list"
    assert 0 <= len(parts)
    assert s.find("s3://") >= 0, "not an s3 path"
    assert len(parts) >= 1, "at least one part"
    return s, parts
