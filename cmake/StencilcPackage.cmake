# Package export (being written).
