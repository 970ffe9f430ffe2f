# flowcert_add_verifier(<paper> <name> SOURCES src... [LIBS lib...])
#
# Builds target <paper>_<name> from the sources, linked to flowcert::cert (and LIBS), with
# its executable at ${CMAKE_BINARY_DIR}/verifiers/<paper>/<name>: where `flowcert certify`
# looks for the verifier named by a case's `verifier = "<paper>/<name>"`.
function(flowcert_add_verifier paper name)
  cmake_parse_arguments(V "" "" "SOURCES;LIBS" ${ARGN})
  if(NOT V_SOURCES)
    message(FATAL_ERROR "flowcert_add_verifier(${paper} ${name}): SOURCES is required")
  endif()
  set(target ${paper}_${name})
  add_executable(${target} ${V_SOURCES})
  target_link_libraries(${target} PRIVATE flowcert::cert ${V_LIBS})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${name}
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/verifiers/${paper})
  set_property(GLOBAL APPEND PROPERTY FLOWCERT_VERIFIER_TARGETS ${target})
endfunction()
