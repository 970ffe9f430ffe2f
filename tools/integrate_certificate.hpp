// tools/integrate_certificate.hpp -- the certificate of `flowcert integrate --certificate FILE`
// (docs/certificate-format.md, "Integration certificates"): the problem's arguments, the claimed
// enclosures, and one record of hints per step, all numbers exact (C99 hex floats). Reading
// gives the records for ode::revalidate; `flowcert check` does the rest (integrate_cli.cpp).
#pragma once

#include <flowcert/ode.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "integrate_output.hpp"

namespace flowcert::tools {

inline constexpr const char* kIntegrateCertificateFormat = "flowcert-integrate-certificate";

std::string integrate_certificate(const Run<IntervalD>& run, const std::vector<std::string>& arguments);

// What a certificate states, read back exactly; `problem` names the first field that is not
// well formed (then the function returns false).
struct IntegrateClaim {
    std::vector<std::string> arguments;
    std::vector<std::string> variables;
    std::string time;
    std::vector<IntervalD> final_box;
    std::vector<std::string> output_times;
    std::vector<std::vector<IntervalD>> outputs;
    std::vector<ode::StepRecord<IntervalD>> records;
    std::vector<int> output_records;
    int final_record = -1;
};
bool read_integrate_certificate(const nlohmann::json& j, IntegrateClaim& claim, std::string& problem);

}  // namespace flowcert::tools
