// flowcert/cert.hpp -- the certificate layer: verdicts, claims, checks, reports (JSON, HTML
// with SVG plots, Markdown), case files (TOML) and verifier_main, the shared verifier CLI.
// See docs/writing-a-verifier.md and docs/certificate-format.md.
#pragma once

#include <flowcert/interval.hpp>

#define FLOWCERT_CERT_INTERNAL
#include "cert/verdict.hpp"
#include "cert/check.hpp"
#include "cert/plot.hpp"
#include "cert/provenance.hpp"
#include "cert/report.hpp"
#include "cert/case.hpp"
#include "cert/npy.hpp"
#include "cert/certificate.hpp"
#include "cert/glance.hpp"
#include "cert/progress.hpp"
#include "cert/verifier_main.hpp"
#include "cert/statistics.hpp"
#undef FLOWCERT_CERT_INTERNAL
