import torch
import torch.utils.checkpoint


def run_layer(decoder_layer, hidden_states, attention_mask, encoder_states):
    return torch.utils.checkpoint.checkpoint(
        decoder_layer,
        hidden_states,
        attention_mask,
        encoder_states,
        None,  # past_key_value
        use_reentrant=True,
    )
