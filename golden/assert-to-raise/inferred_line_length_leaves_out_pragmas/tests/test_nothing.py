def test_nothing():
    pass
