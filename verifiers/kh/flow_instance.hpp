// verifiers/kh/flow_instance.hpp -- the instance of a kh/* case whose gradient flow is integrated (kh/first_saddle,
// kh/theorem10_escape): explicit data, the architecture, the loss (square normalizations or logistic), the NCF in
// intervals and in double, and the loss-flow field with its parameters. Local to verifiers/kh; case keys -> the
// library's instance description, no mathematics.
#pragma once

#include <flowcert/cert.hpp>
#include <flowcert/linalg.hpp>
#include <flowcert/nets.hpp>
#include <flowcert/proofs/kh/first_saddle.hpp>

#include <functional>
#include <string>
#include <vector>

#include "kh_case_inputs.hpp"

namespace khcase {

struct FlowInstance {
    flowcert::nets::HomogeneousArchitecture arch;
    int d = 0, n = 0, P = 0, L = 2;
    bool logistic = false;  // loss = "logistic": sum ln(1 + exp(-y_i H_i))
    flowcert::nets::SquareLossNormalization norm;
    flowcert::nets::Mat<flowcert::IntervalD> X;
    flowcert::nets::Vec<flowcert::IntervalD> y, ytilde;
    flowcert::nets::HomogeneousModel<flowcert::IntervalD> hm;
    flowcert::nets::Ncf<flowcert::IntervalD> ncf;
    flowcert::nets::Ncf<double> ncf_d;
    flowcert::taylor::VectorField field;  // w' = -grad L(w) [KH2025, eq. (2)]
    std::vector<flowcert::IntervalD> params;
};

// `inputs`, `targets` (read_explicit_data at 53 bits), the architecture on inputs of dimension d, and `loss`.
inline FlowInstance read_flow_instance(const flowcert::cert::Case& in,
                                       const std::function<flowcert::nets::HomogeneousArchitecture(int d)>& architecture) {
    using namespace flowcert::nets;
    using flowcert::IntervalD;
    namespace la = flowcert::linalg;
    const CaseData<IntervalD> data = read_explicit_data<IntervalD>(in, 53);
    const int n = static_cast<int>(data.X.cols()), d = static_cast<int>(data.X.rows());
    const HomogeneousArchitecture arch = architecture(d);
    const bool logistic = in.string("loss") == "logistic";
    const SquareLossNormalization norm = parse_loss(in.string("loss"));
    // ytilde = -l'(0, y): 2c y for c (p - y)^2 [KH2025, App. E]; y/2 for ln(1 + exp(-p y)).
    const Vec<IntervalD> yt =
        logistic ? flowcert::proofs::kh::logistic_ncf_weights(data.y) : ncf_weights<IntervalD>(data.y, norm);
    const HomogeneousModel<IntervalD> hm(arch, data.X);
    return {.arch = arch, .d = d, .n = n, .P = arch.parameter_count(), .L = arch.homogeneity_order(),
            .logistic = logistic, .norm = norm, .X = data.X, .y = data.y, .ytilde = yt, .hm = hm,
            .ncf = Ncf<IntervalD>(hm, yt),
            .ncf_d = Ncf<double>(HomogeneousModel<double>(arch, data.Xd), la::mid<IntervalD>(la::IVector<IntervalD>(yt))),
            .field = logistic ? logistic_loss_flow_field(arch, n) : homogeneous_loss_flow_field(arch, n, norm),
            .params = homogeneous_flow_parameters<IntervalD>(data.X, data.y)};
}

}  // namespace khcase
