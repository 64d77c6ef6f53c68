"""Cards from pixels: frame sources, the mat and calibration, detection, identification, tracking."""
