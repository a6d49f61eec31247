# The linker (AIFABRIC_LLD): lld, Debian's LLVM linker, when the compiler
# can link with it (scripts/setup.sh installs it for the tests), else the
# compiler's default (GNU ld). The test and fuzz binaries each link most of
# the libraries, and lld is LLVM's faster linker (how much faster here is
# not yet measured: docs/reliability.md, "Build time"); the binaries do the
# same either way.
include(CheckLinkerFlag)
option(AIFABRIC_LLD "Link with lld when the compiler can use it" ON)
if(AIFABRIC_LLD)
  check_linker_flag(CXX -fuse-ld=lld AIFABRIC_HAVE_LLD)
  if(AIFABRIC_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
