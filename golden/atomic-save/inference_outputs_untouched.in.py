"""Predictions and embeddings written per input file are made again by re-running the
model on the file: a crash costs a re-run, not a checkpoint. Left alone."""

import torch


def predict_from_file_to_file(audio_file, output_pitch_file, output_periodicity_file=None,
                              model="full"):
    prediction = predict_from_file(audio_file, model)  # `model` is an argument, not saved
    if output_periodicity_file is not None:
        torch.save(prediction[0].detach(), output_pitch_file)
        torch.save(prediction[1].detach(), output_periodicity_file)
    else:
        torch.save(prediction.detach(), output_pitch_file)


def embed_from_file_to_file(audio_file, output_file, model="full"):
    with torch.no_grad():
        embedding = embed_from_file(audio_file, model)
        torch.save(embedding.detach(), output_file)


def infer_batch(model, files, out_dir):
    for name in files:
        audio = load_audio(name)
        logits = model(audio)
        torch.save(logits.cpu(), f"{out_dir}/{name}.pt")


def spectrogram_to_file(wav_file, out_file):
    pitch, periodicity = predict_from_file(wav_file), None
    torch.save((pitch.detach(), periodicity), out_file)


def predict_from_file(audio_file, model="full"):
    return torch.zeros(1)


def embed_from_file(audio_file, model="full"):
    return torch.zeros(1)


def load_audio(name):
    return torch.zeros(1)
