from typing import Any


def blend_weights(first_weight, second_weight, third_weight, fourth_weight, fifth_weight, sixth_weight_value):
    total_weight_of_everything = first_weight + second_weight + third_weight + fourth_weight + fifth_weight
    scaled_weight_of_everything = total_weight_of_everything * sixth_weight_value + first_weight * second_weight
    shifted_weight_of_everything = scaled_weight_of_everything - total_weight_of_everything + third_weight * 2
    mixed_weight_of_everything = shifted_weight_of_everything + scaled_weight_of_everything * fourth_weight - 1
    final_weight_of_everything = mixed_weight_of_everything / (shifted_weight_of_everything + fifth_weight + 1)
    return final_weight_of_everything


def load_weights(state: dict[str, Any], prefix: str, *args: Any, **kwargs: Any) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {key[len(prefix):]: value for key, value in state.items() if key.startswith(prefix)}  # type: ignore[misc]
