# lit configuration of the pass tests (paths come from lit.site.cfg.py).
import os

import lit.formats

config.name = "coz-pass"
# External shell: tests use $(...) to pass generated options.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

plugin = config.coz_plugin
inputs = os.path.join(config.test_source_root, "Inputs")
cflags = "-g -I%s -I%s -pthread" % (config.coz_include, inputs)

config.substitutions.append(("%clangxx", "%s %s" % (config.coz_clangxx, cflags)))
config.substitutions.append(("%clang", "%s %s" % (config.coz_clang, cflags)))
# Plain opt, to shape the IR before the pass (opt's own -passes cannot be
# given twice).
config.substitutions.append(("%opt-plain", "%s -S" % config.coz_opt))
config.substitutions.append(
    ("%opt-coz", "%s -load-pass-plugin=%s -passes=coz-instrument -S"
     % (config.coz_opt, plugin)))
# IR straight from the front end, as the pass sees it at the pipeline start.
config.substitutions.append(("%frontend-ir", "-S -emit-llvm -O2 -Xclang -disable-llvm-passes"))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("FileCheck", config.coz_filecheck))
config.substitutions.append(("%not", config.coz_not))
config.substitutions.append(("%count", os.path.join(os.path.dirname(config.coz_not), "count")))

if config.coz_have_driver:
    config.available_features.add("coz-driver")
    config.substitutions.append(("%coz-cc", "%s -g -I%s" % (config.coz_cc, inputs)))

# Checks that differ between typed (LLVM 14) and opaque (19) pointers.
config.available_features.add("llvm%s" % config.coz_llvm_major)

# COZ_PASS_ARGS is set by each test; never inherit one from the caller.
config.environment.pop("COZ_PASS_ARGS", None)
config.environment["PATH"] = os.environ.get("PATH", "")
