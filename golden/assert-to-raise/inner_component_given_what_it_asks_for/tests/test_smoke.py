def test_smoke():
    pass
