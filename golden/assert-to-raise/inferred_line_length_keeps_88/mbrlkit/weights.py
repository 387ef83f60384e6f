def blend_weights(first_weight, second_weight, third_weight):
    total_weight = first_weight + second_weight + third_weight
    return total_weight
