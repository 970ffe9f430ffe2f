// Test verifier for the MPI failure test (mpi_certify_test.sh kill): stands in for a rank that dies
// in the middle of a run. Run by `flowcert certify --mpi` on a worker rank (the Open MPI / PMI rank
// it inherits is not 0), it waits until the file named by FLOWCERT_TEST_KILL_AFTER contains the
// text FLOWCERT_TEST_KILL_AFTER_TEXT (rank 0's line saying that the short case run elsewhere has
// finished; at most 60 s, so a slow machine does not make the test flaky) and kills its parent, the flowcert rank process, with SIGKILL. On rank 0 it plays a
// long case: it sleeps 120 s (mpirun ends the job long before). Exits 5 without a certificate
// either way. Never the verifier of a shipped case.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

int main() {
    std::string rank = "0";
    for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
        if (const char* s = std::getenv(v)) rank = s;
    if (rank != "0") {
        const char* file = std::getenv("FLOWCERT_TEST_KILL_AFTER");
        const char* text = std::getenv("FLOWCERT_TEST_KILL_AFTER_TEXT");
        auto seen = [&] {
            std::ifstream in(file);
            std::stringstream all;
            all << in.rdbuf();
            return all.str().find(text) != std::string::npos;
        };
        for (int i = 0; i < 600 && file && text && !seen(); ++i) usleep(100000);
        kill(getppid(), SIGKILL);  // the flowcert worker rank that spawned this process
        return 5;
    }
    sleep(120);
    return 5;
}
