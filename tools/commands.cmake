# Extra link requirements of flowcert's commands (included by tools/CMakeLists.txt).
# MPI scale-out (issue 7): `flowcert certify --mpi` and `flowcert flow-mpi`, only when MPI is found.
if(FLOWCERT_HAVE_MPI)
  target_sources(flowcert PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/certify_mpi.cpp)
  target_compile_definitions(flowcert PRIVATE FLOWCERT_HAVE_MPI=1)
  target_link_libraries(flowcert PRIVATE MPI::MPI_CXX)
endif()
