// Tests of verifiers/kh/kh_case_inputs.hpp, the case-file conversions shared by the kh/* verifiers. The
// activation names once had two parsers that disagreed on "relu" (kh/theorem18_sparsity's turned it into
// max(z, 0)^p and any unknown name into max(z, 0)^p too); these tests pin the one shared meaning.
#include <catch2/catch.hpp>

#include "../../verifiers/kh/kh_case_inputs.hpp"

#include <stdexcept>

using namespace flowcert::nets;
using khcase::parse_activation;

TEST_CASE("parse_activation gives every case-file name its own activation, degree and homogeneity order", "[kh][case]") {
    struct Want {
        const char* name;
        long long power;
        HomActivationKind kind;
        int degree;
        int order_one_hidden;  // homogeneity order 1 + p of v^T s(W x) [KH2025, eq. (9)]
    };
    for (const Want& w : {Want{"square", 7, HomActivationKind::square, 2, 3}, Want{"linear", 7, HomActivationKind::linear, 1, 2},
                          Want{"relu", 2, HomActivationKind::relu, 1, 2}, Want{"relu", 3, HomActivationKind::relu, 1, 2},
                          Want{"relu_power", 2, HomActivationKind::relu_power, 2, 3},
                          Want{"relu_power", 3, HomActivationKind::relu_power, 3, 4}}) {
        INFO(w.name << ", power " << w.power);
        const HomActivation a = parse_activation(w.name, w.power);
        CHECK(a.kind == w.kind);
        CHECK(a.degree() == w.degree);
        CHECK(HomogeneousArchitecture::feed_forward(2, {3}, a).homogeneity_order() == w.order_one_hidden);
    }
    // plain ReLU: not C^1, so it can never pass for max(z, 0)^2 in a verifier that needs a Lipschitz gradient
    CHECK_FALSE(parse_activation("relu", 2).has_continuous_derivative());
    CHECK(parse_activation("relu_power", 2).has_continuous_derivative());
    CHECK(parse_activation("relu", 2).name() == "relu");
}

TEST_CASE("parse_activation refuses a name it does not know instead of falling back to an activation", "[kh][case]") {
    for (const char* bad : {"", "Relu", "relu2", "tanh", "leaky_relu"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_activation(bad, 2), std::invalid_argument);
    }
}

TEST_CASE("parse_loss reads the four square-loss normalizations and to_ints the integer lists", "[kh][case]") {
    CHECK((!khcase::parse_loss("paper").half && !khcase::parse_loss("paper").mean));
    CHECK((khcase::parse_loss("half").half && !khcase::parse_loss("half").mean));
    CHECK((!khcase::parse_loss("mean").half && khcase::parse_loss("mean").mean));
    CHECK((khcase::parse_loss("half_mean").half && khcase::parse_loss("half_mean").mean));
    CHECK(khcase::to_ints({"3", "-1", "20"}) == std::vector<int>{3, -1, 20});
}
