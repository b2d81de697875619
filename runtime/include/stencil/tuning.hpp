// stencil/tuning.hpp - the auto-tuner's logic, without CUDA, in one include:
// the candidates and their text form (tuning_candidate.hpp), the search
// space and its pruning (tuning_search_space.hpp), the online search
// (tuning_online_search.hpp) and the persistent cache (tuning_cache.hpp,
// over tuning_cache_file.hpp). The engine (stencil/autotuning_engine.hpp)
// injects the kernels' attributes, the timings and the launches, so all of
// this runs and is tested on machines without a GPU. docs/tuning.md
// explains the choices.
#ifndef STENCIL_TUNING_HPP
#define STENCIL_TUNING_HPP

#include <stencil/tuning_cache.hpp>
#include <stencil/tuning_cache_file.hpp>
#include <stencil/tuning_candidate.hpp>
#include <stencil/tuning_online_search.hpp>
#include <stencil/tuning_search_space.hpp>

#endif // STENCIL_TUNING_HPP
