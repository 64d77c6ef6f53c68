"""Training the corner reader (vision/corners.py) from many card designs; run as
`python -m vision.training --help`. Training only: nothing here is imported at run time.

- designs.py: the card designs (Debian's kdegames decks, npm decks, fonts drawn as corners)
  as faces with their labels, split by design into train / calibration / evaluation;
- camera.py: a face as the camera and the outline finder deliver it (damage);
- model.py: the small network, its training in JAX, and its export to ONNX.
"""
