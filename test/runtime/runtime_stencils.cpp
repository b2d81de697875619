// runtime_stencils.cpp - the DSL source stencilc translates for RuntimeTests.
#include "runtime_stencils.hpp"
