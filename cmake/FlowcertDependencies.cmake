# Every dependency is a Debian 12 package; scripts/install-deps installs them.
find_package(Boost 1.74 REQUIRED)                       # Boost.Interval, Boost.Multiprecision (headers)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)             # dense linear algebra over interval scalars
find_package(PkgConfig REQUIRED)
pkg_check_modules(GMP REQUIRED IMPORTED_TARGET gmp)     # exact rationals (input conversion, test references)
pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET mpfr)   # correctly rounded arithmetic and functions

# MPFI ships no pkg-config file on Debian 12.
find_path(MPFI_INCLUDE_DIR mpfi.h REQUIRED)
find_library(MPFI_LIBRARY mpfi REQUIRED)
add_library(flowcert_mpfi INTERFACE)
target_include_directories(flowcert_mpfi INTERFACE ${MPFI_INCLUDE_DIR})
target_link_libraries(flowcert_mpfi INTERFACE ${MPFI_LIBRARY} PkgConfig::MPFR PkgConfig::GMP)

if(FLOWCERT_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)                       # test framework (v2, single header)
endif()
if(FLOWCERT_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)                         # Google Benchmark
  if(NOT benchmark_FOUND)
    set(FLOWCERT_BUILD_BENCHMARKS OFF)
  endif()
endif()

# MPI scale-out (issue 7; Debian: libopenmpi-dev openmpi-bin): `flowcert certify --mpi`, flowcert::mpi,
# the mpirun tests (label mpi). Optional: everything MPI-specific is compiled only when MPI is found.
option(FLOWCERT_MPI "Build the MPI scale-out when an MPI implementation is found" ON)
set(FLOWCERT_HAVE_MPI OFF)
if(FLOWCERT_MPI)
  set(MPI_CXX_SKIP_MPICXX ON)                           # the C API only (no deprecated C++ bindings)
  find_package(MPI QUIET COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(FLOWCERT_HAVE_MPI ON)
    find_program(FLOWCERT_MPIEXEC NAMES ${MPIEXEC_EXECUTABLE} mpirun mpiexec)
  else()
    message(STATUS "flowcert: MPI not found; building without the MPI scale-out (apt-get install libopenmpi-dev openmpi-bin)")
  endif()
endif()
