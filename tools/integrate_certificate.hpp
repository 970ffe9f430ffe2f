// tools/integrate_certificate.hpp -- the certificate of `flowcert integrate --certificate FILE`
// (docs/certificate-format.md, "Integration certificates"): the problem's arguments, the claimed
// enclosures and switching events, one record of hints per step (with --tube its tube pieces),
// all numbers exact (C99 hex floats; MPFR's %Ra at the run's precision). Reading gives the
// records and claims for ode::revalidate; `flowcert check` does the rest (integrate_cli.cpp).
#pragma once

#include <flowcert/ode.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "integrate_output.hpp"

namespace flowcert::tools {

inline constexpr const char* kIntegrateCertificateFormat = "flowcert-integrate-certificate";
inline constexpr int kIntegrateCertificateVersion = 2;

// `tube`: store the tube pieces of every step (the run recorded them).
template <Interval I>
std::string integrate_certificate(const Run<I>& run, const std::vector<std::string>& arguments, bool tube);

// The recorded arguments alone (read first: they give the precision of every other number).
bool read_certificate_arguments(const nlohmann::json& j, std::vector<std::string>& arguments, std::string& problem);

// What a certificate states, read back exactly at `bits` (53: doubles); `problem` names the
// first field that is not well formed (then the function returns false). Event times and
// directions are in the integration time (s = -t backward), as the records.
template <Interval I>
struct IntegrateClaim {
    std::vector<std::string> arguments;
    std::vector<std::string> variables;
    std::string time;
    std::vector<I> final_box;
    std::vector<std::string> output_times;
    std::vector<std::vector<I>> outputs;
    std::vector<ode::SwitchEvent<I>> events;  // argument: the relu's argument if "expression" names it, else -1
    std::vector<std::vector<ode::SwitchEvent<I>>> output_events;  // per output (Snapshot::events)
    std::vector<ode::StepRecord<I>> records;
    std::vector<int> output_records;
    int final_record = -1;
    bool has_tube = false;
    std::vector<std::vector<ode::TubePiece<I>>> tube;  // per record (with has_tube)
};
template <Interval I>
bool read_integrate_certificate(const nlohmann::json& j, const taylor::VectorField& field, bool backward, long bits,
                                IntegrateClaim<I>& claim, std::string& problem);

}  // namespace flowcert::tools
