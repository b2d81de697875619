# stencilc_add_sources (being written).
