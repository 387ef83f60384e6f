def load(path, strict):
    assert (path, "a tuple is always true: this checks nothing")
    assert "neither does a string"
    assert True
    return path, strict
