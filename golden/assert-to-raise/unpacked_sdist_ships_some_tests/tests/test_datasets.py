def test_dataset_length():
    assert len([1, 2, 3]) == 3
