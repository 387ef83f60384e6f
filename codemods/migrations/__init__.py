"""Codemods that move code to the APIs of torch 2.x."""
