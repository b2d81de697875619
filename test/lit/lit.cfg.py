# -*- Python -*-
# lit.cfg.py - the lit test suite of stencilc.
#
# Substitutions:
#   %stencilc         the stencilc built in this tree
#   %stencilc_src     the source tree (e.g. %stencilc_src/docs/diagnostics.md)
#   %python           the Python that runs lit
#   %mock_include     test/lit/Inputs/include: a mock DSL header (no system or CUDA headers)
#   %runtime_include  runtime/include: the real runtime headers
#   %nvcc             nvcc with -std=c++17 and this build's architecture (feature `nvcc`)
# FileCheck, not, count and split-file come first on PATH from LLVM 16.
import os
import sys

import lit.formats

config.name = "stencilc"
# The internal shell, as LLVM uses: portable, and it reports which command failed.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "README.md", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

if not hasattr(config, "stencilc_obj_root"):
    lit_config.fatal("run lit on the build tree (<build>/test/lit), which holds lit.site.cfg.py")
config.test_exec_root = os.path.join(config.stencilc_obj_root, "test", "lit")

src = config.stencilc_src_root
# Longer names first: lit substitutes in order, and %stencilc is a prefix of %stencilc_src.
config.substitutions.append(("%stencilc_src", src))
config.substitutions.append(("%stencilc", config.stencilc_path))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%mock_include", os.path.join(src, "test", "lit", "Inputs", "include")))
config.substitutions.append(("%runtime_include", os.path.join(src, "runtime", "include")))

if config.nvcc_path:
    arch = (config.cuda_architectures or "90").split(";")[0].split("-")[0]
    config.available_features.add("nvcc")
    config.substitutions.append(
        ("%nvcc", '"%s" -std=c++17 -arch=sm_%s' % (config.nvcc_path, arch)))

# The LLVM 16 tools (FileCheck, not, count) are not on PATH on Debian.
for tool in ("FileCheck", "not", "count"):
    if not os.path.exists(os.path.join(config.llvm_tools_dir, tool)):
        lit_config.fatal("%s not found in %s (install llvm-16-tools)" % (tool, config.llvm_tools_dir))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Stable diagnostics: no colours, C locale.
config.environment["LC_ALL"] = "C"
config.environment["TERM"] = "dumb"
