"""Contamination-resistant twins of FinQA-TW and ConvFinQA-TW (docs/TWINS.md): the same questions over
tables whose numbers are perturbed, with the gold recomputed by the program executor. Imports only low
layers (schema, records, prompts, the program executor)."""
