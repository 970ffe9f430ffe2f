// The .npy reader against files written by numpy itself (tests/cert/data/npy, made by numpy.save and
// numpy.lib.format.write_array; each X.expected lists the shape and numpy's own float.hex / int values),
// and case keys read from .npy files (issue 18).
#include <catch2/catch.hpp>
#include <flowcert/cert.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace flowcert::cert;
namespace fs = std::filesystem;

namespace {
const fs::path data_dir = fs::path(FLOWCERT_TEST_DATA) / "npy";

// Two exact texts denote the same number: hex floats compared as the doubles they are (numpy writes
// 0 as 0x0.0p+0, C as 0x0p+0), integers as strings.
bool same_number(const std::string& a, const std::string& b) {
    if (a.find("0x") == std::string::npos || b.find("0x") == std::string::npos) return a == b;
    const double x = std::strtod(a.c_str(), nullptr), y = std::strtod(b.c_str(), nullptr);
    return std::memcmp(&x, &y, sizeof x) == 0;
}
}  // namespace

TEST_CASE("the .npy reader gives numpy's exact values for every supported dtype, order and version", "[cert][npy]") {
    for (const char* name : {"f8_c", "f8_fortran", "f8_big", "f4", "i8", "u1", "i2_big", "f8_scalar", "f8_3d",
                             "f8_tenth", "f8_v2"}) {
        INFO(name);
        const NpyArray a = read_npy(data_dir / (std::string(name) + ".npy"));
        std::ifstream exp(data_dir / (std::string(name) + ".expected"));
        std::string line, word;
        std::getline(exp, line);
        std::istringstream shape(line);
        shape >> word;
        std::vector<std::size_t> want;
        for (std::size_t n; shape >> n;) want.push_back(n);
        REQUIRE(a.shape == want);
        std::size_t i = 0;
        while (std::getline(exp, line)) {
            REQUIRE(i < a.values.size());
            INFO(i << ": " << a.values[i] << " vs numpy " << line);
            REQUIRE(same_number(a.values[i], line));
            ++i;
        }
        REQUIRE(i == a.values.size());
    }
}

TEST_CASE("the .npy reader refuses what it cannot read exactly, with the reason", "[cert][npy]") {
    auto message = [](const char* name) {
        try {
            read_npy(data_dir / name);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK_THAT(message("c16.npy"), Catch::Contains("dtype '<c16' is not supported"));
    CHECK_THAT(message("nan.npy"), Catch::Contains("non-finite"));
    CHECK_THAT(message("truncated.npy"), Catch::Contains("truncated"));
    CHECK_THAT(message("f8_c.expected"), Catch::Contains("does not start with"));
    CHECK_THAT(message("no_such_file.npy"), Catch::Contains("cannot open"));
}

TEST_CASE("matrix and numbers keys read .npy files next to the case, exactly, and the digest covers them",
          "[cert][npy][case]") {
    const CaseSchema schema{
        {.name = "x", .type = KeyType::matrix, .description = "inputs"},
        {.name = "y", .type = KeyType::numbers, .description = "labels"},
    };
    const fs::path dir = fs::path(FLOWCERT_TEST_TMP) / "npy_case";
    fs::create_directories(dir);
    fs::copy_file(data_dir / "f8_c.npy", dir / "x.npy", fs::copy_options::overwrite_existing);
    fs::copy_file(data_dir / "f8_tenth.npy", dir / "y.npy", fs::copy_options::overwrite_existing);
    const std::string head = "verifier = \"t\"\nexpect = \"certified\"\n";
    {
        std::ofstream(dir / "c.toml") << head << "x = \"x.npy\"\ny = \"y.npy\"\n";
    }
    const Case c = Case::load(dir / "c.toml", schema);
    const auto x = c.matrix("x");
    REQUIRE(x.size() == 3);
    REQUIRE(x[0].size() == 4);
    REQUIRE(x[0][0] == "-0x1.bab756a234ba9p-2");
    const auto y = c.number_strings("y");
    REQUIRE(y.size() == 4);
    REQUIRE(y[0] == "0x1.999999999999ap-4");
    REQUIRE(flowcert::IntervalD::from_decimal(y[0]).lower() == 0.1);  // the float64, not one tenth
    REQUIRE(c.sha256() != sha256_hex(head + "x = \"x.npy\"\ny = \"y.npy\"\n"));
    // the embedded case stands alone: the arrays inline, exactly, and its digest is the case's
    REQUIRE(c.sha256() == sha256_hex(c.text()));
    const Case again = Case::parse(c.text(), "embedded.toml", schema);
    REQUIRE(again.matrix("x") == x);
    REQUIRE(again.number_strings("y") == y);

    // the same text with other data has another digest
    fs::copy_file(data_dir / "f8_3d.npy", dir / "x3.npy", fs::copy_options::overwrite_existing);
    fs::copy_file(data_dir / "f8_fortran.npy", dir / "x.npy", fs::copy_options::overwrite_existing);
    REQUIRE(Case::load(dir / "c.toml", schema).sha256() != c.sha256());

    auto error_of = [&](const std::string& body) {
        std::ofstream(dir / "bad.toml") << head << body;
        try {
            Case::load(dir / "bad.toml", schema);
        } catch (const CaseError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK_THAT(error_of("x = \"x3.npy\"\ny = \"y.npy\"\n"),
               Catch::Contains("bad.toml:3: key 'x': 'x3.npy' has 3 dimension(s), expected 2"));
    CHECK_THAT(error_of("x = \"x.npy\"\ny = \"x.npy\"\n"), Catch::Contains("key 'y': 'x.npy' has 2 dimension(s)"));
    CHECK_THAT(error_of("x = \"missing.npy\"\ny = \"y.npy\"\n"),
               Catch::Contains("bad.toml:3: key 'x': cannot read 'missing.npy' as a .npy file: cannot open"));
}

TEST_CASE("hex floats are accepted in case files as exact numbers", "[cert][case]") {
    const CaseSchema schema{{.name = "c", .type = KeyType::number, .description = "a number"}};
    const Case c = Case::parse("verifier = \"t\"\nexpect = \"certified\"\nc = \"0x1.999999999999ap-4\"\n", "c.toml", schema);
    REQUIRE(c.interval_d("c").lower() == 0.1);
    REQUIRE(c.interval_d("c").upper() == 0.1);
    REQUIRE_THROWS_WITH(Case::parse("verifier = \"t\"\nexpect = \"certified\"\nc = \"0x1.8q\"\n", "c.toml", schema),
                        Catch::Contains("c.toml:3: key 'c'"));
}

TEST_CASE("npy_bytes writes what numpy's format and our reader read back bit for bit", "[cert][npy]") {
    const std::vector<double> v{0.1, -0.0, 5e-324, -1.7976931348623157e308, 3.0, 1.0 / 3.0};
    for (const std::vector<std::size_t>& shape : {std::vector<std::size_t>{6}, {2, 3}, {3, 2}}) {
        const std::string bytes = npy_bytes(shape, v);
        REQUIRE((bytes.size() - v.size() * 8) % 64 == 0);  // data aligned to 64 bytes, as numpy writes it
        const NpyArray a = parse_npy(bytes);
        REQUIRE(a.shape == shape);
        REQUIRE(a.descr == "<f8");
        for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(a.values[i] == exact_string(v[i]));
    }
    // the header names the shape as numpy does: "(6,)" for one dimension
    REQUIRE(npy_bytes({6}, v).find("'shape': (6,), }") != std::string::npos);
}
