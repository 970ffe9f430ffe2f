// The umbrella header of the nets layer compiles on its own and brings every public nets header
// (lib/flowcert/nets.hpp): this file includes nothing else, and names one type or function of each
// header, so a header dropped from the umbrella breaks this build.
#include <flowcert/nets.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

using namespace flowcert::nets;

TEST_CASE("flowcert/nets.hpp alone declares the public types of every nets header", "[nets][umbrella]") {
    STATIC_REQUIRE(std::is_class_v<RandomStream>);             // random.hpp
    STATIC_REQUIRE(std::is_class_v<TwoLayerSpec>);             // two_layer.hpp
    STATIC_REQUIRE(std::is_class_v<AlignmentData>);            // alignment.hpp
    STATIC_REQUIRE(std::is_class_v<FlowOptions>);              // two_layer_flow.hpp
    STATIC_REQUIRE(std::is_class_v<GdOptions>);                // two_layer_gd.hpp
    STATIC_REQUIRE(std::is_class_v<LumpedGdOptions>);          // lumped_gd.hpp
    STATIC_REQUIRE(std::is_class_v<HomogeneousArchitecture>);  // homogeneous.hpp
    STATIC_REQUIRE(std::is_class_v<SquareNetGdOptions>);       // square_net_gd.hpp
    STATIC_REQUIRE(std::is_class_v<SquareNetFlowOptions>);     // square_net_flow.hpp
    STATIC_REQUIRE(std::is_class_v<rh::Reconstruction>);       // relu_regression.hpp
    // lumped_moments.hpp and homogeneous_flow.hpp declare functions, no type
    STATIC_REQUIRE(std::is_function_v<decltype(moment_size)>);
    STATIC_REQUIRE(std::is_function_v<decltype(ncf_flow_field)>);
}
