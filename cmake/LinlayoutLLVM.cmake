# LLVM 19 for lower/ (and the fuzz build's copy of it): finds it, and names in LINLAYOUT_LLVM_LIBS
# the static libraries of the NVPTX code generator and what it needs. Sets LINLAYOUT_LLVM_FOUND.
# LLVM's version file accepts a request only when major and minor match, so ask for no version
# and check the major one.
set(LINLAYOUT_LLVM_FOUND OFF)
find_package(LLVM CONFIG QUIET PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_FOUND)
  find_package(LLVM CONFIG QUIET)
endif()
if(LLVM_FOUND AND LLVM_VERSION_MAJOR EQUAL 19)
  set(LINLAYOUT_LLVM_FOUND ON)
  llvm_map_components_to_libnames(LINLAYOUT_LLVM_LIBS
    nvptxcodegen nvptxdesc nvptxinfo passes core target support mc asmprinter)
  # LLVMSupport drags in libz3.so for a solver we never call; dropping it keeps the tools
  # portable.
  get_target_property(_llvm_support_deps LLVMSupport INTERFACE_LINK_LIBRARIES)
  if(_llvm_support_deps)
    list(FILTER _llvm_support_deps EXCLUDE REGEX "z3")
    set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${_llvm_support_deps}")
  endif()
endif()
