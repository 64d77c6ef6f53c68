"""Cards from pixels: frame sources, the mat, detection, identification, tracking."""
