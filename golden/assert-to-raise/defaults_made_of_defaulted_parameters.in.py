# golden-args: --unsafe-fixes
# A parameter whose default is made of another parameter that itself got a default
# (voicefixer's stft, round 21: `win_length = n_fft`, then `hop_length = int(win_length //
# 4)`) still holds the caller's value or one made of the caller's values: both checks
# below are input checks, converted together, not one of the pair left as an invariant.
import torch


def istft(stft_matrix, n_fft, hop_length=None, win_length=None):
    if win_length is None:
        win_length = n_fft
    if hop_length is None:
        hop_length = int(win_length // 4)
    assert 0 < hop_length <= win_length
    assert 0 < win_length <= n_fft
    return torch.istft(stft_matrix, n_fft, hop_length, win_length)
